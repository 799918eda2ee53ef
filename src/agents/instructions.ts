// An LlmAgent's instruction, with `{key}` placeholders filled from the session state (as ADK).

import { textOf } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import { ownValue } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

/** A fixed text with `{key}` placeholders, or a function of the invocation. */
export type Instruction = string | ((ctx: InvocationContext) => string | Promise<string>);

// Starts only at the first brace of a run, which finds the same placeholders and keeps a long run of
// braces without a closing one linear (a bare `\{+` retried at each brace of it is quadratic).
const PLACEHOLDER = /(?<!\{)\{+[^{}]*\}+/g;
const STATE_NAME = /^(?:app:|user:|temp:)?[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The instruction as the model gets it. In a text instruction, `{key}` is replaced by the state
 * value (strings as they are, anything else as JSON), `{key?}` by the empty string when the key
 * is not set, and `{artifact.name}` by the artifact's text. Braces around anything that is not
 * such a name (JSON in an example, say) stay as they are. A function instruction is used as is.
 */
export async function renderInstruction(
  instruction: Instruction,
  ctx: InvocationContext,
): Promise<string> {
  if (typeof instruction === 'function') return instruction(ctx);
  const matches = [...instruction.matchAll(PLACEHOLDER)];
  if (matches.length === 0) return instruction;
  const replacements = await Promise.all(matches.map((match) => replacementFor(match[0], ctx)));
  let result = '';
  let last = 0;
  matches.forEach((match, i) => {
    result += instruction.slice(last, match.index) + replacements[i];
    last = match.index + match[0].length;
  });
  return result + instruction.slice(last);
}

async function replacementFor(placeholder: string, ctx: InvocationContext): Promise<string> {
  let name = placeholder.replace(/^\{+|\}+$/g, '').trim();
  const optional = name.endsWith('?');
  if (optional) name = name.slice(0, -1);
  if (name.startsWith('artifact.')) {
    const filename = name.slice('artifact.'.length);
    const { appName, userId, id: sessionId } = ctx.session;
    const part = await ctx.artifactService?.loadArtifact({ appName, userId, sessionId, filename });
    if (part) return part.text ?? textOf({ role: 'user', parts: [part] });
    if (optional) return '';
    throw new InvalidRequestError(
      `The instruction of agent ${ctx.agent.name} uses the artifact ${filename}, which does not exist`,
    );
  }
  if (!STATE_NAME.test(name)) return placeholder;
  // The state's own key only: `{constructor}` names a key, not Object.prototype's constructor.
  const value = ownValue(ctx.session.state, name);
  if (value === undefined) {
    if (optional) return '';
    throw new InvalidRequestError(
      `The instruction of agent ${ctx.agent.name} uses the state key ${name}, which is not set (write {${name}?} to make it optional)`,
    );
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}
