// A workflow's graph, written as ADK 2.0 writes it: edge chains (`['START', a, b]`), routing maps
// (`[classify, { billing: a, tech: b }]`, `DEFAULT_ROUTE` for the rest), fan-out and fan-in
// (`[a, [b, c], join]`) and explicit `Edge`s. A graph is checked when it is built: unique names,
// START with no routes and nothing coming in, every node reachable, no edge twice, one default
// route per node, and no cycle without a route to leave it.

import { InvalidRequestError } from '../core/errors.ts';
import type { RouteValue } from './node-context.ts';
import { isNodeLike, node, type NodeLike } from './build-node.ts';
import { START, type GraphNode } from './nodes.ts';

/** The route an edge takes when no other route of its node matched. */
export const DEFAULT_ROUTE = '__DEFAULT__';

export class Edge {
  constructor(
    readonly fromNode: GraphNode,
    readonly toNode: GraphNode,
    /** `null`: always taken; else taken when the node's route is (one of) these. */
    readonly route: RouteValue | RouteValue[] | null = null,
  ) {}
}

/** Route value → the node(s) it leads to. */
export type RoutingMap = Record<string, NodeLike | readonly NodeLike[]>;
export type ChainElement = NodeLike | readonly NodeLike[] | RoutingMap;
export type EdgeItem = Edge | readonly ChainElement[];

export class Graph {
  readonly nodes: GraphNode[] = [];
  readonly terminalNodeNames: ReadonlySet<string>;
  private readonly byName = new Map<string, GraphNode>();

  constructor(readonly edges: readonly Edge[]) {
    for (const edge of edges) {
      for (const n of [edge.fromNode, edge.toNode]) {
        if (!this.nodes.includes(n)) this.nodes.push(n);
      }
    }
    this.terminalNodeNames = validateGraph(this.nodes, edges);
    for (const n of this.nodes) this.byName.set(n.name, n);
  }

  node(name: string): GraphNode {
    const found = this.byName.get(name);
    if (!found) throw new InvalidRequestError(`No node ${name} in the graph`);
    return found;
  }

  /** The names of the nodes a finished node leads to, for the route it chose. */
  next(nodeName: string, route: RouteValue | RouteValue[] | undefined): string[] {
    const next: string[] = [];
    const chosen = route === undefined ? [] : (Array.isArray(route) ? route : [route]).map(String);
    let matched = false;
    let fallback: string | undefined;
    for (const edge of this.edges) {
      if (edge.fromNode.name !== nodeName) continue;
      if (edge.route === null) {
        next.push(edge.toNode.name);
      } else if (edge.route === DEFAULT_ROUTE) {
        fallback = edge.toNode.name;
      } else {
        const routes = (Array.isArray(edge.route) ? edge.route : [edge.route]).map(String);
        if (chosen.some((r) => routes.includes(r))) {
          next.push(edge.toNode.name);
          matched = true;
        }
      }
    }
    if (!matched && fallback !== undefined) next.push(fallback);
    return next;
  }

  /** The nodes with an edge into `name`. */
  predecessors(name: string): string[] {
    return [
      ...new Set(this.edges.filter((e) => e.toNode.name === name).map((e) => e.fromNode.name)),
    ];
  }
}

/** Builds and checks the graph of `items`. */
export function graphOf(items: readonly EdgeItem[]): Graph {
  const built = new Map<unknown, GraphNode>();
  const nodeOf = (value: NodeLike): GraphNode => {
    if (value === 'START') return START;
    let found = built.get(value);
    if (!found) {
      found = node(value);
      built.set(value, found);
    }
    return found;
  };
  const edges: Edge[] = [];
  for (const item of items) {
    if (item instanceof Edge) {
      edges.push(new Edge(nodeOf(item.fromNode), nodeOf(item.toNode), item.route));
      continue;
    }
    if (!Array.isArray(item)) throw new InvalidRequestError('An edge item is an Edge or a chain');
    for (let i = 0; i + 1 < item.length; i++) {
      const from = item[i] as ChainElement;
      const to = item[i + 1] as ChainElement;
      if (isRoutingMap(to)) {
        if (isRoutingMap(from)) {
          throw new InvalidRequestError('Two routing maps cannot follow each other in a chain');
        }
        const keys = Object.keys(to);
        if (keys.length === 0) throw new InvalidRequestError('A routing map needs a route');
        for (const key of keys) {
          const route = routeOfKey(key);
          for (const a of nodesOf(from)) {
            for (const b of nodesOf(to[key]!)) edges.push(new Edge(nodeOf(a), nodeOf(b), route));
          }
        }
      } else {
        for (const a of nodesOf(from)) {
          for (const b of nodesOf(to)) edges.push(new Edge(nodeOf(a), nodeOf(b)));
        }
      }
    }
  }
  return new Graph(edges);
}

