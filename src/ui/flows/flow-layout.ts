// Where each node and edge of a flow graph is drawn: a layered layout, left to right.
//
// - Layers: the start node is layer 0; every other node sits one layer right of its furthest
//   forward predecessor (longest path over the forward edges, so the graph reads left to right).
// - Forward and back edges: a depth-first walk from the start node; an edge to a node still on
//   the walk's stack closes a cycle and is a back edge. Loop jumps (a loop node to its `to`) are
//   always drawn as back edges: round the bottom of the boxes they pass, each in its own lane.
// - A forward edge across several layers passes a waypoint in each (Sugiyama's dummy nodes).
// - Order within a layer: by barycentre of the neighbours in the layers already placed, swept
//   right then left a few times, which removes most crossings. An edge out of a Condition or a
//   Condition Agent counts from its handle (one per output, top to bottom), so the nodes it leads
//   to are stacked in the handles' order and its edges do not cross.
// It takes whatever the editor holds: nodes without an id, duplicates and edges to unknown nodes
// are left out rather than failing.

import type { Flow, FlowNodeType } from '../../flows/flow.ts';
import { outputHandles } from './flow-graph-model.ts';

export const NODE_WIDTH = 136;
export const NODE_HEIGHT = 46;
const GAP_X = 60;
const GAP_Y = 26;
const MARGIN = 16;
/** How far below the lowest box it passes a back edge runs, and how far apart two do. */
const BACK_DIP = 20;
const CHANNEL_GAP = 14;
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
  /** Its output handles, top to bottom: a condition's outputs, a condition agent's scenarios. */
  outputs: string[];
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
  const layer = layerOf(nodes, forward);

  // A forward edge across several layers gets a waypoint in each layer it crosses: waypoints
  // are ordered and placed like nodes, so the edge never runs through a box.
  const slots: Slot[] = nodes.map((node) => ({ id: node.id, layer: layer.get(node.id)! }));
  const segments: Segment[] = [];
  const nodeById = new Map(nodes.map((node) => [node.id, node]));
  // Where on its source an edge leaves: its handle's place among the outputs, within ±0.5.
  const portOf = (edge: GraphEdge) => {
    const outputs = nodeById.get(edge.from)!.outputs;
    const at = edge.when === undefined ? -1 : outputs.indexOf(edge.when);
    return at < 0 ? 0 : (at + 1) / (outputs.length + 1) - 0.5;
  };
  const waypointsOf = new Map<GraphEdge, string[]>();
  forward.forEach((edge, i) => {
    const through: string[] = [];
    let previous = edge.from;
    let port = portOf(edge);
    for (let l = layer.get(edge.from)! + 1; l < layer.get(edge.to)!; l++) {
      const id = `${WAYPOINT}${i}:${l}`;
      slots.push({ id, layer: l, waypoint: true });
      segments.push({ from: previous, to: id, port });
      through.push(id);
      previous = id;
      port = 0;
    }
    segments.push({ from: previous, to: edge.to, port });
    waypointsOf.set(edge, through);
  });

  const place = placeSlots(orderLayers(slots, segments));
  const laidOut = nodes.map((node): LaidOutNode => {
    const { layer, x, y } = place.get(node.id)!;
    return { ...node, layer, x, y, width: NODE_WIDTH, height: NODE_HEIGHT };
  });
  const byId = new Map(laidOut.map((node) => [node.id, node]));
  const boxes = [...place.values()];
  const lowestIn = (a: number, b: number) =>
    Math.max(
      ...boxes
        .filter((box) => box.layer >= Math.min(a, b) && box.layer <= Math.max(a, b))
        .map((box) => box.y + box.height),
    );

  let channel = 0;
  const drawn = edges.map((edge) => {
    const from = byId.get(edge.from)!;
    const to = byId.get(edge.to)!;
    if (!back.has(edge)) {
      const through = waypointsOf.get(edge)!.map((id) => place.get(id)!);
      return forwardEdge(edge, from, to, through);
    }
    const dip = lowestIn(from.layer, to.layer) + BACK_DIP + CHANNEL_GAP * channel;
    return backEdge(edge, from, to, dip, channel++);
  });
  const layers = Math.max(0, ...laidOut.map((node) => node.layer + 1));
  const lowest = Math.max(
    0,
    ...boxes.map((box) => box.y + box.height),
    ...drawn.map((e) => e.bottom),
  );
  return {
    width: MARGIN * 2 + Math.max(1, layers) * (NODE_WIDTH + GAP_X) - GAP_X,
    height: lowest + MARGIN,
    nodes: laidOut,
    edges: drawn.map(({ bottom: _bottom, ...edge }) => edge),
  };
}

