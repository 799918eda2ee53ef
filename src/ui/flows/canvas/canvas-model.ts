// The flow canvas's pure part: a flow (as the editor holds it: it may be incomplete or wrong) as
// the nodes, groups, handles, edges and notes the canvas draws, and each edit the canvas makes
// (add, move, connect, delete, paste, tidy up) as a new flow. The canvas is a view of the flow's
// JSON: every edit here returns the whole flow, which the editor keeps as its text (so the code
// view, the node forms and undo follow it), and nothing here knows the canvas library.

import { HUMAN_ANSWERS, NODE_TYPES, type FlowNodeType } from '../../../flows/flow.ts';
import { sizeOf, type Size } from '../flow-groups.ts';
import { GROUP_SIZE, layoutFlow } from '../flow-layout.ts';
import { outputHandles } from '../flow-graph-model.ts';
import {
  dropNodes,
  geometryOf,
  graphOnly,
  withChildren,
  withSizes,
  type Geometry,
} from './canvas-groups.ts';
import { notesOf, withMissingNotePlaces, type CanvasNote } from './canvas-notes.ts';
import {
  isText,
  pointOf,
  rounded,
  type LooseEdge,
  type LooseFlow,
  type LooseNode,
  type Point,
} from './loose-flow.ts';

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
  /** Top left; relative to its group's top left when it is in one. */
  position: Point;
  /** Output handles, top to bottom (none for an end node). */
  outputs: OutputHandle[];
  /** Whether edges may come in (not into a start node). */
  input: boolean;
  /** The Iteration group it is drawn in. */
  parent?: string;
  /** A group's size (an Iteration node is drawn as a box that holds its children). */
  size?: Size;
}

export interface CanvasEdge {
  /** Stable while the flow does not change it: `from>to>when`. */
  id: string;
  source: string;
  target: string;
  sourceHandle: string;
  label: string | undefined;
}

export interface PaletteItem {
  type: FlowNodeType;
  label: string;
  hint: string;
}

/**
 * The node types of the palette with their names in Flowise: the Sequential Agents ones in
 * Flowise's order, then Agentflow V2's.
 */
export const PALETTE: readonly PaletteItem[] = [
  { type: 'start', label: 'Start', hint: 'Where a run begins: the flow’s model, moderation, form' },
  { type: 'agent', label: 'Agent', hint: 'A model with a system prompt and tools' },
  { type: 'llm', label: 'LLM', hint: 'One model call, with structured output' },
  { type: 'tool', label: 'Tool Node', hint: 'Runs the tool calls of the LLM node before it' },
  { type: 'condition', label: 'Condition', hint: 'Rules on the state choose the way on' },
  { type: 'conditionAgent', label: 'Condition Agent', hint: 'A model chooses a scenario' },
  { type: 'loop', label: 'Loop', hint: 'Goes back to an earlier node' },
  { type: 'end', label: 'End', hint: 'Where a run ends' },
  { type: 'reply', label: 'Direct Reply', hint: 'Answers with a message, and ends' },
  { type: 'humanInput', label: 'Human Input', hint: 'The user proceeds or rejects' },
  { type: 'iteration', label: 'Iteration', hint: 'Runs the nodes inside it once per list item' },
  { type: 'code', label: 'Custom Function', hint: 'JavaScript run in a sandbox' },
  { type: 'toolCall', label: 'Tool', hint: 'Calls one tool with set arguments' },
  { type: 'http', label: 'HTTP', hint: 'Sends an HTTP request' },
  { type: 'subflow', label: 'Execute Flow', hint: 'Runs another flow as one step' },
  { type: 'retriever', label: 'Retriever', hint: 'Searches knowledge bases for a query' },
];

/** What the canvas says beside Human Input's two handles. */
const HUMAN_ANSWER_LABELS: Readonly<Record<string, string>> = {
  proceed: 'Proceed',
  reject: 'Reject',
};

