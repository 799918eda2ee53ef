// Iteration groups on the canvas: a node in one has the group's id as its `parent` and its
// position relative to the group's top left; dropped into a group it joins it, dragged out it
// leaves it; a group deleted takes its children with it (as in Flowise); a `parent` that names
// no Iteration node draws the node at the top level.

import { describe, expect, it } from 'vitest';
import {
  addNode,
  canvasGraph,
  copyNodes,
  pasteNodes,
  removeElements,
  tidy,
  withDrawnPlaces,
} from '../../../src/ui/flows/canvas/canvas-model.ts';
import { dropNodes, geometryOf } from '../../../src/ui/flows/canvas/canvas-groups.ts';
import type { LooseFlow } from '../../../src/ui/flows/canvas/loose-flow.ts';
import { validateFlow } from '../../../src/index.ts';

/** Start → each (an Iteration at 200,100 of 300 × 200 holding summarise → check) → end. */
const grouped = (): LooseFlow => ({
  name: 'per-item',
  state: [{ key: 'items', operation: 'replace', default: [] }],
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 100 } },
    {
      id: 'each',
      type: 'iteration',
      input: '{{state.items}}',
      position: { x: 200, y: 100 },
      size: { width: 300, height: 200 },
    },
    {
      id: 'summarise',
      type: 'llm',
      instruction: 'Sum up {{iteration.item}}',
      parent: 'each',
      position: { x: 20, y: 50 },
    },
    { id: 'check', type: 'reply', message: 'ok', parent: 'each', position: { x: 150, y: 120 } },
    { id: 'end', type: 'end', position: { x: 600, y: 100 } },
  ],
  edges: [
    { from: 'start', to: 'each' },
    { from: 'summarise', to: 'check' },
    { from: 'each', to: 'end' },
  ],
});

const node = (flow: LooseFlow, id: string) => flow.nodes.find((n) => n.id === id)!;

describe('what the canvas draws of groups', () => {
  it('draws a group at its size before the nodes it holds, each at its place in it', () => {
    const { nodes } = canvasGraph(grouped());
    expect(nodes[0]).toMatchObject({ id: 'each', size: { width: 300, height: 200 } });
    expect(nodes.find((n) => n.id === 'summarise')).toMatchObject({
      parent: 'each',
      position: { x: 20, y: 50 },
    });
    expect(nodes.find((n) => n.id === 'end')).not.toHaveProperty('parent');
  });

  it.each([
    ['a node that is not there', 'nobody'],
    ['a node that is no Iteration', 'end'],
    ['itself', 'summarise'],
  ])('draws a node whose parent names %s at the top level', (_, parent) => {
    const flow = grouped();
    node(flow, 'summarise').parent = parent;
    const drawn = canvasGraph(flow).nodes.find((n) => n.id === 'summarise')!;
    expect(drawn).not.toHaveProperty('parent');
    expect(drawn.position).toEqual({ x: 20, y: 50 });
  });

  it('does not nest groups: an Iteration inside one is drawn at the top level', () => {
    const flow = grouped();
    flow.nodes.push({ id: 'inner', type: 'iteration', input: '', parent: 'each' });
    const { nodes } = canvasGraph(flow);
    expect(nodes.find((n) => n.id === 'inner')).not.toHaveProperty('parent');
    expect(nodes.find((n) => n.id === 'inner')!.size).toBeDefined();
  });

  it('lays out a group’s children inside it, and sizes a group of no saved size to hold them', () => {
    const flow = grouped();
    for (const n of flow.nodes) delete n.position;
    delete node(flow, 'each').size;
    const { positions, sizes } = geometryOf(flow);
    const size = sizes.get('each')!;
    for (const id of ['summarise', 'check']) {
      const at = positions.get(id)!;
      expect(at.x).toBeGreaterThanOrEqual(0);
      expect(at.y).toBeGreaterThanOrEqual(30); // below the group's name
      expect(at.x + 136).toBeLessThanOrEqual(size.width);
      expect(at.y + 46).toBeLessThanOrEqual(size.height);
    }
    expect(positions.get('check')!.x).toBeGreaterThan(positions.get('summarise')!.x);
  });
});

