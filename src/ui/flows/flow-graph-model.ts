// What the flow graph says in words: its accessible name and each node's state.

import { HUMAN_ANSWERS } from '../../flows/flow.ts';

export interface NodeMarks {
  current: readonly string[];
  visited: readonly string[];
  running: boolean;
  /** The run is paused, waiting for the user (an approval) at `current`. */
  waiting?: boolean;
  problems: readonly string[];
  /** Nodes the Flowise import left something out of (named in its report). */
  noted?: readonly string[];
}

export interface NodeState {
  /** CSS classes: `running`, `stopped`, `visited`, `problem`. */
  classes: string;
  /** Said in the box and its tooltip: "running", "waiting", "stopped here", "done", "problem". */
  title: string | undefined;
  running: boolean;
}

export function nodeState(id: string, marks: NodeMarks): NodeState {
  const classes: string[] = [];
  let title: string | undefined;
  const current = marks.current.includes(id);
  if (current) {
    classes.push(marks.running ? 'running' : 'stopped');
    title = marks.running ? 'running' : marks.waiting ? 'waiting' : 'stopped here';
  } else if (marks.visited.includes(id)) {
    classes.push('visited');
    title = 'done';
  }
  if (marks.problems.includes(id)) {
    classes.push('problem');
    title = title ? `${title}, problem` : 'problem';
  } else if (marks.noted?.includes(id)) {
    classes.push('noted');
    title = title ? `${title}, see the import report` : 'see the import report';
  }
  return { classes: classes.join(' '), title, running: current && marks.running };
}

/** "Flow graph of support", then what runs: ", running billing", ", stopped at billing". */
export function graphLabel(
  name: unknown,
  current: readonly string[],
  running: boolean,
  waiting = false,
): string {
  const base = `Flow graph of ${typeof name === 'string' && name ? name : 'this flow'}`;
  if (current.length === 0) return base;
  return `${base}, ${progressWord(running, waiting)} ${current.join(' and ')}`;
}

export function progressWord(running: boolean, waiting: boolean): string {
  return running ? 'running' : waiting ? 'waiting for you at' : 'stopped at';
}

/** A text cut to `max` characters with an ellipsis. */
export function shortText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What a node's output handles are, top to bottom (the canvas draws one per output). */
export function outputHandles(node: {
  type?: unknown;
  rules?: unknown;
  scenarios?: unknown;
}): string[] {
  const texts = (list: unknown[]) => [
    ...new Set(list.filter((item): item is string => typeof item === 'string' && item !== '')),
  ];
  if (node.type === 'condition') {
    const rules = Array.isArray(node.rules) ? (node.rules as { output?: unknown }[]) : [];
    return [...texts(rules.map((rule) => rule?.output)).filter((o) => o !== ELSE), ELSE];
  }
  if (node.type === 'conditionAgent')
    return texts(Array.isArray(node.scenarios) ? node.scenarios : []);
  if (node.type === 'humanInput') return [...HUMAN_ANSWERS];
  return [];
}

const ELSE = 'else';
