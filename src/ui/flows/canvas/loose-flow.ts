// A flow as the editor may hold it while it is being written: it may be incomplete or wrong (a
// node without a type, an edge to nowhere), and the canvas still draws what it can of it. Other
// fields are kept as they are, so an edit of the canvas changes nothing it does not mean to.

export type LooseNode = Record<string, unknown> & { id: string; type?: unknown };
export type LooseEdge = Record<string, unknown> & { from: string; to: string; when?: unknown };
/** Nodes and edges of any shape (those without an id, or ends, left out); the rest as it is. */
export type LooseFlow = Record<string, unknown> & { nodes: LooseNode[]; edges: LooseEdge[] };

export interface Point {
  x: number;
  y: number;
}

/** Whether `value` is a flow the canvas can draw (an object with a list of nodes). */
export function asLooseFlow(value: unknown): LooseFlow | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const flow = value as Record<string, unknown>;
  if (!Array.isArray(flow.nodes)) return undefined;
  const nodes = flow.nodes.filter(
    (node): node is LooseNode =>
      !!node && typeof node === 'object' && typeof (node as LooseNode).id === 'string',
  );
  const edges = (Array.isArray(flow.edges) ? flow.edges : []).filter(
    (edge): edge is LooseEdge =>
      !!edge &&
      typeof edge === 'object' &&
      typeof (edge as LooseEdge).from === 'string' &&
      typeof (edge as LooseEdge).to === 'string',
  );
  return { ...flow, nodes, edges };
}

/** The flow text parsed for the canvas, or undefined when it is not one yet. */
export function parseLooseFlow(text: string): LooseFlow | undefined {
  try {
    return asLooseFlow(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** A saved position the canvas can draw at (finite numbers), or undefined. */
export function pointOf(value: unknown): Point | undefined {
  const point = value as Partial<Point> | null | undefined;
  return point && typeof point === 'object' && Number.isFinite(point.x) && Number.isFinite(point.y)
    ? { x: point.x!, y: point.y! }
    : undefined;
}

/** Positions and sizes are saved in whole canvas units. */
export const rounded = (point: Point): Point => ({
  x: Math.round(point.x),
  y: Math.round(point.y),
});

export function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
