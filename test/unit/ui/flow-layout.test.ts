// The flow graph's layout: layers by longest path from the start, back edges and loop jumps
// apart, no boxes on top of each other, a path for every edge.

import { describe, expect, it } from 'vitest';
import type { Flow } from '../../../src/flows/flow.ts';
import { layoutFlow, type FlowLayout } from '../../../src/ui/flows/flow-layout.ts';

const support: Flow = {
  name: 'support',
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'triage',
      type: 'conditionAgent',
      instruction: 'Classify',
      scenarios: ['billing', 'technical'],
    },
    { id: 'billing', type: 'agent', instruction: 'Help with billing', tools: ['refund'] },
    { id: 'tech', type: 'agent', instruction: 'Help with tech' },
    { id: 'summary', type: 'llm', instruction: 'Sum up' },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'triage' },
    { from: 'triage', to: 'billing', when: 'billing' },
    { from: 'triage', to: 'tech', when: 'technical' },
    { from: 'billing', to: 'summary' },
    { from: 'tech', to: 'summary' },
    { from: 'summary', to: 'end' },
    // A shortcut across layers: it must not pull `end` left.
    { from: 'triage', to: 'end', when: 'else' },
  ],
};

const writing: Flow = {
  name: 'writing',
  nodes: [
    { id: 'end', type: 'end' }, // not first in the file: the start node still is layer 0
    { id: 'start', type: 'start' },
    { id: 'draft', type: 'agent', instruction: 'Draft' },
    { id: 'critique', type: 'llm', instruction: 'Critique' },
    { id: 'again', type: 'loop', to: 'draft', maxLoops: 2 },
    {
      id: 'check',
      type: 'condition',
      rules: [{ variable: '{{state.ok}}', operation: 'is', value: 'yes', output: 'ok' }],
    },
  ],
  edges: [
    { from: 'start', to: 'draft' },
    { from: 'draft', to: 'critique' },
    { from: 'critique', to: 'check' },
    { from: 'check', to: 'end', when: 'ok' },
    { from: 'check', to: 'again', when: 'else' },
    // A cycle written as an ordinary edge: drawn as a back edge.
    { from: 'again', to: 'critique' },
  ],
};

const layerOf = (layout: FlowLayout) =>
  Object.fromEntries(layout.nodes.map((node) => [node.id, node.layer]));

function overlaps(layout: FlowLayout): string[] {
  const found: string[] = [];
  layout.nodes.forEach((a, i) =>
    layout.nodes.slice(i + 1).forEach((b) => {
      const apart =
        a.x + a.width <= b.x ||
        b.x + b.width <= a.x ||
        a.y + a.height <= b.y ||
        b.y + b.height <= a.y;
      if (!apart) found.push(`${a.id} × ${b.id}`);
    }),
  );
  return found;
}

/** Points along an SVG path of M, L, C and Q commands (absolute), 20 per segment. */
function pointsOf(path: string): [number, number][] {
  const tokens = path.match(/[MLCQ]|-?[\d.]+/g)!;
  const points: [number, number][] = [];
  let at: [number, number] = [0, 0];
  let i = 0;
  const next = (): [number, number] => [Number(tokens[i++]), Number(tokens[i++])];
  while (i < tokens.length) {
    const command = tokens[i++];
    const controls =
      command === 'C' ? [next(), next(), next()] : command === 'Q' ? [next(), next()] : [next()];
    const all = [at, ...controls];
    for (let step = 1; step <= 20; step++) {
      const t = step / 20;
      // De Casteljau: works for lines, quadratics and cubics alike.
      let level = all;
      while (level.length > 1)
        level = level
          .slice(1)
          .map((p, k) => [
            level[k]![0] + (p[0] - level[k]![0]) * t,
            level[k]![1] + (p[1] - level[k]![1]) * t,
          ]);
      if (command !== 'M') points.push(level[0]!);
    }
    at = controls.at(-1)!;
  }
  return points;
}

const inside = (
  box: { x: number; y: number; width: number; height: number },
  x: number,
  y: number,
) => x > box.x + 1 && x < box.x + box.width - 1 && y > box.y + 1 && y < box.y + box.height - 1;