function isRoutingMap(value: unknown): value is RoutingMap {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function nodesOf(element: ChainElement): NodeLike[] {
  const all = isRoutingMap(element)
    ? Object.values(element).flatMap((v) => (Array.isArray(v) ? v : [v]))
    : Array.isArray(element)
      ? [...element]
      : [element];
  for (const value of all) {
    if (!isNodeLike(value))
      throw new InvalidRequestError('A chain holds nodes, functions and routing maps');
  }
  return all as NodeLike[];
}

/** Object keys are strings: `'2'` and `'true'` mean the number and the boolean, as in ADK. */
function routeOfKey(key: string): RouteValue {
  if (/^-?\d+$/.test(key)) return Number(key);
  if (key === 'true' || key === 'false') return key === 'true';
  return key;
}

function validateGraph(nodes: readonly GraphNode[], edges: readonly Edge[]): Set<string> {
  const names = new Set<string>();
  const twice = new Set<string>();
  for (const n of nodes) (names.has(n.name) ? twice : names).add(n.name);
  if (twice.size > 0) {
    throw new InvalidRequestError(
      `Two nodes share a name: ${[...twice].sort().join(', ')}. Use the same node object, or give them names of their own`,
    );
  }
  if (!names.has(START.name)) throw new InvalidRequestError('The graph has no START');
  const adjacent = new Map<string, string[]>([...names].map((n) => [n, []]));
  const seen = new Set<string>();
  const defaults = new Set<string>();
  for (const edge of edges) {
    const from = edge.fromNode.name;
    const to = edge.toNode.name;
    if (from === START.name && edge.route !== null) {
      throw new InvalidRequestError(`An edge from START takes no route (the edge to ${to})`);
    }
    if (to === START.name) throw new InvalidRequestError('No edge may lead into START');
    adjacent.get(from)!.push(to);
    const routes =
      edge.route === null
        ? [null]
        : (Array.isArray(edge.route) ? edge.route : [edge.route]).map(String);
    for (const route of routes) {
      const key = JSON.stringify([from, to, route]);
      if (seen.has(key))
        throw new InvalidRequestError(`The edge from ${from} to ${to} is there twice`);
      seen.add(key);
    }
    if (Array.isArray(edge.route) && edge.route.includes(DEFAULT_ROUTE)) {
      throw new InvalidRequestError(
        `DEFAULT_ROUTE stands alone on an edge (from ${from} to ${to})`,
      );
    }
    if (edge.route === DEFAULT_ROUTE) {
      if (defaults.has(from)) throw new InvalidRequestError(`${from} has two DEFAULT_ROUTE edges`);
      defaults.add(from);
    }
  }
  const reached = new Set<string>();
  const stack = [START.name];
  while (stack.length > 0) {
    const name = stack.pop()!;
    if (reached.has(name)) continue;
    reached.add(name);
    stack.push(...adjacent.get(name)!);
  }
  const unreachable = [...names].filter((n) => !reached.has(n)).sort();
  if (unreachable.length > 0) {
    throw new InvalidRequestError(`Nodes no path from START reaches: ${unreachable.join(', ')}`);
  }
  checkNoUnconditionalCycle(names, edges);
  const from = new Set(edges.map((e) => e.fromNode.name));
  return new Set([...names].filter((n) => n !== START.name && !from.has(n)));
}

function checkNoUnconditionalCycle(names: ReadonlySet<string>, edges: readonly Edge[]): void {
  const next = new Map<string, string[]>([...names].map((n) => [n, []]));
  for (const edge of edges)
    if (edge.route === null) next.get(edge.fromNode.name)!.push(edge.toNode.name);
  const done = new Set<string>();
  const path: string[] = [];
  const visit = (name: string): void => {
    path.push(name);
    for (const to of next.get(name)!) {
      const at = path.indexOf(to);
      if (at >= 0) {
        throw new InvalidRequestError(
          `The cycle ${[...path.slice(at), to].join(' → ')} has no route to leave it: make one of its edges conditional`,
        );
      }
      if (!done.has(to)) visit(to);
    }
    path.pop();
    done.add(name);
  };
  for (const name of names) if (!done.has(name)) visit(name);
}