const WAYPOINT = '\u0000';
const WAYPOINT_HEIGHT = 14;

interface Slot {
  id: string;
  layer: number;
  waypoint?: boolean;
}

/** A piece of a forward edge between neighbouring layers; `port`: where it leaves its source. */
interface Segment {
  from: string;
  to: string;
  port: number;
}

interface Box {
  layer: number;
  x: number;
  y: number;
  height: number;
}

/** Each layer a column, its slots stacked and centred on the tallest column. */
function placeSlots(layers: Slot[][]): Map<string, Box> {
  const heightOf = (slot: Slot) => (slot.waypoint ? WAYPOINT_HEIGHT : NODE_HEIGHT);
  const columnHeight = (column: Slot[]) =>
    column.reduce((sum, slot) => sum + heightOf(slot), 0) + GAP_Y * (column.length - 1);
  const tallest = Math.max(0, ...layers.map(columnHeight));
  const boxes = new Map<string, Box>();
  layers.forEach((column, index) => {
    let y = MARGIN + (tallest - columnHeight(column)) / 2;
    for (const slot of column) {
      const height = heightOf(slot);
      boxes.set(slot.id, { layer: index, x: MARGIN + index * (NODE_WIDTH + GAP_X), y, height });
      y += height + GAP_Y;
    }
  });
  return boxes;
}

function graphNodes(flow: Pick<Flow, 'nodes'>): GraphNode[] {
  const seen = new Set<string>();
  const nodes: GraphNode[] = [];
  for (const node of Array.isArray(flow.nodes) ? flow.nodes : []) {
    const id = (node as { id?: unknown } | null)?.id;
    if (typeof id !== 'string' || !id || seen.has(id)) continue;
    seen.add(id);
    const label = typeof node.label === 'string' && node.label ? node.label : id;
    const type = typeof node.type === 'string' ? node.type : '?';
    nodes.push({ id, type, label, outputs: outputHandles(node) });
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

function orderLayers(slots: Slot[], segments: Segment[]): Slot[][] {
  const count = Math.max(-1, ...slots.map((slot) => slot.layer)) + 1;
  const layers: Slot[][] = Array.from({ length: count }, () => []);
  for (const slot of slots) layers[slot.layer]!.push(slot);
  // Seen from the right, a predecessor is where the edge leaves it (its handle's place).
  const preds = neighbours(segments, 'to', 'from', (segment) => segment.port);
  const succs = neighbours(segments, 'from', 'to', () => 0);
  const position = new Map<string, number>();
  layers.forEach((column) => column.forEach((slot, i) => position.set(slot.id, i)));
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const rightward = sweep % 2 === 0;
    const order = rightward ? [...layers.keys()] : [...layers.keys()].reverse();
    const by = rightward ? preds : succs;
    for (const index of order) {
      const barycentre = (slot: Slot) => {
        const near = (by.get(slot.id) ?? []).map(({ id, port }) => position.get(id)! + port);
        return near.length === 0
          ? position.get(slot.id)!
          : near.reduce((sum, p) => sum + p, 0) / near.length;
      };
      const keyed = layers[index]!.map((slot) => ({ slot, key: barycentre(slot) }));
      // A stable sort: ties keep their order, so the layout does not jitter between sweeps.
      keyed.sort((a, b) => a.key - b.key);
      layers[index] = keyed.map(({ slot }) => slot);
      layers[index]!.forEach((slot, i) => position.set(slot.id, i));
    }
  }
  return layers;
}

function neighbours(
  segments: Segment[],
  key: 'from' | 'to',
  value: 'from' | 'to',
  port: (segment: Segment) => number,
): Map<string, { id: string; port: number }[]> {
  const map = new Map<string, { id: string; port: number }[]>();
  for (const segment of segments)
    map.set(segment[key], [
      ...(map.get(segment[key]) ?? []),
      { id: segment[value], port: port(segment) },
    ]);
  return map;
}

type Point = [number, number];
type Drawn = LaidOutEdge & { bottom: number };

const r = (n: number) => Math.round(n * 10) / 10;

/** Right side of the source to the left side of the target, S-curves through its waypoints. */
function forwardEdge(edge: GraphEdge, from: LaidOutNode, to: LaidOutNode, through: Box[]): Drawn {
  const points: Point[] = [[from.x + from.width, from.y + from.height / 2]];
  for (const box of through) {
    points.push([box.x, box.y + box.height / 2], [box.x + NODE_WIDTH, box.y + box.height / 2]);
  }
  points.push([to.x, to.y + to.height / 2]);
  let path = `M ${r(points[0]![0])} ${r(points[0]![1])}`;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1]!;
    const [x1, y1] = points[i]!;
    if (i % 2 === 0) {
      path += ` L ${r(x1)} ${r(y1)}`; // across a waypoint
      continue;
    }
    const dx = Math.max(24, (x1 - x0) / 2);
    path += ` C ${r(x0 + dx)} ${r(y0)}, ${r(x1 - dx)} ${r(y1)}, ${r(x1)} ${r(y1)}`;
  }
  // The label sits on the first curve, near the source (where a condition's edges fan out).
  const [[x0, y0], [x1, y1]] = [points[0]!, points[1]!];
  const dx = Math.max(24, (x1 - x0) / 2);
  const at = bezierMiddle([x0, y0], [x0 + dx, y0], [x1 - dx, y1], [x1, y1]);
  return {
    from: edge.from,
    to: edge.to,
    label: edge.when,
    kind: 'forward',
    path,
    labelX: r(at[0]),
    labelY: r(at[1]),
    bottom: Math.max(...points.map(([, y]) => y)),
  };
}

