// The flow canvas's edits as flows: what it draws of a flow (handles per rule and scenario, loop
// jumps, positions saved or laid out), and each edit — add, move, connect, delete, copy and paste,
// tidy up — as the new flow the editor keeps.

import { describe, expect, it } from 'vitest';
import {
  addNode,
  canvasGraph,
  connect,
  copyNodes,
  PALETTE,
  pasteNodes,
  removeElements,
  tidy,
  withPositions,
} from '../../../src/ui/flows/canvas/canvas-model.ts';
import { parseLooseFlow, type LooseFlow } from '../../../src/ui/flows/canvas/loose-flow.ts';
import { NODE_TYPES, validateFlow } from '../../../src/index.ts';

const support = (): LooseFlow => ({
  name: 'support',
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    {
      id: 'triage',
      type: 'conditionAgent',
      instruction: 'Which team?',
      scenarios: ['billing', 'technical'],
    },
    { id: 'billing', type: 'agent', instruction: 'Help with billing.' },
    { id: 'technical', type: 'agent', instruction: 'Help.' },
    {
      id: 'check',
      type: 'condition',
      rules: [{ variable: '{{output}}', operation: 'isEmpty', output: 'empty' }],
    },
    { id: 'again', type: 'loop', to: 'triage' },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'triage' },
    { from: 'triage', to: 'billing', when: 'billing' },
    { from: 'triage', to: 'technical', when: 'technical' },
    { from: 'billing', to: 'end' },
    { from: 'technical', to: 'check' },
    { from: 'check', to: 'again', when: 'empty' },
    { from: 'check', to: 'end', when: 'else' },
  ],
});

describe('what the canvas draws', () => {
  it('gives each rule and scenario its own handle, conditions an else, ends none, and Start no input', () => {
    const { nodes } = canvasGraph(support());
    const byId = new Map(nodes.map((node) => [node.id, node]));
    expect(byId.get('triage')!.outputs.map((o) => o.id)).toEqual(['billing', 'technical']);
    expect(byId.get('check')!.outputs.map((o) => o.id)).toEqual(['empty', 'else']);
    expect(byId.get('billing')!.outputs.map((o) => o.id)).toEqual(['out']);
    expect(byId.get('end')!.outputs).toEqual([]);
    expect(byId.get('start')!.input).toBe(false);
  });

  it('gives Human Input two handles, Proceed and Reject, its edges leaving from them', () => {
    const flow: LooseFlow = {
      name: 'ask',
      nodes: [
        { id: 'ask', type: 'humanInput', description: 'Send it?' },
        { id: 'send', type: 'reply', message: 'Sent' },
      ],
      edges: [{ from: 'ask', to: 'send', when: 'proceed' }],
    };
    const { nodes, edges } = canvasGraph(flow);
    expect(nodes[0]!.outputs).toEqual([
      { id: 'proceed', label: 'Proceed' },
      { id: 'reject', label: 'Reject' },
    ]);
    expect(edges[0]).toMatchObject({ sourceHandle: 'proceed' });
    const { flow: rejected } = connect(flow, 'ask', 'reject', 'send') as { flow: LooseFlow };
    expect(rejected.edges.at(-1)).toEqual({ from: 'ask', to: 'send', when: 'reject' });
  });

  it('offers every node type in the palette, once, by its name in Flowise', () => {
    expect([...PALETTE.map((item) => item.type)].sort()).toEqual([...NODE_TYPES].sort());
    expect(new Set(PALETTE.map((item) => item.label)).size).toBe(PALETTE.length);
    expect(PALETTE.map((item) => item.label)).toEqual(
      expect.arrayContaining(['Iteration', 'Custom Function', 'Tool', 'HTTP', 'Execute Flow']),
    );
  });

  it('draws edges from the handle their `when` names, and a loop’s jump back', () => {
    const { edges } = canvasGraph(support());
    expect(edges.find((e) => e.target === 'billing')).toMatchObject({
      source: 'triage',
      sourceHandle: 'billing',
    });
    expect(edges.find((e) => e.source === 'billing')).toMatchObject({ sourceHandle: 'out' });
    expect(edges.find((e) => e.id.startsWith('loop:'))).toMatchObject({
      source: 'again',
      target: 'triage',
      label: 'loop',
    });
  });

  it('keeps saved positions and lays out the rest', () => {
    const { nodes } = canvasGraph(support());
    expect(nodes[0]!.position).toEqual({ x: 0, y: 0 });
    const xs = nodes.map((node) => node.position.x);
    expect(new Set(xs).size).toBeGreaterThan(2); // laid out left to right, not piled up
  });

  it('draws what the editor holds when it is not a valid flow, without failing', () => {
    expect(
      parseLooseFlow('{"nodes": [null, {"id": 3}, {"id": "a"}], "edges": [{"from": "a"}]}'),
    ).toMatchObject({ nodes: [{ id: 'a' }], edges: [] });
    expect(parseLooseFlow('{"nodes": ')).toBeUndefined();
    expect(parseLooseFlow('[]')).toBeUndefined();
  });
});

