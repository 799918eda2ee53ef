// The automatic layout's graph steps (flow-layout.ts places the boxes these order): which edges
// close a cycle, each node's layer, and the order within each layer that removes most crossings.

import type { GraphEdge } from './flow-layout-edges.ts';

const SWEEPS = 4;

/** A node, or a waypoint of an edge across the layer, in a layer's column. */
export interface Slot {
  id: string;
  layer: number;
  waypoint?: boolean;
  /** A waypoint's is its column's. */
  width: number;
  height: number;
}

/** A piece of a forward edge between neighbouring layers; `port`: where it leaves its source. */
export interface Segment {
  from: string;
  to: string;
  port: number;
}

/** The edges that close a cycle (found by a depth-first walk from the start), and loop jumps. */
export function backEdges(nodes: readonly { id: string }[], edges: GraphEdge[]): Set<GraphEdge> {
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
export function layerOf(
  nodes: readonly { id: string }[],
  forward: GraphEdge[],
): Map<string, number> {
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

export function orderLayers(slots: Slot[], segments: Segment[]): Slot[][] {
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
