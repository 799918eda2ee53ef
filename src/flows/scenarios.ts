// Flowise's Condition Agent: the model is asked which scenario the conversation is in, and its
// free-text answer is matched to one of them. Models dress their answers up ("Resolved.",
// `{"output": "resolved"}`, "It is unresolved"), so matching is lenient, most specific first.

import { trimEnd, trimStart } from '../core/text.ts';
import { jsonInReply } from './structured-output.ts';

/**
 * The scenario the reply names: an exact match, else the longest scenario the answer starts with,
 * else the longest one it contains (so "unresolved" wins over "resolved" in "it is unresolved"),
 * else the last scenario, Flowise's catch-all.
 */
export function matchScenario(reply: string, scenarios: readonly string[]): string {
  const last = scenarios.at(-1);
  // validateFlow rejects a conditionAgent without scenarios: reaching here is a bug.
  if (last === undefined) throw new Error('matchScenario needs at least one scenario');
  const answer = normalise(answerText(reply));
  const candidates = scenarios
    .map((scenario) => ({ scenario, text: normalise(scenario) }))
    .filter(({ text }) => text !== '')
    .sort((a, b) => b.text.length - a.text.length);
  return (
    candidates.find(({ text }) => text === answer)?.scenario ??
    candidates.find(({ text }) => answer.startsWith(text))?.scenario ??
    candidates.find(({ text }) => answer.includes(text))?.scenario ??
    last
  );
}

/** The reply's `output` when it is a JSON object with one (as Flowise asks for), else the reply. */
function answerText(reply: string): string {
  const json = jsonInReply(reply);
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    const output = (json as Record<string, unknown>).output;
    if (typeof output === 'string') return output;
  }
  return reply;
}

// Lower case, without surrounding quotes, markdown emphasis or trailing punctuation.
function normalise(text: string): string {
  const punctuation = '.!?,;:';
  const unquoted = trimEnd(
    trimStart(trimEnd(text.trim().toLowerCase(), punctuation), '"\'`“‘*_'),
    '"\'`”’*_',
  );
  return trimEnd(unquoted, punctuation).trim();
}
