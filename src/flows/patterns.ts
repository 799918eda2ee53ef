// Regular expressions that flows (and so users and files) supply, run by RE2 (re2js): its time is
// linear in the text whatever the pattern, so `^(a+)+$` cannot freeze the runtime on a long
// message as a backtracking engine (JavaScript's RegExp) does. The price is RE2's syntax: no
// backreferences (`\1`) and no lookaround (`(?=…)`, `(?<=…)`), which is a validation problem.
//
// Semantics are those of Flowise's `new RegExp(pattern).test(text)`: the pattern is searched for
// anywhere in the text (unanchored), case-sensitively, with `^`/`$` at the ends of the text.

import { RE2JS } from 're2js';

/** A pattern compiled, or why RE2 cannot compile it. */
type Compiled = { pattern: RE2JS } | { problem: string };

// Conditions test the same few patterns on every run: keep the last ones compiled.
const compiled = new Map<string, Compiled>();
const CACHE_SIZE = 64;

function compile(source: string): Compiled {
  const hit = compiled.get(source);
  if (hit) return hit;
  let result: Compiled;
  try {
    result = { pattern: RE2JS.compile(source) };
  } catch (error) {
    const message = (error as Error).message.replace(/^error parsing regexp: /, '');
    result = { problem: message };
  }
  if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  compiled.set(source, result);
  return result;
}

/**
 * Why RE2 cannot run `source` (a sentence for the author), or undefined when it can.
 */
export function patternProblem(source: string): string | undefined {
  const result = compile(source);
  if (!('problem' in result)) return undefined;
  return (
    `${result.problem}. Flows use RE2 syntax, which always runs in linear time: ` +
    'no backreferences (\\1) or lookaround ((?=…), (?!…), (?<=…))'
  );
}

/** Whether `source` matches somewhere in `text`; a pattern RE2 cannot compile matches nothing. */
export function matchesPattern(source: string, text: string): boolean {
  const result = compile(source);
  return 'pattern' in result && result.pattern.test(text);
}
