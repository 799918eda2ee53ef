// A flow's Iteration node (Flowise V2's): it runs the nodes inside it once per item of a list.
//
// It runs like a loop node around its children: its first run reads the list and sends the first
// item into its first nodes (those with no edge into them from inside); an item ends when a node
// inside has nowhere to go, which brings the run back to the Iteration with that node's output;
// it records the result and sends the next item, and after the last follows its own edges with
// the list of results. Where it stands is recorded in its completion events (`iteration`), so a
// resumed run goes on at the item it was at, and `{{iteration.item}}` reads it from there.
//
// Each item runs on a branch of its own (`<iteration's branch>.<id>.<index>`), so a node inside
// sees the conversation before the Iteration but never another item's messages.

import type { Event } from '../core/event.ts';
import { InvalidFlowInputError } from '../core/errors.ts';
import { completionOf } from './flow-events.ts';
import type { FlowToken } from './frontier.ts';

/** Where an Iteration stands after a run that sent an item in. */
export interface IterationProgress {
  /** The item being run. */
  index: number;
  items: unknown[];
  /** The results of the items before it. */
  results: unknown[];
  /** The branch the Iteration itself runs on (the flow's own when absent). */
  branch?: string;
}

/** What the Iteration's run decided. */
export interface IterationStep {
  output: unknown;
  /** Set while items remain; absent once the list is done. */
  progress?: IterationProgress;
  /** The tokens of the next item's first nodes (while items remain). */
  tokens?: FlowToken[];
}

/**
 * The Iteration's progress in this invocation: recorded by its latest completion, when that run
 * sent an item in (undefined: not iterating, so its next run starts the list).
 */
export function iterationProgress(
  events: readonly Event[],
  flowName: string,
  nodeId: string,
  invocationId: string,
): IterationProgress | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== flowName || event.invocationId !== invocationId) continue;
    const completion = completionOf(event);
    if (completion?.completed_node !== nodeId) continue;
    const progress = completion['iteration'];
    return isProgress(progress) ? progress : undefined;
  }
  return undefined;
}

/** The item and index a node inside the Iteration sees (`{{iteration.item}}`). */
export function iterationScope(
  progress: IterationProgress | undefined,
): { item: unknown; index: number } | undefined {
  return progress ? { item: progress.items[progress.index], index: progress.index } : undefined;
}

/**
 * One run of the Iteration: the list read from `list` on a fresh start, or the result of the item
 * that just ended (`input`) recorded.
 */
export function iterate(options: {
  nodeId: string;
  label: string;
  list: () => unknown;
  input: unknown;
  progress: IterationProgress | undefined;
  entries: readonly string[];
  /** The branch the Iteration runs on (undefined: the flow's own), and the flow's root. */
  branch: string | undefined;
  root: string;
}): IterationStep {
  const { progress } = options;
  const items = progress ? progress.items : listOf(options.list(), options.label);
  const results = progress ? [...progress.results, options.input] : [];
  const index = progress ? progress.index + 1 : 0;
  if (index >= items.length) return { output: results };
  const item = items[index];
  const itemBranch = `${options.branch ?? options.root}.${options.nodeId}.${index}`;
  const tokens = options.entries.map((node) => ({
    node,
    branch: options.entries.length === 1 ? itemBranch : `${itemBranch}.${node}`,
  }));
  return {
    output: item,
    progress: {
      index,
      items,
      results,
      ...(options.branch !== undefined ? { branch: options.branch } : {}),
    },
    tokens,
  };
}

/** The most items an Iteration runs (each item is at least one node run). */
export const MAX_ITEMS = 1000;

/** The list an Iteration's input is: an array, or JSON text of one (Flowise writes both). */
function listOf(value: unknown, label: string): unknown[] {
  let list = value;
  if (typeof value === 'string') {
    try {
      list = JSON.parse(value.trim() || '[]');
    } catch {
      throw new InvalidFlowInputError(
        `${label} needs a list to iterate over, and its input is text that is not a JSON list`,
      );
    }
  }
  if (!Array.isArray(list))
    throw new InvalidFlowInputError(
      `${label} needs a list to iterate over; its input is ${list === null ? 'null' : typeof list}`,
    );
  if (list.length > MAX_ITEMS)
    throw new InvalidFlowInputError(
      `${label} has ${list.length} items to iterate over; an Iteration runs at most ${MAX_ITEMS}`,
    );
  return list;
}

function isProgress(value: unknown): value is IterationProgress {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as IterationProgress).index === 'number' &&
    Array.isArray((value as IterationProgress).items) &&
    Array.isArray((value as IterationProgress).results)
  );
}
