// Where each node and edge of a flow graph is drawn: a layered layout, left to right.
//
// - Layers: the start node is layer 0; every other node sits one layer right of its furthest
//   forward predecessor (longest path over the forward edges, so the graph reads left to right).
// - Forward and back edges: a depth-first walk from the start node; an edge to a node still on
//   the walk's stack closes a cycle and is a back edge. Loop jumps (a loop node to its `to`) are
//   always drawn as back edges. Back edges are curved and dashed, below the boxes they join.
// - Order within a layer: by barycentre of the neighbours in the layers already placed, swept
//   right then left a few times, which removes most crossings.
// It takes whatever the editor holds: nodes without an id, duplicates and edges to unknown nodes
// are left out rather than failing.

import type { Flow, FlowNodeType } from '../flows/flow.ts';

export const NODE_WIDTH = 150;
export const NODE_HEIGHT = 48;
const GAP_X = 70;
const GAP_Y = 30;
const MARGIN = 16;
/** How far below its lowest box a back edge's curve dips, per layer it spans. */
const BACK_DIP = 26;
const SWEEPS = 4;

export interface LaidOutNode {
  id: string;
  type: FlowNodeType | string;
  /** The display name (the node's label, else its id). */
  label: string;
  layer: number;
  /** Top left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
}

export type EdgeKind = 'forward' | 'back' | 'loop';

export interface LaidOutEdge {
  from: string;
  to: string;
  /** The edge's `when` (condition output, scenario); loop jumps say "loop". */
  label: string | undefined;
  kind: EdgeKind;
  /** An SVG path (`d` attribute). */
  path: string;
  /** Where the label goes (the curve's midpoint). */
  labelX: number;
  labelY: number;
}

export interface FlowLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

interface GraphNode {
  id: string;
  type: string;
  label: string;
}

interface GraphEdge {
  from: string;
  to: string;
  when: string | undefined;
  loop: boolean;
}

export function layoutFlow(flow: Pick<Flow, 'nodes' | 'edges'>): FlowLayout {
  const nodes = graphNodes(flow);
  const ids = new Set(nodes.map((node) => node.id));
  const edges = graphEdges(flow, ids);
  const back = backEdges(nodes, edges);
  const forward = edges.filter((edge) => !back.has(edge));
  const layers = orderLayers(nodes, forward, layerOf(nodes, forward));

  const tallest = Math.max(1, ...layers.map((layer) => layer.length));
  const placed = new Map<string, LaidOutNode>();
  layers.forEach((layer, index) => {
    // Each layer is centred vertically on the tallest one.
    const offset = ((tallest - layer.length) * (NODE_HEIGHT + GAP_Y)) / 2;
    layer.forEach((node, row) => {
      placed.set(node.id, {
        ...node,
        layer: index,
        x: MARGIN + index * (NODE_WIDTH + GAP_X),
        y: MARGIN + offset + row * (NODE_HEIGHT + GAP_Y),
        width: NODE_WIDTH,
        height: NODE_HEIGHT,
      });
    });
  });
  const laidOut = nodes.map((node) => placed.get(node.id)!);
  const boxesBottom = MARGIN + tallest * (NODE_HEIGHT + GAP_Y) - GAP_Y;
  const drawn = edges.map((edge) =>
    drawEdge(edge, back.has(edge), placed.get(edge.from)!, placed.get(edge.to)!),
  );
  const lowest = Math.max(boxesBottom, ...drawn.map((edge) => edge.bottom));
  return {
    width: MARGIN * 2 + Math.max(1, layers.length) * (NODE_WIDTH + GAP_X) - GAP_X,
    height: lowest + MARGIN,
    nodes: laidOut,
    edges: drawn.map(({ bottom: _bottom, ...edge }) => edge),
  };
}

function graphNodes(flow: Pick<Flow, 'nodes'>): GraphNode[] {
  const seen = new Set<string>();
  const nodes: GraphNode[] = [];
  for (const node of Array.isArray(flow.nodes) ? flow.nodes : []) {
    const id = (node as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !id || seen.has(id)) continue;
    seen.add(id);
    const label = typeof node.label === 'string' && node.label ? node.label : id;
    nodes.push({ id, type: typeof node.type === 'string' ? node.type : '?', label });
  }
  // The start node first: the walk and the layers begin there.
  const start = nodes.findIndex((node) => node.type === 'start');
  if (start > 0) nodes.unshift(...nodes.splice(start, 1));
  return nodes;
}

function graphEdges(flow: Pick<Flow, 'nodes' | 'edges'>, ids: Set<string>): GraphEdge[] {
  const edges: GraphEdge[] = [];
  for (const edge of Array.isArray(flow.edges) ? flow.edges : []) {
    if (!edge || !ids.has(edge.from) || !ids.has(edge.to)) continue;
    const when = typeof edge.when === 'string' && edge.when ? edge.when : undefined;
    edges.push({ from: edge.from, to: edge.to, when, loop: false });
  }
  for (const node of Array.isArray(flow.nodes) ? flow.nodes : []) {
    if (node?.type === 'loop' && ids.has(node.id) && ids.has(node.to))
      edges.push({ from: node.id, to: node.to, when: undefined, loop: true });
  }
  return edges;
}