/**
 * Out of the source's right side, down the gap after its layer to a channel below every box it
 * passes, back along it, and up the gap before the target's layer into its left side. Each back
 * edge has its own channel, so they never run on top of each other.
 */
function backEdge(
  edge: GraphEdge,
  from: LaidOutNode,
  to: LaidOutNode,
  channelY: number,
  channel: number,
): Drawn {
  const lane = Math.min(GAP_X / 2 - 8, 10 + 6 * channel);
  const sx = from.x + from.width;
  const sy = from.y + from.height * 0.72;
  const tx = to.x;
  const ty = to.y + to.height * 0.72;
  const x1 = sx + lane;
  const x2 = tx - lane;
  const c = 8; // corner radius
  const toward = x2 <= x1 ? -1 : 1;
  const path = [
    `M ${r(sx)} ${r(sy)}`,
    `L ${r(x1 - c)} ${r(sy)}`,
    `Q ${r(x1)} ${r(sy)}, ${r(x1)} ${r(sy + c)}`,
    `L ${r(x1)} ${r(channelY - c)}`,
    `Q ${r(x1)} ${r(channelY)}, ${r(x1 + toward * c)} ${r(channelY)}`,
    `L ${r(x2 - toward * c)} ${r(channelY)}`,
    `Q ${r(x2)} ${r(channelY)}, ${r(x2)} ${r(channelY - c)}`,
    `L ${r(x2)} ${r(ty + c)}`,
    `Q ${r(x2)} ${r(ty)}, ${r(x2 + c)} ${r(ty)}`,
    `L ${r(tx)} ${r(ty)}`,
  ].join(' ');
  return {
    from: edge.from,
    to: edge.to,
    label: edge.loop ? 'loop' : edge.when,
    kind: edge.loop ? 'loop' : 'back',
    path,
    labelX: r((x1 + x2) / 2),
    labelY: r(channelY),
    bottom: channelY,
  };
}

function bezierMiddle(p0: Point, p1: Point, p2: Point, p3: Point): Point {
  const at = (i: 0 | 1) => (p0[i] + 3 * p1[i] + 3 * p2[i] + p3[i]) / 8;
  return [at(0), at(1)];
}