describe('dragging nodes into and out of a group', () => {
  it('puts a node dropped over a group in it, its position made relative', () => {
    const { flow } = dropNodes(grouped(), [{ id: 'end', position: { x: 300, y: 150 } }]);
    expect(node(flow, 'end')).toMatchObject({ parent: 'each', position: { x: 100, y: 50 } });
  });

  it('takes a node dragged out of its group out of it, its position made absolute', () => {
    // Drawn in the group: its position as dragged is relative to the group (200, 100).
    const { flow } = dropNodes(grouped(), [{ id: 'check', position: { x: 420, y: 20 } }]);
    expect(node(flow, 'check')).not.toHaveProperty('parent');
    expect(node(flow, 'check').position).toEqual({ x: 620, y: 120 });
  });

  it('keeps a node moved within its group in it', () => {
    const { flow } = dropNodes(grouped(), [{ id: 'check', position: { x: 100, y: 100 } }]);
    expect(node(flow, 'check')).toMatchObject({ parent: 'each', position: { x: 100, y: 100 } });
  });

  it('judges by the middle of the node (its measured size when given)', () => {
    // Its top left is left of the group, its middle in it.
    const { flow } = dropNodes(grouped(), [
      { id: 'end', position: { x: 150, y: 150 }, size: { width: 136, height: 46 } },
    ]);
    expect(node(flow, 'end')).toMatchObject({ parent: 'each', position: { x: -50, y: 50 } });
  });

  it('keeps the Start node and other Iterations out of a group, saying why for Start', () => {
    const flow = grouped();
    flow.nodes.push({ id: 'other', type: 'iteration', input: '' });
    const dropped = dropNodes(flow, [
      { id: 'start', position: { x: 300, y: 150 } },
      { id: 'other', position: { x: 250, y: 150 } },
    ]);
    expect(node(dropped.flow, 'start')).not.toHaveProperty('parent');
    expect(node(dropped.flow, 'start').position).toEqual({ x: 300, y: 150 });
    expect(node(dropped.flow, 'other')).not.toHaveProperty('parent');
    expect(dropped.refused).toMatch(/Start node/);
  });

  it('adds a node dropped from the palette onto a group into it', () => {
    const added = addNode(grouped(), 'code', { x: 260, y: 200 });
    expect(added.id).toBe('code');
    expect(node(added.flow, 'code')).toMatchObject({
      type: 'code',
      parent: 'each',
      position: { x: 60, y: 100 },
    });
    const group = addNode(grouped(), 'iteration', { x: 700, y: 0 });
    expect(node(group.flow, 'iteration')).toMatchObject({
      size: { width: 320, height: 200 },
      position: { x: 700, y: 0 },
    });
  });
});

describe('groups in the other edits', () => {
  it('deletes a group with its children and their edges', () => {
    const next = removeElements(grouped(), ['each']);
    expect(next.nodes.map((n) => n.id)).toEqual(['start', 'end']);
    expect(next.edges).toEqual([]);
  });

  it('copies a group with its children; the copies are in the copy, where they were', () => {
    const flow = grouped();
    const { flow: pasted, ids } = pasteNodes(flow, copyNodes(flow, ['each'])!);
    expect(ids).toEqual(['each_2', 'summarise_2', 'check_2']);
    expect(node(pasted, 'each_2').position).toEqual({ x: 240, y: 140 });
    expect(node(pasted, 'summarise_2')).toMatchObject({
      parent: 'each_2',
      position: { x: 20, y: 50 },
    });
    expect(pasted.edges.at(-1)).toEqual({ from: 'summarise_2', to: 'check_2' });
  });

  it('tidies up: children inside their group, the group sized to fit them, still valid', () => {
    const tidied = tidy(grouped());
    const size = node(tidied, 'each').size as { width: number; height: number };
    const check = node(tidied, 'check').position as { x: number; y: number };
    expect(node(tidied, 'check').parent).toBe('each');
    expect(check.x + 136).toBeLessThanOrEqual(size.width);
    expect(size.width).toBeLessThan(400);
    expect(validateFlow(tidied)).toEqual([]);
  });

  it('saves where a group is drawn and its size at the first edit', () => {
    const flow = grouped();
    delete node(flow, 'each').size;
    delete node(flow, 'each').position;
    const saved = withDrawnPlaces(flow, flow);
    expect(node(saved, 'each').position).toEqual(geometryOf(flow).positions.get('each'));
    expect(node(saved, 'each').size).toEqual(geometryOf(flow).sizes.get('each'));
  });
});
