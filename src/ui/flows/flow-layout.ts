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
// - Groups (Iteration nodes): each group's children are laid out on their own inside it (their
//   positions relative to its top left, as the flow stores them) and the group sized to fit
//   them; at the top level the group is one box of that size, and an edge into or out of a child
//   counts as one into or out of its group. Groups do not nest (as in Flowise): a `parent` that
//   names no Iteration node, or names one from an Iteration node, is ignored (drawn at top level).
// It takes whatever the editor holds: nodes without an id, duplicates and edges to unknown nodes
// are left out rather than failing.

import type { Flow, FlowNodeType } from '../../flows/flow.ts';
import { outputHandles } from './flow-graph-model.ts';
import {
  backEdge,
  forwardEdge,
  type GraphEdge,
  type LaidOutEdge,
  type Rect,
} from './flow-layout-edges.ts';
import { backEdges, layerOf, orderLayers, type Segment, type Slot } from './flow-layout-layers.ts';
import { groupParents, sizeOf, type Size } from './flow-groups.ts';

export type { EdgeKind, LaidOutEdge } from './flow-layout-edges.ts';

export const NODE_WIDTH = 136;
export const NODE_HEIGHT = 46;
/** An Iteration group with nothing in it (Flowise draws a new one 300 × 250). */
export const GROUP_SIZE = { width: 320, height: 200 } as const;
/** The smallest a group is drawn, laid out or resized to. */
export const GROUP_MIN_SIZE = { width: 180, height: 110 } as const;
/** Room inside a group: its name above the children, and a margin round them. */
export const GROUP_HEADER = 34;
export const GROUP_PAD = 14;
const GAP_X = 60;
const GAP_Y = 26;
const MARGIN = 16;
/** How far below the lowest box it passes a back edge runs, and how far apart two do. */
const BACK_DIP = 20;
const CHANNEL_GAP = 14;

export interface LaidOutNode {
  id: string;
  type: FlowNodeType | string;
  /** The display name (the node's label, else its id). */
  label: string;
  layer: number;
  /** Top left corner: relative to its group's top left when it has a `parent`. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The Iteration group it is drawn in. */
  parent?: string;
}

export interface FlowLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

export interface LayoutOptions {
  /** Size every group to fit its children (Tidy up); else a group keeps a saved `size`. */
  fitGroups?: boolean;
}

interface GraphNode {
  id: string;
  type: string;
  label: string;
  /** Its output handles, top to bottom: a condition's outputs, a condition agent's scenarios. */
  outputs: string[];
  /** A group's saved size. */
  size?: Size;
}

export function layoutFlow(
  flow: Pick<Flow, 'nodes' | 'edges'>,
  { fitGroups = false }: LayoutOptions = {},
): FlowLayout {
  const nodes = graphNodes(flow);
  const ids = new Set(nodes.map((node) => node.id));
  const edges = graphEdges(flow, ids);
  const parentOf = groupParents(flow.nodes);
  const top = (id: string) => parentOf.get(id) ?? id;
  const childrenOf = (group: string) => nodes.filter((node) => parentOf.get(node.id) === group);
  const innerEdges = (group: string) =>
    edges.filter((edge) => parentOf.get(edge.from) === group && parentOf.get(edge.to) === group);

  // Each group sized to fit its children, laid out on their own.
  const sizes = new Map<string, Size>();
  for (const group of nodes) {
    if (group.type !== 'iteration' || parentOf.has(group.id)) continue;
    const children = childrenOf(group.id);
    const inner = children.length > 0 && layoutGraph(children, innerEdges(group.id), sizes, 0, 0);
    const fit = inner
      ? {
          width: Math.max(inner.width - 2 * MARGIN + 2 * GROUP_PAD, GROUP_MIN_SIZE.width),
          height: Math.max(
            inner.height - 2 * MARGIN + GROUP_HEADER + GROUP_PAD,
            GROUP_MIN_SIZE.height,
          ),
        }
      : GROUP_SIZE;
    sizes.set(group.id, !fitGroups && group.size ? group.size : { ...fit });
  }

  // The top level: a group is one box, standing for its children's edges too.
  const lifted = edges
    .map((edge) => ({ edge, drawn: { ...edge, from: top(edge.from), to: top(edge.to) } }))
    .filter(({ drawn }) => drawn.from !== drawn.to);
  const outerNodes = nodes.filter((node) => !parentOf.has(node.id));
  const outer = layoutGraph(
    outerNodes,
    lifted.map(({ drawn }) => drawn),
    sizes,
    0,
    0,
  );
  const laidOut = [...outer.nodes];
  // An edge into or out of a child is drawn to its group, but names the child.
  const drawn = outer.edges.map((path, i) => {
    const { edge } = lifted[i]!;
    return { ...path, from: edge.from, to: edge.to };
  });
  // Each group's children, laid out again where the group is (their edges drawn in place).
  for (const group of outer.nodes) {
    const children = childrenOf(group.id);
    if (children.length === 0) continue;
    const at = { x: group.x + GROUP_PAD - MARGIN, y: group.y + GROUP_HEADER - MARGIN };
    const inner = layoutGraph(children, innerEdges(group.id), sizes, at.x, at.y);
    for (const child of inner.nodes)
      laidOut.push({ ...child, x: child.x - group.x, y: child.y - group.y, parent: group.id });
    drawn.push(...inner.edges);
  }
  return { width: outer.width, height: outer.height, nodes: laidOut, edges: drawn };
}

