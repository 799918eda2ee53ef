// How the automatic layout draws an edge between boxes it has placed (flow-layout.ts): an S-curve
// forward through the waypoints of the layers it crosses, or a back edge round the bottom of the
// boxes it passes, each in its own channel.

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

/** An edge of the graph laid out; `loop`: a Loop node's jump back to its `to`. */
export interface GraphEdge {
  from: string;
  to: string;
  when: string | undefined;
  loop: boolean;
}

/** A box as placed (a node, or a waypoint of a layer an edge crosses). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

type Point = [number, number];
/** An edge drawn, with the lowest point it reaches (the layout's height takes it in). */
export type DrawnEdge = LaidOutEdge & { bottom: number };

const r = (n: number) => Math.round(n * 10) / 10;

/** Right side of the source to the left side of the target, S-curves through its waypoints. */
export function forwardEdge(edge: GraphEdge, from: Rect, to: Rect, through: Rect[]): DrawnEdge {
  const points: Point[] = [[from.x + from.width, from.y + from.height / 2]];
  for (const box of through) {
    points.push([box.x, box.y + box.height / 2], [box.x + box.width, box.y + box.height / 2]);
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
 * edge has its own channel, so they never run on top of each other; `gap` is the room between
 * two layers.
 */
export function backEdge(
  edge: GraphEdge,
  from: Rect,
  to: Rect,
  channelY: number,
  channel: number,
  gap: number,
): DrawnEdge {
  const lane = Math.min(gap / 2 - 8, 10 + 6 * channel);
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
