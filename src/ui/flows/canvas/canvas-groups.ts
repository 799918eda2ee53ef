// Where the canvas draws each node, and the Iteration groups (Flowise V2's Iteration: a box
// that holds the nodes it runs once per item). A node in a group has the group's id as its
// `parent` and its `position` relative to the group's top left, as xyflow's `parentId` and
// Flowise's `parentNode` have it; a node dropped into a group joins it, one dragged out leaves it.

import { groupParents, sizeOf, type Size } from '../flow-groups.ts';
import {
  GROUP_PAD,
  GROUP_SIZE,
  NODE_HEIGHT,
  NODE_WIDTH,
  layoutFlow,
  type FlowLayout,
} from '../flow-layout.ts';
import { pointOf, rounded, type LooseFlow, type Point } from './loose-flow.ts';

export interface Geometry {
  /** Where each node is drawn (top left): relative to its group's when it is in one. */
  positions: Map<string, Point>;
  /** The group each node is drawn in (a `parent` naming no Iteration node is drawn outside). */
  parents: Map<string, string>;
  /** The size of each group (an Iteration node at the top level). */
  sizes: Map<string, Size>;
}

/** Where each node is drawn: its saved position (and size), else the automatic layout's. */
export function geometryOf(flow: LooseFlow): Geometry {
  const parents = groupParents(flow.nodes);
  let layout: Map<string, FlowLayout['nodes'][number]> | undefined;
  const laid = (id: string) => {
    layout ??= new Map(layoutFlow(graphOnly(flow)).nodes.map((node) => [node.id, node]));
    return layout.get(id);
  };
  const positions = new Map<string, Point>();
  const sizes = new Map<string, Size>();
  const unsized = new Set<string>();
  for (const node of flow.nodes) {
    if (positions.has(node.id)) continue;
    positions.set(node.id, pointOf(node.position) ?? pointAt(laid(node.id)));
    if (node.type === 'iteration' && !parents.has(node.id)) {
      const saved = sizeOf(node.size);
      sizes.set(node.id, saved ?? sizeAt(laid(node.id)));
      if (!saved) unsized.add(node.id);
    }
  }
  // A group of no saved size holds its children where they are saved, not only where the
  // layout would put them.
  for (const [child, group] of parents) {
    if (!unsized.has(group)) continue;
    const at = positions.get(child)!;
    const size = sizes.get(group)!;
    sizes.set(group, {
      width: Math.max(size.width, at.x + NODE_WIDTH + GROUP_PAD),
      height: Math.max(size.height, at.y + NODE_HEIGHT + GROUP_PAD),
    });
  }
  return { positions, parents, sizes };
}

const pointAt = (node: Point | undefined): Point =>
  node ? { x: node.x, y: node.y } : { x: 0, y: 0 };
const sizeAt = (node: Size | undefined): Size =>
  node ? { width: node.width, height: node.height } : { ...GROUP_SIZE };

/** Where a node is drawn on the canvas as a whole (a child's position plus its group's). */
export function absoluteOf(geometry: Geometry, id: string): Point {
  const at = geometry.positions.get(id) ?? { x: 0, y: 0 };
  const group = geometry.parents.get(id);
  const origin = group ? geometry.positions.get(group) : undefined;
  return origin ? { x: at.x + origin.x, y: at.y + origin.y } : at;
}

/** A node where a drag left it: its position as drawn (relative to the group it was drawn in). */
export interface Drop {
  id: string;
  position: Point;
  /** Its size as measured; a node's usual size when absent. */
  size?: Size;
}

/**
 * The flow with the nodes dropped where they were left: each joins the group its middle is
 * over (its `parent` set, its position made relative to the group), or leaves the one it was in
 * (`parent` removed, its position made absolute). Groups do not nest, and a run starts outside
 * any: an Iteration or the Start node stays outside, and `refused` says why for Start.
 */
export function dropNodes(
  flow: LooseFlow,
  drops: readonly Drop[],
): { flow: LooseFlow; refused?: string } {
  const geometry = geometryOf(flow);
  const dropped = new Map(drops.map((drop) => [drop.id, drop]));
  // Where each group is now: where it was, or where it was dropped.
  const groups = [...geometry.sizes].map(([id, size]) => ({
    id,
    size,
    at: dropped.get(id)?.position ?? geometry.positions.get(id)!,
  }));
  let refused: string | undefined;
  const nodes = flow.nodes.map((node) => {
    const drop = dropped.get(node.id);
    if (!drop) return node;
    const drawnIn = geometry.parents.get(node.id);
    const origin = drawnIn ? geometry.positions.get(drawnIn)! : { x: 0, y: 0 };
    const absolute = { x: drop.position.x + origin.x, y: drop.position.y + origin.y };
    if (node.type === 'iteration') return { ...node, position: rounded(absolute) };
    const size = drop.size ?? { width: NODE_WIDTH, height: NODE_HEIGHT };
    const middle = { x: absolute.x + size.width / 2, y: absolute.y + size.height / 2 };
    let group = groups.findLast(({ at, size }) => inside(middle, at, size));
    if (group && node.type === 'start') {
      refused = 'The Start node cannot go in an Iteration: a run starts outside any';
      group = undefined;
    }
    const { parent: _parent, ...rest } = node;
    return group
      ? {
          ...rest,
          parent: group.id,
          position: rounded({ x: absolute.x - group.at.x, y: absolute.y - group.at.y }),
        }
      : { ...rest, position: rounded(absolute) };
  });
  return { flow: { ...flow, nodes }, ...(refused ? { refused } : {}) };
}

/** The ids given and, for each group among them, its children (deleted or copied with it). */
export function withChildren(flow: LooseFlow, ids: Iterable<string>): Set<string> {
  const chosen = new Set(ids);
  for (const [child, group] of groupParents(flow.nodes)) if (chosen.has(group)) chosen.add(child);
  return chosen;
}

/** The flow with these groups' sizes set (whole units). */
export function withSizes(flow: LooseFlow, sizes: ReadonlyMap<string, Size>): LooseFlow {
  if (sizes.size === 0) return flow;
  return {
    ...flow,
    nodes: flow.nodes.map((node) => {
      const size = sizes.get(node.id);
      return size
        ? { ...node, size: { width: Math.round(size.width), height: Math.round(size.height) } }
        : node;
    }),
  };
}

/** The flow as layoutFlow takes it (it reads what it needs, and skips what it cannot read). */
export function graphOnly(flow: LooseFlow) {
  return flow as unknown as Parameters<typeof layoutFlow>[0];
}

function inside(point: Point, at: Point, size: Size): boolean {
  return (
    point.x >= at.x &&
    point.x <= at.x + size.width &&
    point.y >= at.y &&
    point.y <= at.y + size.height
  );
}
