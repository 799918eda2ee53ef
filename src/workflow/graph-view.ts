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

/** A node as the drawing needs it: its name and kind (`start`, `function`, `agent`…). */
export interface GraphViewNode {
  name: string;
  kind: string;
}

/** An edge as the drawing needs it: the routes it takes (`else` for the default), or none. */
export interface GraphViewEdge {
  from: string;
  to: string;
  routes: readonly string[];
}

export function workflowGraph(name: string, graph: Graph): WorkflowGraph {
  return graphView(
    name,
    graph.nodes.map((node) => ({
      name: node.name,
      kind: node === START ? 'start' : kindOf(node),
    })),
    graph.edges.map((edge) => ({
      from: edge.fromNode.name,
      to: edge.toNode.name,
      routes:
        edge.route === null
          ? []
          : (Array.isArray(edge.route) ? edge.route : [edge.route]).map((route) =>
              route === DEFAULT_ROUTE ? 'else' : String(route),
            ),
    })),
  );
}

/**
 * The drawing of a graph given as nodes and edges (a Workflow's here, or one an ADK server
 * describes): START becomes `start`, a node that routes a condition whose rules are its routes.
 */
export function graphView(
  name: string,
  graphNodes: readonly GraphViewNode[],
  graphEdges: readonly GraphViewEdge[],
): WorkflowGraph {
  const id = (nodeName: string) => (nodeName === START.name ? START_ID : nodeName);
  const routesOf = new Map<string, Set<string>>();
  const edges: WorkflowGraphEdge[] = [];
  for (const edge of graphEdges) {
    if (edge.routes.length === 0) edges.push({ from: id(edge.from), to: id(edge.to) });
    for (const when of edge.routes) {
      if (when !== 'else') {
        if (!routesOf.has(edge.from)) routesOf.set(edge.from, new Set());
        routesOf.get(edge.from)!.add(when);
      }
      edges.push({ from: id(edge.from), to: id(edge.to), when });
    }
  }
  const nodes = graphNodes.map((node): WorkflowGraphNode => {
    if (node.kind === 'start' || node.name === START.name)
      return { id: START_ID, type: 'start', label: 'Start' };
    const routes = routesOf.get(node.name);
    if (routes) {
      return {
        id: node.name,
        type: 'condition',
        label: node.name,
        rules: [...routes].map((output) => ({ output })),
      };
    }
    return { id: node.name, type: node.kind, label: node.name };
  });
  return { name, nodes, edges };
}

function kindOf(node: object): string {
  if ((node as { requiresAllPredecessors?: boolean }).requiresAllPredecessors) return 'join';
  if ((node as { graph?: unknown }).graph) return 'workflow';
  if ((node as { inner?: unknown }).inner) return 'parallel';
  return 'function';
}
