// What an ADK server's description of an app becomes on the Flow panel: a Workflow's graph, or
// nothing (another agent, a malformed, oversized or hostile answer), never a half-drawn graph.

import { describe, expect, it } from 'vitest';
import { appGraphOf } from '../../../src/remote/app-graph.ts';

const node = (name: string, type = 'function') => ({ name, type });
const edge = (from: string, to: string, route?: unknown) => ({
  from_node: node(from),
  to_node: node(to),
  ...(route !== undefined ? { route } : {}),
});
const describeApp = (nodes: unknown[], edges: unknown[], name = 'wf') => ({
  name,
  root_agent: { name, type: 'workflow', graph: { nodes, edges } },
});

describe('appGraphOf', () => {
  it('draws a workflow: START as start, a routing node as a condition, default as else', () => {
    const graph = appGraphOf(
      describeApp(
        [node('__START__', 'start'), node('pick'), node('a', 'agent'), node('b', 'tool')],
        [edge('__START__', 'pick'), edge('pick', 'a', ['x', true]), edge('pick', 'b', 'default')],
      ),
    );
    expect(graph).toEqual({
      name: 'wf',
      nodes: [
        { id: 'start', type: 'start', label: 'Start' },
        {
          id: 'pick',
          type: 'condition',
          label: 'pick',
          rules: [{ output: 'x' }, { output: 'true' }],
        },
        { id: 'a', type: 'agent', label: 'a' },
        { id: 'b', type: 'tool', label: 'b' },
      ],
      edges: [
        { from: 'start', to: 'pick' },
        { from: 'pick', to: 'a', when: 'x' },
        { from: 'pick', to: 'a', when: 'true' },
        { from: 'pick', to: 'b', when: 'else' },
      ],
    });
  });

  it('gives no graph for an agent that is not a workflow, or an answer that is not one', () => {
    expect(
      appGraphOf({ name: 'echo', root_agent: { name: 'echo', type: 'agent' } }),
    ).toBeUndefined();
    for (const answer of [undefined, null, 'text', [], { root_agent: [] }, { error: 'nope' }])
      expect(appGraphOf(answer)).toBeUndefined();
  });

  it('refuses a graph whose edges name nodes it does not have, or whose parts are malformed', () => {
    const start = node('__START__', 'start');
    const cases: [string, unknown][] = [
      ['an edge to a node it lacks', describeApp([start], [edge('__START__', 'ghost')])],
      ['two nodes of one name', describeApp([start, node('a'), node('a')], [])],
      ['a node with no name', describeApp([start, { type: 'function' }], [])],
      ['a name too long', describeApp([start, node('n'.repeat(201))], [])],
      ['a route that is an object', describeApp([start, node('a')], [edge('__START__', 'a', {})])],
      [
        'too many nodes',
        describeApp(
          Array.from({ length: 501 }, (_, i) => node(`n${i}`)),
          [],
        ),
      ],
      [
        'edges that are not a list',
        { root_agent: { name: 'wf', type: 'workflow', graph: { nodes: [], edges: {} } } },
      ],
    ];
    for (const [what, answer] of cases) expect(appGraphOf(answer), what).toBeUndefined();
  });

  it('keeps hostile names as text (the canvas draws them as text, never as markup)', () => {
    const name = '<img src=x onerror=alert(1)>';
    const graph = appGraphOf(
      describeApp([node('__START__', 'start'), node(name)], [edge('__START__', name)]),
    );
    expect(graph?.nodes[1]).toEqual({ id: name, type: 'function', label: name });
  });
});
