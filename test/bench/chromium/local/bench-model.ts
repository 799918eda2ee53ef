// The model both sides of the local model bench run: the tests' hand-written llama GGUF
// (test/support/tiny-gguf.ts), made big enough that a token takes measurable time, and steered
// along one chain so that every reply is the same text of a known length.

import { tinyGguf } from '../../../support/tiny-gguf.ts';

/**
 * What the model answers, whatever it is asked: each character is one token, followed by the
 * next, and the last by the end of sequence. Letters and digits only, so the chat's Markdown
 * shows it as it is and the page can count tokens by counting characters.
 */
export const REPLY = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export interface BenchModelSize {
  embeddingLength: number;
  blockCount: number;
}

/**
 * The GGUF's bytes. A reply (after the chat template's "assistant\n") is REPLY and then the end
 * of sequence (a bigram model: each token picks the next), so both sides generate the same
 * tokens, to the same end, with no grammar and no option that LocalGgufModel does not pass.
 */
export function benchGguf({ embeddingLength, blockCount }: BenchModelSize): Uint8Array {
  const chain = ['\n', ...REPLY, '</s>'];
  const bigrams = chain.slice(1).map((next, i): [string, string] => [chain[i]!, next]);
  return tinyGguf({ seed: 18, embeddingLength, blockCount, contextLength: 4096, bigrams });
}