/**
 * The output handles of a node: one per rule output (then `else`) or scenario, Proceed and
 * Reject for Human Input, none for End, else `out`.
 */
export function outputsOf(node: LooseNode): OutputHandle[] {
  if (node.type === 'end') return [];
  if (node.type === 'humanInput')
    return HUMAN_ANSWERS.map((id) => ({ id, label: HUMAN_ANSWER_LABELS[id] ?? id }));
  if (node.type === 'condition' || node.type === 'conditionAgent')
    return outputHandles(node).map((id) => ({ id, label: id }));
  return [{ id: OUT_HANDLE, label: '' }];
}

/**
 * What the canvas draws of the flow: groups first (the canvas draws a group before what it
 * holds), then the other nodes, in the file's order. Duplicated ids are drawn once (validation
 * names them).
 */
export function canvasGraph(flow: LooseFlow): {
  nodes: CanvasNode[];
  edges: CanvasEdge[];
  notes: CanvasNote[];
} {
  const geometry = geometryOf(flow);
  const seen = new Set<string>();
  const nodes: CanvasNode[] = [];
  for (const node of flow.nodes) {
    if (seen.has(node.id)) continue;
    seen.add(node.id);
    const parent = geometry.parents.get(node.id);
    const size = geometry.sizes.get(node.id);
    nodes.push({
      id: node.id,
      type: typeof node.type === 'string' ? node.type : '?',
      label: isText(node.label) ? node.label : node.id,
      position: geometry.positions.get(node.id)!,
      outputs: outputsOf(node),
      input: node.type !== 'start',
      ...(parent ? { parent } : {}),
      ...(size ? { size } : {}),
    });
  }
  nodes.sort((a, b) => Number(!a.size) - Number(!b.size));
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
  return { nodes, edges, notes: notesOf(flow, geometry) };
}

export function edgeId(edge: { from: string; to: string; when?: unknown }): string {
  return `${edge.from}>${edge.to}>${isText(edge.when) ? edge.when : ''}`;
}

/** Whether a canvas edge is a loop's jump (drawn, but not an edge of the flow). */
export const isLoopJump = (id: string) => id.startsWith('loop:');

/**
 * A new node of `type` with its top left at `position` (on the canvas as a whole), with an id no
 * node has; and its id. Dropped on a group, it joins it (or `refused` says why not).
 */
