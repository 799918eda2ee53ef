// A conversation that has outgrown a local model's context: until the session can be compacted,
// the oldest turns are left out of the request (never out of the session) so that the request
// and a reply fit, and the answer says so.
//
// Tokens are counted by the model's own tokenizer where it tells us: wllama (3.x) has no
// tokenize call, but llama.cpp counts every prompt it is sent, in each reply's usage and in the
// error it gives a prompt too long for its context ("request (2088 tokens) exceeds the
// available context size (2048 tokens)"), before it computes anything. So a request is sized by
// characters at the model's own rate of characters per token, learnt from those counts (a
// cautious rate until the first one), and a request that still overflows is fitted again with
// the exact count its error gave.

import type { Content } from '../../core/content.ts';
import type { LlmRequest } from '../llm.ts';
import {
  contentText,
  toChatMessages,
  toolsPreamble,
  type LocalChatMessage,
} from './chat-messages.ts';

/** Characters per token before the model has counted any prompt: fewer than most tokenizers' ~4, so that a guess errs on the side of room. */
export const CAUTIOUS_CHARS_PER_TOKEN = 3;
/** What a message costs besides its text (its role and the template's markers), in characters. */
const MESSAGE_CHARS = 16;

export interface ContextFit {
  messages: LocalChatMessage[];
  /** How many of the oldest turns were left out. */
  droppedTurns: number;
  /** The characters the fit was measured on (to learn the rate from the model's count of them). */
  chars: number;
  /** Whether even the last turn alone is over the budget, by the estimate. */
  over: boolean;
}

/**
 * The request's messages with as few of the oldest turns left out as make its prompt, by the
 * estimate, at most `promptTokens`. The last turn (the message being answered, with its calls)
 * is always kept; a turn starts at a message of the user's with text in it.
 */
export function fitToContext(
  request: LlmRequest,
  { promptTokens, charsPerToken }: { promptTokens: number; charsPerToken: number },
): ContextFit {
  const turns = turnsOf(request.contents);
  const system = [request.systemInstruction, toolsPreamble(request)].filter(Boolean).join('\n\n');
  const fixed = system ? system.length + MESSAGE_CHARS : 0;
  const sizes = turns.map((turn) =>
    turn.reduce((sum, content) => sum + contentText(content).length + MESSAGE_CHARS, 0),
  );
  const budget = promptTokens * charsPerToken;
  // The suffix sums from the end: keep turns [dropped, …) while they fit.
  let chars = fixed + sizes.reduce((sum, size) => sum + size, 0);
  let dropped = 0;
  while (dropped < turns.length - 1 && chars > budget) chars -= sizes[dropped++]!;
  const contents = turns.slice(dropped).flat();
  return {
    messages: toChatMessages(dropped === 0 ? request : { ...request, contents }),
    droppedTurns: dropped,
    chars,
    over: chars > budget,
  };
}

/** The contents as turns: each from a message of the user's with text to the next one. */
export function turnsOf(contents: readonly Content[]): Content[][] {
  const turns: Content[][] = [];
  for (const content of contents) {
    const starts = content.role === 'user' && content.parts.some((part) => part.text !== undefined);
    if (starts || turns.length === 0) turns.push([content]);
    else turns.at(-1)!.push(content);
  }
  return turns;
}

/** llama.cpp's refusal of a prompt longer than its context: the prompt's tokens and the limit. */
export function contextOverflow(error: unknown): { tokens: number; limit: number } | undefined {
  const message = (error as Error | null)?.message ?? String(error);
  const match = /\((\d+) tokens?\) exceeds the available context size \((\d+)/.exec(message);
  return match ? { tokens: Number(match[1]), limit: Number(match[2]) } : undefined;
}

/** Tokens kept free for the reply: the longest reply, but at most a quarter of the context. */
export function replyRoom(contextTokens: number, maxTokens: number): number {
  return Math.min(maxTokens, Math.floor(contextTokens / 4));
}

/** What the chat says of turns left out of a request. */
export function droppedTurnsNote(dropped: number, contextTokens: number): string {
  const turns = dropped === 1 ? 'The oldest turn was' : `The oldest ${dropped} turns were`;
  return (
    `${turns} left out of this request to fit the model’s context ` +
    `(${contextTokens.toLocaleString('en-US')} tokens); the session still has ${dropped === 1 ? 'it' : 'them'}.`
  );
}