describe('layoutFlow', () => {
  it('layers the graph left to right by the longest path from the start', () => {
    const layout = layoutFlow(support);
    expect(layerOf(layout)).toEqual({
      start: 0,
      triage: 1,
      billing: 2,
      tech: 2,
      summary: 3,
      end: 4,
    });
    const x = Object.fromEntries(layout.nodes.map((node) => [node.id, node.x]));
    expect(x.start).toBeLessThan(x.triage!);
    expect(x.summary).toBeLessThan(x.end!);
  });

  it('keeps back edges and loop jumps out of the layering, and draws them dashed', () => {
    const layout = layoutFlow(writing);
    expect(layerOf(layout)).toEqual({
      start: 0,
      draft: 1,
      critique: 2,
      check: 3,
      end: 4,
      again: 4,
    });
    const kinds = layout.edges.map((edge) => `${edge.from}→${edge.to}:${edge.kind}`);
    expect(kinds).toEqual([
      'start→draft:forward',
      'draft→critique:forward',
      'critique→check:forward',
      'check→end:forward',
      'check→again:forward',
      'again→critique:back',
      'again→draft:loop',
    ]);
  });

  it('labels edges with their `when`, and loop jumps with "loop"', () => {
    const labels = layoutFlow(writing).edges.map((edge) => edge.label ?? '');
    expect(labels).toEqual(['', '', '', 'ok', 'else', '', 'loop']);
    const triage = layoutFlow(support).edges.filter((edge) => edge.from === 'triage');
    expect(triage.map((edge) => edge.label)).toEqual(['billing', 'technical', 'else']);
  });

  it.each([
    ['support', support],
    ['writing', writing],
  ])('puts no box on another and gives every edge a path inside the drawing (%s)', (_, flow) => {
    const layout = layoutFlow(flow);
    expect(overlaps(layout)).toEqual([]);
    expect(layout.edges).toHaveLength(
      flow.edges.length + flow.nodes.filter((n) => n.type === 'loop').length,
    );
    for (const edge of layout.edges) {
      expect(edge.path).toMatch(/^M [\d.]+ [\d.]+ [CL] /);
      expect(edge.labelX).toBeGreaterThanOrEqual(0);
      expect(edge.labelY).toBeLessThanOrEqual(layout.height);
    }
    for (const node of layout.nodes) {
      expect(node.x + node.width).toBeLessThanOrEqual(layout.width);
      expect(node.y + node.height).toBeLessThanOrEqual(layout.height);
    }
  });

  it.each([
    ['support', support],
    ['writing', writing],
  ])('runs no edge through a box it does not join (%s)', (_, flow) => {
    const layout = layoutFlow(flow);
    const crossings = layout.edges.flatMap((edge) =>
      layout.nodes
        .filter((node) => node.id !== edge.from && node.id !== edge.to)
        .filter((node) => pointsOf(edge.path).some(([x, y]) => inside(node, x, y)))
        .map((node) => `${edge.from}→${edge.to} through ${node.id}`),
    );
    expect(crossings).toEqual([]);
  });

  it('orders a layer by barycentre, so that parallel paths do not cross', () => {
    const crossed: Flow = {
      name: 'crossed',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'a', type: 'agent', instruction: 'a' },
        { id: 'b', type: 'agent', instruction: 'b' },
        // Listed the other way round from their parents.
        { id: 'after_b', type: 'llm' },
        { id: 'after_a', type: 'llm' },
      ],
      edges: [
        { from: 'start', to: 'a' },
        { from: 'start', to: 'b' },
        { from: 'a', to: 'after_a' },
        { from: 'b', to: 'after_b' },
      ],
    };
    const y = Object.fromEntries(layoutFlow(crossed).nodes.map((node) => [node.id, node.y]));
    expect(Math.sign(y.a! - y.b!)).toBe(Math.sign(y.after_a! - y.after_b!));
  });

  it.each([
    [
      'condition',
      {
        rules: [
          { variable: '{{question}}', operation: 'isEmpty', output: 'one' },
          { variable: '{{question}}', operation: 'isNotEmpty', output: 'two' },
        ],
      },
      ['one', 'two', 'else'],
    ],
    [
      'conditionAgent',
      { instruction: 'Pick', scenarios: ['one', 'two', 'three'] },
      ['one', 'two', 'three'],
    ],
  ])(
    "stacks a %s's targets in the order of its handles, so its edges do not cross",
    (type, fields, outputs) => {
      const branching = {
        name: 'branching',
        nodes: [
          { id: 'start', type: 'start' },
          { id: 'choose', type, ...fields },
          // Listed (and connected) the other way round from the handles.
          ...outputs.map((when) => ({ id: `to_${when}`, type: 'end' })).reverse(),
        ],
        edges: [
          { from: 'start', to: 'choose' },
          ...outputs.map((when) => ({ from: 'choose', to: `to_${when}`, when })).reverse(),
        ],
      } as unknown as Flow;
      const laid = layoutFlow(branching).nodes;
      const top = [...laid].filter((n) => n.id.startsWith('to_')).sort((a, b) => a.y - b.y);
      expect(top.map((n) => n.id)).toEqual(outputs.map((when) => `to_${when}`));
    },
  );

  it('draws what it can of a flow being edited: no ids, duplicates, unknown ends', () => {
    const broken = {
      name: 'broken',
      nodes: [{ id: 'start', type: 'start' }, { type: 'agent' }, { id: 'start', type: 'end' }],
      edges: [{ from: 'start', to: 'nowhere' }, null],
    } as unknown as Flow;
    const layout = layoutFlow(broken);
    expect(layout.nodes.map((node) => node.id)).toEqual(['start']);
    expect(layout.edges).toEqual([]);
    expect(layoutFlow({ nodes: [], edges: [] }).nodes).toEqual([]);
  });
});