describe('the canvas’s edits', () => {
  it('adds a node with a free id, the fields its form asks for, where it was dropped', () => {
    const { flow, id } = addNode(support(), 'agent', { x: 10.4, y: 20.6 });
    expect(addNode(flow, 'toolCall', { x: 0, y: 0 }).id).toBe('tool_call');
    expect(id).toBe('agent');
    const again = addNode(addNode(flow, 'agent', { x: 0, y: 0 }).flow, 'agent', { x: 0, y: 0 });
    expect(again.id).toBe('agent_3');
    expect(flow.nodes.at(-1)).toEqual({
      id: 'agent',
      type: 'agent',
      instruction: '',
      position: { x: 10, y: 21 },
    });
  });

  it('moves nodes, saving their positions', () => {
    const moved = withPositions(support(), new Map([['billing', { x: 300, y: 120 }]]));
    expect(moved.nodes.find((n) => n.id === 'billing')!.position).toEqual({ x: 300, y: 120 });
  });

  it('connects a handle to a node, the handle’s output as the edge’s when', () => {
    const flow = addNode(support(), 'agent', { x: 0, y: 0 }).flow;
    const { flow: next } = connect(flow, 'triage', 'billing', 'agent') as { flow: LooseFlow };
    expect(next.edges.at(-1)).toEqual({ from: 'triage', to: 'agent', when: 'billing' });
    expect(
      (connect(flow, 'billing', 'out', 'agent') as { flow: LooseFlow }).flow.edges.at(-1),
    ).toEqual({
      from: 'billing',
      to: 'agent',
    });
  });

  it.each([
    ['into the start node', 'billing', 'out', 'start', /Nothing leads into the Start node/],
    ['to itself', 'billing', 'out', 'billing', /cannot lead to itself/],
    ['twice the same way', 'start', 'out', 'triage', /already leads to triage/],
    ['to a node that is not there', 'start', 'out', 'nope', /no node nope/],
  ])('refuses an edge %s', (_, source, handle, target, reason) => {
    expect(connect(support(), source, handle, target)).toEqual({
      refused: expect.stringMatching(reason),
    });
  });

  it('deletes nodes with their edges, and a loop that jumped to one jumps nowhere', () => {
    const next = removeElements(support(), ['triage']);
    expect(next.nodes.map((n) => n.id)).not.toContain('triage');
    expect(next.edges.some((e) => e.from === 'triage' || e.to === 'triage')).toBe(false);
    expect(next.nodes.find((n) => n.id === 'again')!.to).toBe('');
    const withoutEdge = removeElements(support(), [], ['billing>end>']);
    expect(withoutEdge.edges).toHaveLength(6);
  });

  it('pastes copies with new ids, moved, with the edges between them', () => {
    const flow = support();
    const clip = copyNodes(flow, ['billing', 'end', 'start'])!;
    expect(clip.edges).toEqual([{ from: 'billing', to: 'end' }]);
    const { flow: pasted, ids } = pasteNodes(flow, clip);
    expect(ids).toEqual(['start_2', 'billing_2', 'end_2']);
    expect(pasted.edges.at(-1)).toEqual({ from: 'billing_2', to: 'end_2' });
    expect(pasted.nodes.find((n) => n.id === 'start_2')!.position).toEqual({ x: 40, y: 40 });
    // The original is untouched by what is pasted.
    expect(flow.nodes).toHaveLength(7);
  });

  it('tidies up: every node where the automatic layout puts it, and the flow still valid', () => {
    const tidied = tidy(support());
    expect(tidied.nodes.every((node) => node.position !== undefined)).toBe(true);
    expect(validateFlow(tidied)).toEqual([]);
  });
});
