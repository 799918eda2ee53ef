// The graph half of validateFlow: edges name nodes, conditions route every outcome, a run can
// only go round through a loop node (which bounds it), and every node can be reached.

import { ELSE } from './conditions.ts';
import { HUMAN_ANSWERS } from './flow.ts';
import type { FlowNodeData, Report } from './validate-types.ts';
import { checkIterations } from './validate-v2.ts';

export type { FlowNodeData, Report, ValidateFlowOptions } from './validate-types.ts';

interface Link {
  from: string;
  to: string;
  when?: unknown;
  /** A loop's jump back (not an edge of the file). */
  jump?: boolean;
}

/**
 * Checks the edges and the shape of the graph. `nodes` are those with a known type; `ids` are all
 * node ids, so an edge to a node of unknown type is not also reported as an edge to nowhere.
 */
export function checkGraph(
  nodes: readonly FlowNodeData[],
  ids: ReadonlySet<string>,
  edges: readonly unknown[],
  report: Report,
): void {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  // Edges out of each existing node (for routing), and edges between existing nodes (for paths).
  const outgoing = new Map<string, Link[]>();
  const links: Link[] = [];
  edges.forEach((edge: unknown, index) => {
    const { from, to, when } = (typeof edge === 'object' && edge !== null ? edge : {}) as Link;
    if (typeof from !== 'string' || typeof to !== 'string') {
      report(
        `edge #${index + 1} needs "from" and "to" (node ids)`,
        typeof from === 'string' ? from : undefined,
      );
      return;
    }
    if (!ids.has(from))
      report(`edge ${from} → ${to} comes from "${from}", which is not a node`, from);
    if (!ids.has(to)) report(`edge ${from} → ${to} goes to "${to}", which is not a node`, from);
    if (when !== undefined && typeof when !== 'string') {
      report(`edge ${from} → ${to} has a "when" that is not a string`, from);
    }
    if (ids.has(from)) outgoing.set(from, [...(outgoing.get(from) ?? []), { from, to, when }]);
    if (ids.has(from) && ids.has(to)) links.push({ from, to, when });
  });
  for (const node of nodes) checkRouting(node, outgoing.get(node.id) ?? [], report);

  // A loop's jump back is a path like any edge.
  for (const node of nodes) {
    if (node.type !== 'loop' || typeof node.to !== 'string') continue;
    if (ids.has(node.to)) links.push({ from: node.id, to: node.to, jump: true });
    else report(`the loop goes back to "${node.to}", which is not a node`, node.id);
  }
  // An Iteration goes into its first nodes and back from its last: paths, not edges.
  const paths = [...links, ...checkIterations(nodes, links, report)];
  checkCycles(nodes, paths, report);
  checkReachable(nodes, paths, report);
  checkToolPredecessors(byId, links, report);
}

/** Which edges a node may have, and for conditions, that every outcome has one. */
function checkRouting(node: FlowNodeData, out: readonly Link[], report: Report): void {
  const id = node.id;
  switch (node.type) {
    case 'end':
    case 'reply':
      if (out.length > 0) {
        report(
          `${node.type === 'end' ? 'an end' : 'a direct reply'} node has no outgoing edges, but this one goes to ${names(out)}`,
          id,
        );
      }
      return;
    case 'condition': {
      const outputs = ruleOutputs(node.rules);
      checkWhens(
        node,
        out,
        [...outputs, ELSE],
        `a rule's output (${outputs.join(', ')}) or "${ELSE}"`,
        report,
      );
      if (!out.some(({ when }) => when === ELSE)) {
        report(`a condition needs an "${ELSE}" edge, taken when no rule matches`, id);
      }
      checkOutcomesHaveEdges(node, out, 'rule output', outputs, report);
      return;
    }
    case 'humanInput':
      checkWhens(node, out, HUMAN_ANSWERS, `"proceed" or "reject"`, report);
      return;
    case 'conditionAgent': {
      const scenarios = isStrings(node.scenarios) ? node.scenarios : [];
      checkWhens(node, out, scenarios, `one of its scenarios (${scenarios.join(', ')})`, report);
      checkOutcomesHaveEdges(node, out, 'scenario', scenarios, report);
      return;
    }
    default:
      for (const { to, when } of out) {
        if (when === undefined) continue;
        report(
          `edge ${id} → ${to} has a "when", but only edges out of a condition or conditionAgent can`,
          id,
        );
      }
  }
}

/** Each edge out of a condition or conditionAgent names one of its outcomes in `when`. */
function checkWhens(
  node: FlowNodeData,
  out: readonly Link[],
  outcomes: readonly string[],
  expected: string,
  report: Report,
) {
  // Without rules or scenarios every edge would be wrong, and their absence is reported already.
  if (outcomes.every((outcome) => outcome === ELSE)) return;
  for (const { to, when } of out) {
    if (typeof when === 'string' && outcomes.includes(when)) continue;
    const has = when === undefined ? 'needs a "when"' : `has when ${JSON.stringify(when)}`;
    report(`edge ${node.id} → ${to} ${has}: ${expected}`, node.id);
  }
}

