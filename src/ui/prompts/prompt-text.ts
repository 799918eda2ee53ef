// What the message box does with saved prompts, as pure functions: where a `/` asks for one, which
// prompts match what follows it, the variables a prompt's text holds (`{{topic}}`) and the text
// with them filled in. No DOM here: the Composer and PromptPicker hold the state.
//
// What must stay true:
// - `/` asks for a prompt only at the start of a line or after a space (not in `and/or`, a URL
//   or a path in the middle of a word), and only up to the caret, on one line;
// - a variable is `{{name}}`, the name without braces or a line break; the same name twice is
//   one variable, filled in both places; `{{` with no closing `}}` is text, left as it is.

import type { PromptRecord } from '../../../workers/protocol.ts';

/** A `/` asking for a prompt: where it is, and what was typed after it. */
export interface SlashQuery {
  /** The index of the `/`. */
  start: number;
  /** The text between the `/` and the caret. */
  query: string;
}

/** Characters typed after `/` still read as a prompt's name (then it is just text). */
const QUERY_CHARS = 60;

/** The `/` the text before the caret ends in, if it asks for a prompt. */
export function slashQuery(text: string, caret: number): SlashQuery | undefined {
  const line = text.slice(0, caret).split('\n').at(-1)!;
  const lineStart = caret - line.length;
  const slash = line.lastIndexOf('/');
  if (slash < 0) return undefined;
  if (slash > 0 && !/\s/.test(line[slash - 1]!)) return undefined;
  const query = line.slice(slash + 1);
  // `/ ` is a slash with a space after it, not the start of a name.
  if (query.length > QUERY_CHARS || /^\s/.test(query)) return undefined;
  return { start: lineStart + slash, query };
}

/**
 * The prompts whose name matches `query`, best first: names that start with it, then names with
 * a word that starts with it, then names that hold it anywhere; each group by name. Case and
 * accents do not matter.
 */
export function matchPrompts(prompts: readonly PromptRecord[], query: string): PromptRecord[] {
  const wanted = folded(query.trim());
  const ranked: { prompt: PromptRecord; rank: number }[] = [];
  for (const prompt of prompts) {
    const name = folded(prompt.name);
    const rank = name.startsWith(wanted)
      ? 0
      : name.split(/[\s_-]+/).some((word) => word.startsWith(wanted))
        ? 1
        : name.includes(wanted)
          ? 2
          : -1;
    if (rank >= 0) ranked.push({ prompt, rank });
  }
  return ranked
    .sort((a, b) => a.rank - b.rank || a.prompt.name.localeCompare(b.prompt.name))
    .map(({ prompt }) => prompt);
}

const folded = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const VARIABLE = /\{\{\s*([^{}\n]+?)\s*\}\}/g;

/** The variables of a prompt's text, each once, in the order they first appear. */
export function promptVariables(text: string): string[] {
  return [...new Set([...text.matchAll(VARIABLE)].map((match) => match[1]!))];
}

/** The text with each variable replaced by its value (one without a value is left as written). */
export function fillPrompt(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(VARIABLE, (whole, name: string) =>
    Object.hasOwn(values, name) ? values[name]! : whole,
  );
}

/** The message box's text with `insert` in place of the `/query` before the caret. */
export function insertAt(
  text: string,
  slash: SlashQuery,
  insert: string,
): { text: string; caret: number } {
  const end = slash.start + 1 + slash.query.length;
  const before = text.slice(0, slash.start);
  return { text: before + insert + text.slice(end), caret: before.length + insert.length };
}
