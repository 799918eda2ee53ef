// The turn every framework runs in the overhead benchmark: a user message, one tool call, the
// tool's response, a final answer. The model answers at once (no latency), so what is left is
// the framework's own cost.

export const TOOL_NAME = 'add';
export const TOOL_DESCRIPTION = 'Adds two numbers';
export const TOOL_ARGS = { a: 2, b: 3 } as const;
export const FINAL_ANSWER = 'It is 5.';

export function userMessage(turn: number): string {
  return `Turn ${turn}: what is 2 + 3?`;
}

export function add({ a, b }: { a: number; b: number }): { sum: number } {
  return { sum: a + b };
}

/** One session of one framework, opened fresh for each measured run. */
export interface TurnSession {
  /** Runs turn `turn` to its end (every event consumed) and returns the final answer's text. */
  turn(turn: number): Promise<string>;
}

export interface Contender {
  /** The label in the table and in test/bench/results.json. */
  name: string;
  open(): Promise<TurnSession>;
}
