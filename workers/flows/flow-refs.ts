// What a flow refers to outside itself: the models and tool servers' tools its nodes name, and
// the other flows its Execute Flow nodes run (and theirs, and so on): the app compiles a
// flow with them, resolves their models and tool servers with its own, and rebuilds the flow's
// agent when one of them changes.

import type { Flow } from '../../src/flows/flow.ts';
import { isRecord } from '../../src/flows/validate-fields.ts';

/** A saved or example flow, and when it last changed. */
export interface NamedFlow {
  flow: Flow;
  updatedAt?: number;
}

/** The flows `flow` runs through Execute Flow nodes, transitively, by name (itself excluded). */
export function reachableSubflows(
  flow: unknown,
  byName: ReadonlyMap<string, NamedFlow>,
): Map<string, NamedFlow> {
  const found = new Map<string, NamedFlow>();
  const queue = [flow];
  while (queue.length > 0) {
    for (const name of subflowNames(queue.shift())) {
      const other = byName.get(name);
      if (!other || found.has(name)) continue;
      found.set(name, other);
      queue.push(other.flow);
    }
  }
  return found;
}

/** The flow names a flow's Execute Flow nodes name. */
export function subflowNames(flow: unknown): string[] {
  const nodes =
    typeof flow === 'object' && flow !== null && Array.isArray((flow as Flow).nodes)
      ? (flow as Flow).nodes
      : [];
  return nodes.flatMap((node: unknown) => {
    const { type, flow: name } = (node ?? {}) as { type?: unknown; flow?: unknown };
    return type === 'subflow' && typeof name === 'string' && name ? [name] : [];
  });
}

/** The models a flow's nodes name (`model` on Start and on model nodes), each once. */
export function modelNames(flow: unknown): string[] {
  const nodes = isRecord(flow) && Array.isArray(flow.nodes) ? flow.nodes : [];
  const names = nodes.flatMap((node: unknown) =>
    isRecord(node) && typeof node.model === 'string' && node.model ? [node.model] : [],
  );
  return [...new Set(names)];
}

/** The tool servers' tools a flow's nodes name (`Server name/tool`), each once. */
export function toolRefs(flow: unknown): string[] {
  const nodes = isRecord(flow) && Array.isArray(flow.nodes) ? flow.nodes : [];
  const refs = nodes.flatMap((node: unknown) => {
    if (!isRecord(node)) return [];
    // A Tool node (toolCall) names one tool; the others a list.
    const named = Array.isArray(node.tools) ? node.tools : [node.tool];
    return named.filter((tool): tool is string => typeof tool === 'string' && tool.includes('/'));
  });
  return [...new Set(refs)];
}
