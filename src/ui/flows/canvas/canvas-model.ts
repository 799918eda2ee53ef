// The flow canvas's pure part: a flow (as the editor holds it: it may be incomplete or wrong) as
// the nodes, handles and edges the canvas draws, and each edit the canvas makes (add, move,
// connect, delete, paste, tidy up) as a new flow. The canvas is a view of the flow's JSON: every
// edit here returns the whole flow, which the editor keeps as its text (so the code view, the node
// forms and undo follow it), and nothing here knows the canvas library.

import { NODE_TYPES, type FlowNodeType } from '../../../flows/flow.ts';
import { layoutFlow } from '../flow-layout.ts';
import { outputHandles } from '../flow-graph-model.ts';

export type LooseNode = Record<string, unknown> & { id: string; type?: unknown };
export type LooseEdge = Record<string, unknown> & { from: string; to: string; when?: unknown };
/** A flow as the editor may hold it: nodes and edges of any shape, other fields kept as they are. */
export type LooseFlow = Record<string, unknown> & { nodes: LooseNode[]; edges: LooseEdge[] };

export interface Point {
  x: number;
  y: number;
}

/** The handle an unconditional edge leaves from. */
export const OUT_HANDLE = 'out';
/** A condition's handle when no rule matches (its edge's `when` is `else`). */
export const ELSE = 'else';

export interface OutputHandle {
  /** The handle id: `out`, or the `when` of the edges that leave from it. */
  id: string;
  /** What it says beside the handle ('' for `out`). */
  label: string;
}

export interface CanvasNode {
  id: string;
  type: string;
  /** What the box shows: the node's label, else its id. */
  label: string;
  position: Point;
  /** Output handles, top to bottom (none for an end node). */
  outputs: OutputHandle[];
  /** Whether edges may come in (not into a start node). */
  input: boolean;
}

export interface CanvasEdge {
  /** Stable while the flow does not change it: `from>to>when`. */
  id: string;
  source: string;
  target: string;
  sourceHandle: string;
  label: string | undefined;
}

/** The node types of the palette, in Flowise's order, with their names there. */
export const PALETTE: readonly { type: FlowNodeType; label: string; hint: string }[] = [
  { type: 'start', label: 'Start', hint: 'Where a run begins: the flow’s model and moderation' },
  { type: 'agent', label: 'Agent', hint: 'A model with a system prompt and tools' },
  { type: 'llm', label: 'LLM', hint: 'One model call, with structured output' },
  { type: 'tool', label: 'Tool', hint: 'Runs the tool calls of the LLM node before it' },
  { type: 'condition', label: 'Condition', hint: 'Rules on the state choose the way on' },
  { type: 'conditionAgent', label: 'Condition Agent', hint: 'A model chooses a scenario' },
  { type: 'loop', label: 'Loop', hint: 'Goes back to an earlier node' },
  { type: 'end', label: 'End', hint: 'Where a run ends' },
  { type: 'reply', label: 'Direct Reply', hint: 'Answers with a message, and ends' },
  { type: 'humanInput', label: 'Human Input', hint: 'The user proceeds or rejects' },
];

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

/** The output handles of a node: one per rule output (then `else`) or scenario, else `out`. */
export function outputsOf(node: LooseNode): OutputHandle[] {
  if (node.type === 'end') return [];
  if (node.type === 'condition' || node.type === 'conditionAgent')
    return outputHandles(node).map((id) => ({ id, label: id }));
  return [{ id: OUT_HANDLE, label: '' }];
}

/** Where each node is drawn: its saved position, else where the automatic layout puts it. */
export function positionsOf(flow: LooseFlow): Map<string, Point> {
  const positions = new Map<string, Point>();
  let layout: Map<string, Point> | undefined;
  for (const node of flow.nodes) {
    const saved = pointOf(node.position);
    if (saved) {
      positions.set(node.id, saved);
      continue;
    }
    layout ??= new Map(
      layoutFlow(graphOnly(flow)).nodes.map((laid) => [laid.id, { x: laid.x, y: laid.y }]),
    );
    positions.set(node.id, layout.get(node.id) ?? { x: 0, y: 0 });
  }
  return positions;
}