export function addNode(
  flow: LooseFlow,
  type: FlowNodeType,
  position: Point,
): { flow: LooseFlow; id: string; refused?: string } {
  const id = freeId(
    flow,
    type.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
  );
  const node: LooseNode = { id, type, ...TEMPLATES[type], position: rounded(position) };
  const dropped = dropNodes({ ...flow, nodes: [...flow.nodes, node] }, [{ id, position }]);
  return { ...dropped, id };
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
  iteration: { input: '', size: { ...GROUP_SIZE } },
  code: { code: 'return $input;' },
  http: { method: 'GET', url: '' },
  toolCall: { tool: '' },
  subflow: { flow: '' },
  retriever: { knowledge: [], query: '{{question}}' },
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

/**
 * The flow with what it leaves to the automatic layout (a node's position, a group's size, a
 * note's place) set to where `drawn` (the flow as drawn before the edit) drew it: the first edit
 * saves where everything is, so that nothing moves afterwards that the user did not move.
 */
export function withDrawnPlaces(flow: LooseFlow, drawn: LooseFlow): LooseFlow {
  const before: Geometry = geometryOf(drawn);
  const nodes = flow.nodes.map((node) => {
    let next = node;
    const at = before.positions.get(node.id);
    if (!pointOf(node.position) && at) next = { ...next, position: rounded(at) };
    const size = before.sizes.get(node.id);
    if (node.type === 'iteration' && !sizeOf(node.size) && size)
      next = { ...next, size: { width: Math.round(size.width), height: Math.round(size.height) } };
    return next;
  });
  const changed = nodes.some((node, i) => node !== flow.nodes[i]);
  const placed = changed ? { ...flow, nodes } : flow;
  return withMissingNotePlaces(placed, notesOf(drawn, before));
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

/**
 * The flow without these nodes (a group's children go with it, as in Flowise), their edges and
 * loops' jumps to them, and without these edges.
 */
export function removeElements(
  flow: LooseFlow,
  nodeIds: Iterable<string>,
  edgeIds: Iterable<string> = [],
): LooseFlow {
  const nodes = withChildren(flow, nodeIds);
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

/** What Copy keeps: the nodes chosen (each where it is drawn) and the edges between them. */
export interface Clip {
  nodes: LooseNode[];
  edges: LooseEdge[];
}

/** The nodes chosen, a group's children with it, and the edges between them. */
export function copyNodes(flow: LooseFlow, ids: Iterable<string>): Clip | undefined {
  const chosen = withChildren(flow, ids);
  const { positions } = geometryOf(flow);
  const nodes = flow.nodes
    .filter((node) => chosen.has(node.id))
    .map((node) => ({ ...node, position: positions.get(node.id) }));
  if (nodes.length === 0) return undefined;
  const edges = flow.edges.filter((edge) => chosen.has(edge.from) && chosen.has(edge.to));
  return structuredClone({ nodes, edges });
}

/**
 * The flow with a copy of the clip's nodes (new ids, moved by `offset`) and of the edges between
 * them, and the new ids. A pasted loop that jumped to a copied node jumps to its copy; a copied
 * group holds the copies of its children (where they were in it).
 */
export function pasteNodes(
  flow: LooseFlow,
  clip: Clip,
  offset: Point = { x: 40, y: 40 },
): { flow: LooseFlow; ids: string[] } {
  const renamed = new Map<string, string>();
  let next: LooseFlow = flow;
  for (const node of clip.nodes) {
    const id = freeId(next, node.id.replace(/_\d+$/, ''));
    renamed.set(node.id, id);
    next = { ...next, nodes: [...next.nodes, { ...node, id }] };
  }
  const pasted = clip.nodes.map((node): LooseNode => {
    const at = pointOf(node.position) ?? { x: 0, y: 0 };
    const parent = isText(node.parent) ? renamed.get(node.parent) : undefined;
    const to = isText(node.to) ? (renamed.get(node.to) ?? node.to) : node.to;
    return {
      ...structuredClone(node),
      id: renamed.get(node.id)!,
      position: parent ? rounded(at) : rounded({ x: at.x + offset.x, y: at.y + offset.y }),
      ...(parent ? { parent } : {}),
      ...(node.type === 'loop' ? { to } : {}),
    };
  });
  const edges = clip.edges.map((edge) => ({
    ...edge,
    from: renamed.get(edge.from)!,
    to: renamed.get(edge.to)!,
  }));
  return {
    flow: { ...flow, nodes: [...flow.nodes, ...pasted], edges: [...flow.edges, ...edges] },
    ids: [...renamed.values()],
  };
}

/** Every node placed where the automatic layout puts it, each group sized to fit (Tidy up). */
export function tidy(flow: LooseFlow): LooseFlow {
  const layout = layoutFlow(graphOnly(flow), { fitGroups: true });
  const sizes = new Map(
    layout.nodes
      .filter((node) => node.type === 'iteration' && !node.parent)
      .map((node) => [node.id, { width: node.width, height: node.height }]),
  );
  return withSizes(
    withPositions(flow, new Map(layout.nodes.map((node) => [node.id, node]))),
    sizes,
  );
}

/** An id no node of the flow has: `base`, else `base_2`, `base_3`, … */
export function freeId(flow: LooseFlow, base: string): string {
  const taken = new Set(flow.nodes.map((node) => node.id));
  if (!taken.has(base)) return base;
  for (let i = 2; ; i++) if (!taken.has(`${base}_${i}`)) return `${base}_${i}`;
}

export const isNodeType = (value: unknown): value is FlowNodeType =>
  (NODE_TYPES as readonly unknown[]).includes(value);