interface Laid {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

/** One level of the graph laid out in layers, its top left at `left`, `top` (plus a margin). */
function layoutGraph(
  nodes: GraphNode[],
  edges: GraphEdge[],
  sizes: ReadonlyMap<string, Size>,
  left: number,
  top: number,
): Laid {
  const back = backEdges(nodes, edges);
  const forward = edges.filter((edge) => !back.has(edge));
  const layer = layerOf(nodes, forward);
  const sizeOf = (id: string) => sizes.get(id) ?? { width: NODE_WIDTH, height: NODE_HEIGHT };

  // A forward edge across several layers gets a waypoint in each layer it crosses: waypoints
  // are ordered and placed like nodes, so the edge never runs through a box.
  const slots: Slot[] = nodes.map((node) => ({
    id: node.id,
    layer: layer.get(node.id)!,
    ...sizeOf(node.id),
  }));
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
      slots.push({ id, layer: l, waypoint: true, width: 0, height: WAYPOINT_HEIGHT });
      segments.push({ from: previous, to: id, port });
      through.push(id);
      previous = id;
      port = 0;
    }
    segments.push({ from: previous, to: edge.to, port });
    waypointsOf.set(edge, through);
  });

  const { boxes: place, width } = placeSlots(orderLayers(slots, segments), left, top);
  const laidOut = nodes.map((node): LaidOutNode => {
    const { layer, x, y, width, height } = place.get(node.id)!;
    const { size: _size, ...rest } = node;
    return { ...rest, layer, x, y, width, height };
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
    return backEdge(edge, from, to, dip, channel++, GAP_X);
  });
  const lowest = Math.max(
    top,
    ...boxes.map((box) => box.y + box.height),
    ...drawn.map((e) => e.bottom),
  );
  return {
    width,
    height: lowest - top + MARGIN,
    nodes: laidOut,
    edges: drawn.map(({ bottom: _bottom, ...edge }): LaidOutEdge => edge),
  };
}

const WAYPOINT = '\u0000';
const WAYPOINT_HEIGHT = 14;

interface Box extends Rect {
  layer: number;
}

/**
 * Each layer a column as wide as its widest box, its slots stacked, centred on the tallest
 * column and in their column; and the width of them all.
 */
function placeSlots(layers: Slot[][], left: number, top: number) {
  const columnHeight = (column: Slot[]) =>
    column.reduce((sum, slot) => sum + slot.height, 0) + GAP_Y * (column.length - 1);
  const tallest = Math.max(0, ...layers.map(columnHeight));
  const boxes = new Map<string, Box>();
  let x = left + MARGIN;
  layers.forEach((column, index) => {
    const width = Math.max(NODE_WIDTH, ...column.map((slot) => slot.width));
    let y = top + MARGIN + (tallest - columnHeight(column)) / 2;
    for (const slot of column) {
      const box = slot.waypoint
        ? { x, width }
        : { x: x + (width - slot.width) / 2, width: slot.width };
      boxes.set(slot.id, { layer: index, ...box, y, height: slot.height });
      y += slot.height + GAP_Y;
    }
    x += width + GAP_X;
  });
  const width = layers.length === 0 ? NODE_WIDTH + 2 * MARGIN : x - GAP_X + MARGIN - left;
  return { boxes, width };
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
    const size = type === 'iteration' ? sizeOf((node as { size?: unknown }).size) : undefined;
    nodes.push({ id, type, label, outputs: outputHandles(node), ...(size ? { size } : {}) });
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
