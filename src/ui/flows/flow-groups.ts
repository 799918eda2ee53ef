// Which nodes of a flow the canvas and the automatic layout draw inside an Iteration group, and
// the sizes they may take: read from whatever the editor holds, never failing on it.

export interface Size {
  width: number;
  height: number;
}

/**
 * The Iteration group each node is drawn in: its `parent`, when that names an Iteration node
 * (the first with that id) and it is not an Iteration node itself (groups do not nest).
 */
export function groupParents(nodes: unknown): Map<string, string> {
  const list = (Array.isArray(nodes) ? nodes : []) as { id?: unknown; type?: unknown }[];
  const typeOf = new Map<string, unknown>();
  for (const node of list)
    if (typeof node?.id === 'string' && !typeOf.has(node.id)) typeOf.set(node.id, node.type);
  const parents = new Map<string, string>();
  const seen = new Set<string>();
  for (const node of list) {
    if (typeof node?.id !== 'string' || seen.has(node.id)) continue;
    seen.add(node.id);
    const parent = (node as { parent?: unknown }).parent;
    if (typeof parent !== 'string' || node.type === 'iteration' || parent === node.id) continue;
    if (typeOf.get(parent) === 'iteration') parents.set(node.id, parent);
  }
  return parents;
}

/** A saved size the canvas can draw (finite, at least one unit each way). */
export function sizeOf(value: unknown): Size | undefined {
  const size = value as Partial<Size> | null | undefined;
  return size &&
    typeof size === 'object' &&
    Number.isFinite(size.width) &&
    Number.isFinite(size.height) &&
    size.width! >= 1 &&
    size.height! >= 1
    ? { width: size.width!, height: size.height! }
    : undefined;
}
