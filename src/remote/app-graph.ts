// The graph of an ADK 2.0 Workflow an ADK server serves, read from its description of the app
// (`GET /dev/apps/{app}/build_graph`: `{ name, root_agent: { name, type: 'workflow', graph: {
// nodes, edges } } }`), as the Flow panel draws it. What the server says is not trusted: anything
// that is not such a graph (another agent, a malformed or oversized answer) gives no graph, and
// the app lists the session's node runs instead.

import { graphView, type GraphViewEdge, type WorkflowGraph } from '../workflow/graph-view.ts';

/** More than this many nodes or edges is not drawn. */
const MAX_PARTS = 500;
const MAX_NAME = 200;

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const nameOf = (value: unknown): string | undefined => {
  const name = isRecord(value) ? value['name'] : undefined;
  return typeof name === 'string' && name.trim() !== '' && name.length <= MAX_NAME
    ? name
    : undefined;
};

/** The routes of a described edge: ADK writes the default route as `default`. */
function routesOf(route: unknown): string[] | undefined {
  if (route === undefined || route === null) return [];
  const list = Array.isArray(route) ? route : [route];
  if (list.length > 50) return undefined;
  const routes = list.map((item) =>
    typeof item === 'boolean' || typeof item === 'number' ? String(item) : item,
  );
  if (!routes.every((item): item is string => typeof item === 'string' && item.length <= MAX_NAME))
    return undefined;
  return routes.map((item) => (item === 'default' ? 'else' : item));
}

/** The workflow graph an app description gives, or undefined when it describes none. */
export function appGraphOf(description: unknown): WorkflowGraph | undefined {
  const root = isRecord(description) ? description['root_agent'] : undefined;
  if (!isRecord(root) || root['type'] !== 'workflow') return undefined;
  const name = nameOf(root);
  const graph = root['graph'];
  if (!name || !isRecord(graph)) return undefined;
  const { nodes, edges } = graph;
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return undefined;
  if (nodes.length > MAX_PARTS || edges.length > MAX_PARTS) return undefined;
  const seen = new Set<string>();
  const viewNodes = [];
  for (const node of nodes) {
    const nodeName = nameOf(node);
    if (!nodeName || seen.has(nodeName)) return undefined;
    seen.add(nodeName);
    const kind = (node as Json)['type'];
    viewNodes.push({ name: nodeName, kind: typeof kind === 'string' ? kind : 'function' });
  }
  const viewEdges: GraphViewEdge[] = [];
  for (const edge of edges) {
    if (!isRecord(edge)) return undefined;
    const from = nameOf(edge['from_node']);
    const to = nameOf(edge['to_node']);
    const routes = routesOf(edge['route']);
    if (!from || !to || !seen.has(from) || !seen.has(to) || !routes) return undefined;
    viewEdges.push({ from, to, routes });
  }
  return graphView(name, viewNodes, viewEdges);
}
