// A local model's engine that counts tokens as llama.cpp does for a context: for the tests of
// leaving the oldest turns out of a request (test/unit/models/local-context.test.ts and the app's).

import type { LocalChatEngine, LocalChatMessage, LocalChatParams } from '../../src/index.ts';

/**
 * An engine with a context of `contextTokens` and a tokenizer of `charsPerToken` characters a
 * token (four per message for the template's markers): a prompt that leaves no room is refused
 * before anything is computed, as llama.cpp's server does.
 */
export class CountingEngine implements LocalChatEngine {
  readonly sent: LocalChatMessage[][] = [];
  refusals = 0;
  constructor(
    readonly contextTokens: number,
    private readonly charsPerToken = 4,
  ) {}

  tokensOf(messages: readonly LocalChatMessage[]): number {
    return messages.reduce(
      (sum, message) => sum + Math.ceil(message.content.length / this.charsPerToken) + 4,
      0,
    );
  }

  async createChatCompletion(params: LocalChatParams): Promise<void> {
    const tokens = this.tokensOf(params.messages);
    if (tokens >= this.contextTokens) {
      this.refusals++;
      throw new Error(
        `request (${tokens} tokens) exceeds the available context size (${this.contextTokens} tokens), try increasing it`,
      );
    }
    this.sent.push(params.messages);
    params.onData({ choices: [{ delta: { content: 'ok' }, finish_reason: null }] });
    params.onData({
      choices: [{ delta: {}, finish_reason: 'stop' }],
      usage: { prompt_tokens: tokens, completion_tokens: 1, total_tokens: tokens + 1 },
    });
  }
}