describe('layoutFlow with Iteration groups', () => {
  const grouped = {
    name: 'per-item',
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'each', type: 'iteration', input: '{{state.items}}' },
      { id: 'draft', type: 'llm', instruction: 'Draft', parent: 'each' },
      { id: 'check', type: 'llm', instruction: 'Check', parent: 'each' },
      { id: 'polish', type: 'llm', instruction: 'Polish', parent: 'each' },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { from: 'start', to: 'each' },
      { from: 'draft', to: 'check' },
      { from: 'check', to: 'polish' },
      // Out of a child: drawn from its group at the top level.
      { from: 'polish', to: 'end' },
    ],
  } as unknown as Flow;

  it('lays the children out inside their group and sizes the group to fit them', () => {
    const layout = layoutFlow(grouped);
    const byId = new Map(layout.nodes.map((node) => [node.id, node]));
    const group = byId.get('each')!;
    const children = ['draft', 'check', 'polish'].map((id) => byId.get(id)!);
    for (const child of children) {
      expect(child.parent).toBe('each');
      expect(child.x).toBeGreaterThan(0);
      expect(child.y).toBeGreaterThan(20); // under the group's name
      expect(child.x + child.width).toBeLessThan(group.width);
      expect(child.y + child.height).toBeLessThan(group.height);
    }
    expect(children.map((child) => child.layer)).toEqual([0, 1, 2]);
    expect(group.width).toBeGreaterThan(3 * 136);
    // The group is one box of the top level, between start and end.
    expect(layerOf(layout)).toMatchObject({ start: 0, each: 1, end: 2 });
    expect(byId.get('end')!.x).toBeGreaterThan(group.x + group.width);
    expect(overlaps({ ...layout, nodes: layout.nodes.filter((node) => !node.parent) })).toEqual([]);
  });

  it('keeps a group’s saved size, unless asked to fit it (Tidy up)', () => {
    const sized = {
      ...grouped,
      nodes: grouped.nodes.map((node) =>
        node.id === 'each' ? { ...node, size: { width: 900, height: 400 } } : node,
      ),
    } as Flow;
    const group = (options?: { fitGroups: boolean }) =>
      layoutFlow(sized, options).nodes.find((node) => node.id === 'each')!;
    expect(group()).toMatchObject({ width: 900, height: 400 });
    expect(group({ fitGroups: true }).width).toBeLessThan(900);
  });

  it('draws a node whose parent is missing or no Iteration at the top level, without failing', () => {
    const broken = {
      name: 'broken',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'a', type: 'llm', parent: 'nowhere' },
        { id: 'b', type: 'llm', parent: 'start' },
        { id: 'c', type: 'iteration', parent: 'c' },
        { id: 'd', type: 'llm', parent: 42 },
      ],
      edges: [
        { from: 'start', to: 'a' },
        { from: 'a', to: 'b' },
      ],
    } as unknown as Flow;
    const layout = layoutFlow(broken);
    expect(layout.nodes.map((node) => node.id)).toEqual(['start', 'a', 'b', 'c', 'd']);
    expect(layout.nodes.every((node) => node.parent === undefined)).toBe(true);
    expect(overlaps(layout)).toEqual([]);
  });
});
