// JSON text as the user typed it: parsed, or the place where it stops parsing (line and column,
// which the engines do not all give).

import type { JsonError } from '../protocol.ts';

export type ParsedJson = { ok: true; value: unknown } | { ok: false; error: JsonError };

export function parseJson(text: string): ParsedJson {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    const raw = (error as Error).message;
    // V8 says "… at position 42" (newer ones add "(line 3 column 5)"); others say less.
    const position = /position (\d+)/.exec(raw);
    const offset = position ? Number(position[1]) : guessOffset(text);
    const { line, column } = lineAndColumn(text, offset);
    const message = raw
      .replace(/\s*\(line \d+ column \d+\)/, '')
      .replace(/\s*in JSON at position \d+/, '')
      .replace(/, .*is not valid JSON$/s, '')
      .replace(/^JSON\.parse: /, '');
    return {
      ok: false,
      error: { message: `${message} at line ${line}, column ${column}`, line, column },
    };
  }
}

/**
 * Where an error without a position is (V8 says only "Unexpected token ']'" for a trailing
 * comma, the commonest slip in hand-written JSON): the end of the longest prefix of the text
 * that could still be the start of valid JSON, found by bisection.
 */
function guessOffset(text: string): number {
  const couldContinue = (prefix: string) => {
    try {
      JSON.parse(prefix);
      return true;
    } catch (error) {
      const message = (error as Error).message;
      const position = /position (\d+)/.exec(message);
      return (
        /end of JSON input/.test(message) || (!!position && Number(position[1]) >= prefix.length)
      );
    }
  };
  let good = 0;
  let bad = text.length;
  while (bad - good > 1) {
    const middle = Math.floor((good + bad) / 2);
    if (couldContinue(text.slice(0, middle))) good = middle;
    else bad = middle;
  }
  return bad - 1;
}

export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.min(offset, text.length));
  const lines = before.split('\n');
  return { line: lines.length, column: lines.at(-1)!.length + 1 };
}