/** What the canvas draws of the flow. Duplicated ids are drawn once (validation names them). */
export function canvasGraph(flow: LooseFlow): { nodes: CanvasNode[]; edges: CanvasEdge[] } {
  const positions = positionsOf(flow);
  const seen = new Set<string>();
  const nodes: CanvasNode[] = [];
  for (const node of flow.nodes) {
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    nodes.push({
      id: node.id,
      type: typeof node.type === 'string' ? node.type : '?',
      label: isText(node.label) ? node.label : node.id,
      position: positions.get(node.id)!,
      outputs: outputsOf(node),
      input: node.type !== 'start',
    });
  }
  const edges: CanvasEdge[] = [];
  const edgeIds = new Set<string>();
  for (const edge of flow.edges) {
    if (!seen.has(edge.from) || !seen.has(edge.to)) continue;
    const id = edgeId(edge);
    if (edgeIds.has(id)) continue;
    edgeIds.add(id);
    const when = isText(edge.when) ? edge.when : undefined;
    edges.push({
      id,
      source: edge.from,
      target: edge.to,
      sourceHandle: when ?? OUT_HANDLE,
      label: when,
    });
  }
  // A loop's jump back (`to`) is drawn too, dashed: it is not an edge of the file.
  for (const node of flow.nodes) {
    if (node.type !== 'loop' || !isText(node.to) || !seen.has(node.to)) continue;
    edges.push({
      id: `loop:${node.id}>${node.to}`,
      source: node.id,
      target: node.to,
      sourceHandle: OUT_HANDLE,
      label: 'loop',
    });
  }
  return { nodes, edges };
}

export function edgeId(edge: { from: string; to: string; when?: unknown }): string {
  return `${edge.from}>${edge.to}>${isText(edge.when) ? edge.when : ''}`;
}

/** Whether a canvas edge is a loop's jump (drawn, but not an edge of the flow). */
export const isLoopJump = (id: string) => id.startsWith('loop:');

/** A new node of `type` at `position`, with an id no node has; and its id. */
export function addNode(
  flow: LooseFlow,
  type: FlowNodeType,
  position: Point,
): { flow: LooseFlow; id: string } {
  const id = freeId(
    flow,
    type === 'conditionAgent' ? 'condition_agent' : type === 'humanInput' ? 'human_input' : type,
  );
  const node: LooseNode = { id, type, ...TEMPLATES[type], position: rounded(position) };
  return { flow: { ...flow, nodes: [...flow.nodes, node] }, id };
}

/** What a new node of each type starts with: the fields its form asks for, empty. */
const TEMPLATES: Record<FlowNodeType, Record<string, unknown>> = {
  start: {},
  agent: { instruction: '' },
  llm: { instruction: '' },
  tool: { tools: [] },
  condition: { rules: [] },
  conditionAgent: { instruction: '', scenarios: [] },
  loop: { to: '' },
  end: {},
  reply: { message: '' },
  humanInput: { description: '' },
};

/** The flow with the nodes moved to the positions given (others keep theirs). */
export function withPositions(flow: LooseFlow, moves: ReadonlyMap<string, Point>): LooseFlow {
  if (moves.size === 0) return flow;
  return {
    ...flow,
    nodes: flow.nodes.map((node) => {
      const to = moves.get(node.id);
      return to ? { ...node, position: rounded(to) } : node;
    }),
  };
}

/** The flow with the positions given for the nodes that have none (the others keep theirs). */
export function withMissingPositions(
  flow: LooseFlow,
  drawn: ReadonlyMap<string, Point>,
): LooseFlow {
  if (flow.nodes.every((node) => pointOf(node.position))) return flow;
  return {
    ...flow,
    nodes: flow.nodes.map((node) => {
      const at = drawn.get(node.id);
      return pointOf(node.position) || !at ? node : { ...node, position: rounded(at) };
    }),
  };
}

/**
 * The flow with an edge from `source`'s handle to `target` (the handle's output as its `when`),
 * or a reason it cannot be drawn: an edge already there, or one into the start node.
 */
export function connect(
  flow: LooseFlow,
  source: string,
  sourceHandle: string | null | undefined,
  target: string,
): { flow: LooseFlow } | { refused: string } {
  const to = flow.nodes.find((node) => node.id === target);
  if (!to) return { refused: `There is no node ${target}` };
  if (to.type === 'start') return { refused: 'Nothing leads into the Start node' };
  if (source === target) return { refused: 'A node cannot lead to itself: use a Loop node' };
  const edge: LooseEdge = { from: source, to: target };
  if (sourceHandle && sourceHandle !== OUT_HANDLE) edge.when = sourceHandle;
  if (flow.edges.some((other) => edgeId(other) === edgeId(edge)))
    return { refused: `${source} already leads to ${target} that way` };
  return { flow: { ...flow, edges: [...flow.edges, edge] } };
}

