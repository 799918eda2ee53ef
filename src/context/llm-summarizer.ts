// ADK 2.0's LlmSummarizer: a model writes the summary of the events, from ADK's prompt and
// its listing of them ("[Event n - Author: a]" and the event's text).

import { compactionText, isCompactionEvent } from '../core/compaction.ts';
import { textOf, type Content } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import type { BaseLlm, LlmRequest } from '../models/llm.ts';
import type { BaseSummarizer } from './base-context-compactor.ts';

export const DEFAULT_SUMMARY_PROMPT =
  'The following is a conversation history between a user and an AI agent. Please summarize ' +
  'the conversation, focusing on key information and decisions made, as well as any ' +
  'unresolved questions or tasks. The summary should be concise and capture the essence of the ' +
  'interaction.';

export interface LlmSummarizerOptions {
  llm: BaseLlm;
  /** What the model is asked before the events (default: ADK's). */
  prompt?: string;
}

export class LlmSummarizer implements BaseSummarizer {
  readonly llm: BaseLlm;
  readonly prompt: string;

  constructor(options: LlmSummarizerOptions) {
    this.llm = options.llm;
    this.prompt = options.prompt || DEFAULT_SUMMARY_PROMPT;
  }

  /** The summary, as the model's content; throws when the model fails or says nothing. */
  async summarize(
    events: readonly Event[],
    options: { signal?: AbortSignal } = {},
  ): Promise<Content> {
    if (events.length === 0)
      throw new InvalidRequestError('Cannot summarize an empty list of events.');
    let listing = '';
    events.forEach((event, i) => {
      listing += `[Event ${i + 1} - Author: ${event.author}]\n${eventText(event)}\n\n`;
    });
    const request: LlmRequest = {
      contents: [{ role: 'user', parts: [{ text: `${this.prompt}\n\n${listing}` }] }],
    };
    let summary = '';
    let first = true;
    for await (const response of this.llm.generateContentAsync(request, false, options)) {
      if (response.partial) continue;
      const text = response.content?.parts[0]?.text;
      // ADK's rule: the first response must start with text.
      if (first && !text) throw new Error('LLM failed to return a valid summary.');
      first = false;
      if (text) summary += text;
    }
    if (first) throw new Error('LLM failed to return a valid summary.');
    return { role: 'model', parts: [{ text: summary }] };
  }
}

/** ADK's `stringifyContent`: the event's texts (a compaction's: its summary's). */
function eventText(event: Event): string {
  if (isCompactionEvent(event)) return compactionText(event.actions.compaction);
  return textOf(event.content);
}