// An outcome without an edge would end the run silently where the author meant it to go on.
function checkOutcomesHaveEdges(
  node: FlowNodeData,
  out: readonly Link[],
  kind: string,
  outcomes: readonly string[],
  report: Report,
) {
  for (const outcome of outcomes) {
    if (!out.some(({ when }) => when === outcome)) {
      report(`${kind} "${outcome}" has no edge (an edge with when "${outcome}")`, node.id);
    }
  }
}

/**
 * Every cycle must pass through a loop node, whose maxLoops bounds it. So the graph without loop
 * nodes must have no cycle: each strongly connected part of it is reported once, with one of its
 * cycles spelled out.
 */
function checkCycles(nodes: readonly FlowNodeData[], links: readonly Link[], report: Report) {
  // An Iteration bounds its cycles too (one round per item).
  const plain = nodes
    .filter((node) => node.type !== 'loop' && node.type !== 'iteration')
    .map((node) => node.id);
  const inPlain = new Set(plain);
  const next = successors(links.filter(({ from, to }) => inPlain.has(from) && inPlain.has(to)));
  for (const component of stronglyConnected(plain, next)) {
    const members = new Set(component);
    const first = plain.find((id) => members.has(id))!;
    const cycle = cycleThrough(first, (id) => (next.get(id) ?? []).filter((n) => members.has(n)));
    if (cycle) {
      report(
        `the cycle ${cycle.join(' → ')} has no loop node: going back must pass through a loop node, which bounds it`,
        first,
      );
    }
  }
}

function checkReachable(nodes: readonly FlowNodeData[], links: readonly Link[], report: Report) {
  const starts = nodes.filter((node) => node.type === 'start').map((node) => node.id);
  if (starts.length === 0) return; // reported already; everything would be unreachable
  const next = successors(links);
  const reached = new Set(starts);
  const queue = [...starts];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const to of next.get(id) ?? []) {
      if (reached.has(to)) continue;
      reached.add(to);
      queue.push(to);
    }
  }
  for (const node of nodes) {
    if (!reached.has(node.id)) report('no path from the start node reaches this node', node.id);
  }
}

// A tool node runs the tool calls that the model of the node before it asked for.
function checkToolPredecessors(
  byId: ReadonlyMap<string, FlowNodeData>,
  links: readonly Link[],
  report: Report,
) {
  for (const node of byId.values()) {
    if (node.type !== 'tool') continue;
    const callers = links.filter(({ from, to }) => {
      const type = byId.get(from)?.type;
      return to === node.id && (type === 'llm' || type === 'agent');
    });
    if (callers.length === 0) {
      report(
        'a tool node runs the tool calls of an llm or agent node, but no edge comes from one',
        node.id,
      );
    }
  }
}

function ruleOutputs(rules: unknown): string[] {
  if (!Array.isArray(rules)) return [];
  const outputs = rules.flatMap((rule: unknown) => {
    const output = (rule as { output?: unknown } | null)?.output;
    return typeof output === 'string' && output !== '' && output !== ELSE ? [output] : [];
  });
  return [...new Set(outputs)];
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function names(links: readonly Link[]): string {
  return links.map(({ to }) => `"${to}"`).join(', ');
}

function successors(links: readonly Link[]): Map<string, string[]> {
  const next = new Map<string, string[]>();
  for (const { from, to } of links) next.set(from, [...(next.get(from) ?? []), to]);
  return next;
}

/** Tarjan's algorithm: the parts of the graph in which every node reaches every other. */
function stronglyConnected(ids: readonly string[], next: ReadonlyMap<string, string[]>) {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (id: string) => {
    index.set(id, index.size);
    low.set(id, index.get(id)!);
    stack.push(id);
    onStack.add(id);
    for (const to of next.get(id) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(id, Math.min(low.get(id)!, low.get(to)!));
      } else if (onStack.has(to)) {
        low.set(id, Math.min(low.get(id)!, index.get(to)!));
      }
    }
    if (low.get(id) !== index.get(id)) return;
    const component: string[] = [];
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member);
      component.push(member);
      if (member === id) break;
    }
    components.push(component);
  };
  for (const id of ids) if (!index.has(id)) visit(id);
  return components;
}

/** A shortest path from `start` back to itself, or undefined when there is none. */
function cycleThrough(start: string, next: (id: string) => string[]): string[] | undefined {
  const parent = new Map<string, string>();
  const queue = [start];
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    for (const to of next(id)) {
      if (to === start) {
        const path = [id];
        while (path[0] !== start) path.unshift(parent.get(path[0]!)!);
        return [...path, start];
      }
      if (parent.has(to)) continue;
      parent.set(to, id);
      queue.push(to);
    }
  }
  return undefined;
}
