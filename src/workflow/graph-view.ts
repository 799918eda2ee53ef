// A workflow's graph as plain data, for a page to draw (the Flow panel's canvas): its nodes with
// a kind each, and its edges with the route each takes. A node that routes is drawn as a
// condition whose outputs are its routes (DEFAULT_ROUTE as `else`).

import { DEFAULT_ROUTE, type Graph } from './graph.ts';
import { START } from './nodes.ts';

export interface WorkflowGraphNode {
  id: string;
  /** `start`, `function`, `join`, `workflow`, `parallel`, or `condition` for a node that routes. */
  type: string;
  label: string;
  /** A routing node's routes, as a condition's rules (`output` is the route). */
  rules?: { output: string }[];
}

export interface WorkflowGraphEdge {
  from: string;
  to: string;
  /** The route it takes (`else`: DEFAULT_ROUTE); none when always taken. */
  when?: string;
}

export interface WorkflowGraph {
  name: string;
  nodes: WorkflowGraphNode[];
  edges: WorkflowGraphEdge[];
}

/** The id the START node has in the drawing. */
export const START_ID = 'start';

export function workflowGraph(name: string, graph: Graph): WorkflowGraph {
  const id = (nodeName: string) => (nodeName === START.name ? START_ID : nodeName);
  const routesOf = new Map<string, Set<string>>();
  const edges: WorkflowGraphEdge[] = [];
  for (const edge of graph.edges) {
    const from = edge.fromNode.name;
    const routes =
      edge.route === null
        ? []
        : (Array.isArray(edge.route) ? edge.route : [edge.route]).map(String);
    if (routes.length === 0) edges.push({ from: id(from), to: id(edge.toNode.name) });
    for (const route of routes) {
      const when = route === DEFAULT_ROUTE ? 'else' : route;
      if (when !== 'else') {
        if (!routesOf.has(from)) routesOf.set(from, new Set());
        routesOf.get(from)!.add(when);
      }
      edges.push({ from: id(from), to: id(edge.toNode.name), when });
    }
  }
  const nodes = graph.nodes.map((node): WorkflowGraphNode => {
    if (node === START) return { id: START_ID, type: 'start', label: 'Start' };
    const routes = routesOf.get(node.name);
    if (routes) {
      return {
        id: node.name,
        type: 'condition',
        label: node.name,
        rules: [...routes].map((output) => ({ output })),
      };
    }
    return { id: node.name, type: kindOf(node), label: node.name };
  });
  return { name, nodes, edges };
}

function kindOf(node: object): string {
  if ((node as { requiresAllPredecessors?: boolean }).requiresAllPredecessors) return 'join';
  if ((node as { graph?: unknown }).graph) return 'workflow';
  if ((node as { inner?: unknown }).inner) return 'parallel';
  return 'function';
}