/** The flow without these nodes (and their edges, and loops that jumped to them) and edges. */
export function removeElements(
  flow: LooseFlow,
  nodeIds: Iterable<string>,
  edgeIds: Iterable<string> = [],
): LooseFlow {
  const nodes = new Set(nodeIds);
  const edges = new Set(edgeIds);
  return {
    ...flow,
    nodes: flow.nodes
      .filter((node) => !nodes.has(node.id))
      .map((node) =>
        (node.type === 'loop' && isText(node.to) && nodes.has(node.to)) ||
        edges.has(`loop:${node.id}>${String(node.to)}`)
          ? { ...node, to: '' }
          : node,
      ),
    edges: flow.edges.filter(
      (edge) => !nodes.has(edge.from) && !nodes.has(edge.to) && !edges.has(edgeId(edge)),
    ),
  };
}

/** What Copy keeps: the nodes chosen and the edges between them. */
export interface Clip {
  nodes: LooseNode[];
  edges: LooseEdge[];
}

export function copyNodes(flow: LooseFlow, ids: Iterable<string>): Clip | undefined {
  const chosen = new Set(ids);
  const nodes = flow.nodes.filter((node) => chosen.has(node.id));
  if (nodes.length === 0) return undefined;
  const edges = flow.edges.filter((edge) => chosen.has(edge.from) && chosen.has(edge.to));
  return structuredClone({ nodes, edges });
}

/**
 * The flow with a copy of the clip's nodes (new ids, moved by `offset`) and of the edges between
 * them, and the new ids. A pasted loop that jumped to a copied node jumps to its copy.
 */
export function pasteNodes(
  flow: LooseFlow,
  clip: Clip,
  offset: Point = { x: 40, y: 40 },
): { flow: LooseFlow; ids: string[] } {
  const positions = positionsOf({ ...flow, nodes: clip.nodes, edges: clip.edges });
  const renamed = new Map<string, string>();
  let next: LooseFlow = flow;
  for (const node of clip.nodes) {
    const id = freeId(next, node.id.replace(/_\d+$/, ''));
    renamed.set(node.id, id);
    next = { ...next, nodes: [...next.nodes, { ...node, id }] };
  }
  const nodes = next.nodes.map((node) => {
    const original = [...renamed].find(([, id]) => id === node.id)?.[0];
    if (original === undefined) return node;
    const at = positions.get(original) ?? { x: 0, y: 0 };
    const to = isText(node.to) ? (renamed.get(node.to) ?? node.to) : node.to;
    return {
      ...structuredClone(node),
      position: rounded({ x: at.x + offset.x, y: at.y + offset.y }),
      ...(node.type === 'loop' ? { to } : {}),
    };
  });
  const edges = clip.edges.map((edge) => ({
    ...edge,
    from: renamed.get(edge.from)!,
    to: renamed.get(edge.to)!,
  }));
  return { flow: { ...next, nodes, edges: [...flow.edges, ...edges] }, ids: [...renamed.values()] };
}

/** Every node placed where the automatic layout puts it (Tidy up). */
export function tidy(flow: LooseFlow): LooseFlow {
  const layout = layoutFlow(graphOnly(flow));
  return withPositions(flow, new Map(layout.nodes.map((node) => [node.id, node])));
}

/** An id no node of the flow has: `base`, else `base_2`, `base_3`, … */
export function freeId(flow: LooseFlow, base: string): string {
  const taken = new Set(flow.nodes.map((node) => node.id));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

export const isNodeType = (value: unknown): value is FlowNodeType =>
  (NODE_TYPES as readonly unknown[]).includes(value);

/** The flow as layoutFlow takes it (it reads ids, types, labels, edges and loop targets). */
function graphOnly(flow: LooseFlow) {
  return flow as unknown as Parameters<typeof layoutFlow>[0];
}

function pointOf(value: unknown): Point | undefined {
  const point = value as Partial<Point> | null | undefined;
  return point && typeof point === 'object' && Number.isFinite(point.x) && Number.isFinite(point.y)
    ? { x: point.x!, y: point.y! }
    : undefined;
}

const rounded = (point: Point): Point => ({ x: Math.round(point.x), y: Math.round(point.y) });

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