/** The edges that close a cycle (found by a depth-first walk from the start), and loop jumps. */
function backEdges(nodes: GraphNode[], edges: GraphEdge[]): Set<GraphEdge> {
  const out = new Map<string, GraphEdge[]>(nodes.map((node) => [node.id, []]));
  for (const edge of edges) if (!edge.loop) out.get(edge.from)!.push(edge);
  const back = new Set(edges.filter((edge) => edge.loop));
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string) => {
    state.set(id, 'open');
    for (const edge of out.get(id)!) {
      const seen = state.get(edge.to);
      if (seen === 'open') back.add(edge);
      else if (!seen) visit(edge.to);
    }
    state.set(id, 'done');
  };
  // Nodes the start cannot reach get walks of their own, in file order.
  for (const node of nodes) if (!state.has(node.id)) visit(node.id);
  return back;
}

/** Longest path from the roots over the forward edges (which form a DAG). */
function layerOf(nodes: GraphNode[], forward: GraphEdge[]): Map<string, number> {
  const incoming = new Map<string, number>(nodes.map((node) => [node.id, 0]));
  for (const edge of forward) incoming.set(edge.to, incoming.get(edge.to)! + 1);
  const layer = new Map<string, number>(nodes.map((node) => [node.id, 0]));
  const ready = nodes.filter((node) => incoming.get(node.id) === 0).map((node) => node.id);
  while (ready.length > 0) {
    const id = ready.shift()!;
    for (const edge of forward) {
      if (edge.from !== id) continue;
      layer.set(edge.to, Math.max(layer.get(edge.to)!, layer.get(id)! + 1));
      const left = incoming.get(edge.to)! - 1;
      incoming.set(edge.to, left);
      if (left === 0) ready.push(edge.to);
    }
  }
  return layer;
}

function orderLayers(
  nodes: GraphNode[],
  forward: GraphEdge[],
  layer: Map<string, number>,
): GraphNode[][] {
  const count = Math.max(-1, ...layer.values()) + 1;
  const layers: GraphNode[][] = Array.from({ length: count }, () => []);
  for (const node of nodes) layers[layer.get(node.id)!]!.push(node);
  const preds = neighbours(forward, 'to', 'from');
  const succs = neighbours(forward, 'from', 'to');
  const position = new Map<string, number>();
  const remember = () =>
    layers.forEach((nodesOfLayer) => nodesOfLayer.forEach((node, i) => position.set(node.id, i)));
  remember();
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const rightward = sweep % 2 === 0;
    const order = rightward ? layers.keys() : [...layers.keys()].reverse();
    for (const index of order) {
      const by = rightward ? preds : succs;
      const barycentre = (node: GraphNode) => {
        const near = (by.get(node.id) ?? []).map((id) => position.get(id)!);
        return near.length === 0
          ? position.get(node.id)!
          : near.reduce((sum, p) => sum + p, 0) / near.length;
      };
      const keyed = layers[index]!.map((node) => ({ node, key: barycentre(node) }));
      // A stable sort: ties keep their order, so the layout does not jitter between sweeps.
      keyed.sort((a, b) => a.key - b.key);
      layers[index] = keyed.map(({ node }) => node);
      layers[index]!.forEach((node, i) => position.set(node.id, i));
    }
  }
  return layers;
}

function neighbours(
  edges: GraphEdge[],
  key: 'from' | 'to',
  value: 'from' | 'to',
): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const edge of edges) map.set(edge[key], [...(map.get(edge[key]) ?? []), edge[value]]);
  return map;
}

function drawEdge(
  edge: GraphEdge,
  isBack: boolean,
  from: LaidOutNode,
  to: LaidOutNode,
): LaidOutEdge & { bottom: number } {
  const label = edge.loop ? 'loop' : edge.when;
  if (!isBack && to.layer > from.layer) {
    // Right side of the source to the left side of the target, an S-curve.
    const x1 = from.x + from.width;
    const y1 = from.y + from.height / 2;
    const x2 = to.x;
    const y2 = to.y + to.height / 2;
    const dx = Math.max(30, (x2 - x1) / 2);
    return curve(edge, 'forward', label, [x1, y1], [x1 + dx, y1], [x2 - dx, y2], [x2, y2]);
  }
  // Bottom of the source, down and round, up into the bottom of the target.
  const x1 = from.x + from.width / 2 + (from === to ? 20 : 10);
  const x2 = to.x + to.width / 2 - (from === to ? 20 : 10);
  const y1 = from.y + from.height;
  const y2 = to.y + to.height;
  const span = Math.abs(from.layer - to.layer) + 1;
  const dip = Math.max(y1, y2) + BACK_DIP * Math.min(span, 4);
  return curve(edge, edge.loop ? 'loop' : 'back', label, [x1, y1], [x1, dip], [x2, dip], [x2, y2]);
}

type Point = [number, number];

function curve(
  edge: GraphEdge,
  kind: EdgeKind,
  label: string | undefined,
  p0: Point,
  p1: Point,
  p2: Point,
  p3: Point,
): LaidOutEdge & { bottom: number } {
  const at = (i: 0 | 1) => (p0[i] + 3 * p1[i] + 3 * p2[i] + p3[i]) / 8;
  const r = (n: number) => Math.round(n * 10) / 10;
  return {
    from: edge.from,
    to: edge.to,
    label,
    kind,
    path: `M ${r(p0[0])} ${r(p0[1])} C ${r(p1[0])} ${r(p1[1])}, ${r(p2[0])} ${r(p2[1])}, ${r(p3[0])} ${r(p3[1])}`,
    labelX: r(at(0)),
    labelY: r(at(1)),
    bottom: Math.max(p0[1], p1[1], p2[1], p3[1]),
  };
}
