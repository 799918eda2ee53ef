// The Flows view's pure parts: the text of a flow, what the problems say, what the graph draws.

import type { Flow } from '../../flows/flow.ts';
import type { FlowCheck } from '../../../workers/protocol.ts';

/** The JSON the editor shows for a flow. */
export function flowText(flow: unknown): string {
  return JSON.stringify(flow, null, 2);
}

/** A new flow to start from: the smallest one that runs. */
export const NEW_FLOW: Flow = {
  name: 'my-flow',
  description: 'A new flow: edit the JSON, then Save.',
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'answer', type: 'agent', instruction: 'Answer the question: {{question}}' },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'answer' },
    { from: 'answer', to: 'end' },
  ],
};

export interface ProblemLine {
  key: string;
  /** "billing: the tool nope is unknown", "Line 3, column 13: Unexpected token ','". */
  text: string;
  nodeId?: string;
  /** Where a parse error is (1-based), to put the cursor there. */
  at?: { line: number; column: number };
}

export function problemLines(check: FlowCheck | undefined): ProblemLine[] {
  if (!check) return [];
  if (check.parseError) {
    const { line, column, message } = check.parseError;
    const what = message.replace(/ at line \d+, column \d+$/, '');
    return [
      {
        key: 'parse',
        text: `The JSON does not parse: line ${line}, column ${column}: ${what}`,
        at: { line, column },
      },
    ];
  }
  return check.problems.map((problem, i) => ({
    key: `${i}`,
    text: problem.nodeId ? `${problem.nodeId}: ${problem.message}` : problem.message,
    ...(problem.nodeId ? { nodeId: problem.nodeId } : {}),
  }));
}

/** The ids of the nodes with a problem, to mark them on the graph. */
export function problemNodes(check: FlowCheck | undefined): string[] {
  return [...new Set((check?.problems ?? []).flatMap((p) => (p.nodeId ? [p.nodeId] : [])))];
}

/** The offset in `text` of a 1-based line and column. */
export function offsetOf(text: string, line: number, column: number): number {
  let offset = 0;
  for (let i = 1; i < line; i++) {
    const next = text.indexOf('\n', offset);
    if (next < 0) return text.length;
    offset = next + 1;
  }
  return Math.min(text.length, offset + column - 1);
}

type Drawable = Pick<Flow, 'nodes' | 'edges'> & { name?: unknown };

/**
 * What the graph draws: the JSON as it stands when it parses into something with nodes,
 * else the last drawable version (the graph stays put while a quote is missing).
 */
export function drawable(parsed: unknown, fallback: Drawable | undefined): Drawable | undefined {
  const value = parsed as Partial<Drawable> | null | undefined;
  if (value && typeof value === 'object' && Array.isArray(value.nodes))
    return { ...value, nodes: value.nodes, edges: Array.isArray(value.edges) ? value.edges : [] };
  return fallback;
}
