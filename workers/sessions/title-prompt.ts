// Session titles as text (pure): the title taken from a first message, the request that asks a
// model for a title (model-titles.ts sends it), the cleaning of what the model answers, and the
// demo model's own rule for one.
//
// What must stay true:
// - every title, from a message or a model, is one line of at most TITLE_CHARS characters;
// - a model's answer that is not a title (blank, only punctuation, a paragraph, an unfinished
//   `<think>`) cleans to `undefined`, and the caller then keeps the title it has;
// - the request carries the first message and the first answer clipped (CLIPPED_CHARS each) and
//   nothing else of the session: no state, no files, no other turn.

import { textOf, type Content } from '../../src/core/content.ts';
import type { LlmRequest } from '../../src/models/llm.ts';
import { DemoModel } from '../../src/models/demo-model.ts';

/** A title's most characters: the session list shows no more. */
export const TITLE_CHARS = 48;

/** How much of the first message and of the first answer the model is given. */
export const CLIPPED_CHARS = 2_000;

/** A model's answer of more words than this is an answer, not a title. */
const MOST_WORDS = 20;

/**
 * The instruction's first words: the fixture model server (test/support/model-server.ts) tells a
 * title request from a chat's by them.
 */
export const TITLE_TASK = 'You write the title of a conversation.';

const INSTRUCTION = `${TITLE_TASK} Answer with the title alone: at most 6 words, in the language of the conversation, no quotes, no trailing punctuation, no "Title:".`;

/** `text` on one line, clipped to TITLE_CHARS with an ellipsis. */
export function clipTitle(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/** The title a session takes from its first message (its text; '' when it has none). */
export function firstMessageTitle(message: Content | undefined): string {
  return clipTitle(message?.parts[0]?.text ?? '');
}

/**
 * What a model is asked for a session's title: the first message and the first answer, clipped,
 * at a low temperature; the room for the answer is small, but enough for a reasoning model's
 * thoughts before its few words (a cut answer is refused, not used: model-titles.ts).
 */
export function titleRequest(firstMessage: string, firstAnswer: string): LlmRequest {
  const answer = firstAnswer.trim() ? `\n\n<answer>\n${clip(firstAnswer)}\n</answer>` : '';
  return {
    systemInstruction: INSTRUCTION,
    contents: [
      {
        role: 'user',
        parts: [{ text: `<message>\n${clip(firstMessage)}\n</message>${answer}\n\nThe title:` }],
      },
    ],
    config: { temperature: 0.2, maxOutputTokens: 1_024 },
  };
}

function clip(text: string): string {
  const clean = text.trim();
  return clean.length > CLIPPED_CHARS ? `${clean.slice(0, CLIPPED_CHARS)}…` : clean;
}

/** What a title-making model may put before its title, in a few languages. */
const LABEL =
  /^(?:(?:chat|conversation|session|suggested)\s+)?(?:title|titre|titel|título|titolo|标题|タイトル)\s*[:：-]\s*/iu;
const QUOTES = `"'“”‘’«»„‚「」『』\``;
const EDGE_QUOTES = new RegExp(`^[${QUOTES}]+|[${QUOTES}]+$`, 'gu');
const TRAILING = /[\s.,;:!?。，、；：！？…]+$/u;

/**
 * A model's answer as a title: its first line that holds one, without a `<think>` block,
 * Markdown, a "Title:" label, quotes or trailing punctuation, clipped; `undefined` for an
 * answer that holds no title.
 */
export function cleanTitle(answer: string): string | undefined {
  const said = answer.replace(/<think>[\s\S]*?<\/think>/gi, '');
  // Thoughts that never ended: the answer was cut before its title.
  if (/<think>/i.test(said)) return undefined;
  for (const raw of said.split(/\r?\n/)) {
    const line = cleanLine(raw);
    if (!line) continue;
    if (!/[\p{L}\p{N}]/u.test(line) || line.split(' ').length > MOST_WORDS) return undefined;
    return clipTitle(line);
  }
  return undefined;
}

function cleanLine(raw: string): string {
  let line = raw
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^#{1,6}\s+/, '')
    .replace(/^(?:[-*+•]|\d{1,2}[.)])\s+/, '')
    .replace(/\*\*|__|~~/g, '');
  // Peel labels, emphasis and quotes off, in whatever order the model put them.
  for (let before = ''; before !== line;) {
    before = line;
    line = line
      .replace(LABEL, '')
      .replace(/^[*_]+|[*_]+$/g, '')
      .replace(EDGE_QUOTES, '')
      .replace(TRAILING, '')
      .trim();
  }
  return line;
}

/**
 * The demo model's title (rules, not an LLM, as every demo model): the first sentence of the
 * message, at most six words, its first letter capital.
 */
export function demoTitleAnswer(request: LlmRequest): string {
  const asked = textOf(request.contents.at(-1));
  const message = /<message>\n([\s\S]*?)\n<\/message>/.exec(asked)?.[1] ?? asked;
  const sentence = message.trim().split(/(?<=[.!?。！？])\s|\n/)[0] ?? '';
  const words = sentence.split(/\s+/).filter(Boolean).slice(0, 6).join(' ');
  const title = words.replace(TRAILING, '');
  return title.charAt(0).toLocaleUpperCase() + title.slice(1);
}

/** The model a demo session's title is asked of: instant, offline. */
export function demoTitleModel(): DemoModel {
  return new DemoModel({ answer: demoTitleAnswer });
}
