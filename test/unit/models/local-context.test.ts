// A local model's context (issue 27, item 16): a conversation longer than the context used to
// fail every later message with llama.cpp's "request (2088 tokens) exceeds the available context
// size (2048 tokens)". Now the oldest turns are left out of the request (never out of the
// session) and the answer says so; the context is read from the GGUF's own header and may be
// set by the user. The engine here counts tokens and refuses an overlong prompt with llama.cpp's
// own words, as wllama does (test/e2e/local-model.test.ts runs the real one).

import { describe, expect, it } from 'vitest';
import {
  LocalGgufModel,
  createUserContent,
  type Content,
  type LocalChatEngine,
} from '../../../src/index.ts';
import { readGgufFacts } from '../../../src/models/local/gguf-metadata.ts';
import {
  DEFAULT_CONTEXT_CAP,
  FALLBACK_CONTEXT_TOKENS,
  MIN_CONTEXT_TOKENS,
  contextToLoad,
  contextTokensProblem,
} from '../../../src/models/local/local-context.ts';
import { CountingEngine } from '../../support/counting-engine.ts';
import { collect, rejectionOf } from '../../support/helpers.ts';
import { tinyGguf } from '../../support/tiny-gguf.ts';

/** `turns` turns of a question and an answer of `chars` characters each, then `last`. */
function conversation(turns: number, chars: number, last = 'And now?'): Content[] {
  const contents: Content[] = [];
  for (let n = 1; n <= turns; n++) {
    contents.push(createUserContent(`Question ${n}: ${'q'.repeat(chars)}`));
    contents.push({ role: 'model', parts: [{ text: `Answer ${n}: ${'a'.repeat(chars)}` }] });
  }
  contents.push(createUserContent(last));
  return contents;
}

const local = (engine: LocalChatEngine) =>
  new LocalGgufModel({ model: 'tiny.gguf', engine, maxTokens: 256 });

describe('a local model’s context', () => {
  it('leaves the oldest turns out of a request that would not fit, says so, and keeps the session whole', async () => {
    const engine = new CountingEngine(1024);
    const contents = conversation(12, 400);
    const copy = structuredClone(contents);
    const responses = await collect(
      local(engine).generateContentAsync({ contents, systemInstruction: 'Be brief.' }),
    );
    const final = responses.at(-1)!;
    expect(final.content?.parts).toEqual([{ text: 'ok' }]);
    const sent = engine.sent.at(-1)!;
    // The system message and the latest turns, newest last; the reply has room left.
    expect(sent[0]).toEqual({ role: 'system', content: 'Be brief.' });
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'And now?' });
    expect(engine.tokensOf(sent)).toBeLessThanOrEqual(1024 - 256);
    const kept = sent.filter((m) => m.content.startsWith('Question')).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(12);
    expect(sent.find((m) => m.role === 'user')?.content).toMatch(
      new RegExp(`^Question ${12 - kept + 1}:`),
    );
    expect(final.notice).toBe(
      `The oldest ${12 - kept} turns were left out of this request to fit the model’s context (1,024 tokens); the session still has them.`,
    );
    // The request (the session's conversation) is as it was.
    expect(contents).toEqual(copy);
  });

  it('sends a conversation that fits whole, with no notice', async () => {
    const engine = new CountingEngine(4096);
    const [final] = await collect(
      local(engine).generateContentAsync({ contents: conversation(3, 100) }),
    );
    expect(final!.notice).toBeUndefined();
    expect(engine.sent[0]!.filter((m) => m.content.startsWith('Question'))).toHaveLength(3);
  });

  it('fits again on the model’s own count when its tokenizer is denser than the guess', async () => {
    // A character a token (as for Chinese text): the cautious first guess (three) is too long.
    const engine = new CountingEngine(1024, 1);
    const model = local(engine);
    const [final] = await collect(model.generateContentAsync({ contents: conversation(12, 300) }));
    expect(final!.content?.parts).toEqual([{ text: 'ok' }]);
    expect(engine.refusals).toBe(1);
    expect(final!.notice).toMatch(/^The oldest \d+ turns were left out/);
    // Learnt: the next request fits at the first try.
    await collect(model.generateContentAsync({ contents: conversation(14, 300) }));
    expect(engine.refusals).toBe(1);
  });

  it('says what to do when the last turn alone is longer than the context', async () => {
    const engine = new CountingEngine(600);
    const contents = conversation(2, 100, `Read this: ${'x'.repeat(4000)}`);
    const error = await rejectionOf(collect(local(engine).generateContentAsync({ contents })));
    expect(error.name).toBe('ModelError');
    expect(error.message).toMatch(
      /^This turn is too long for tiny\.gguf: its request is [\d,]+ tokens, and the model's context is 600, even with every older turn left out\. Raise the context size in Settings → Providers/,
    );
    expect(engine.sent).toEqual([]);
  });

  it('reads the context the model was trained for, and its shape, from the GGUF header', async () => {
    const facts = await readGgufFacts(new Blob([tinyGguf({ contextLength: 3072 }) as BlobPart]));
    expect(facts?.contextLength).toBe(3072);
    expect(facts?.hparams).toEqual({ nEmbd: 64, nLayer: 2 });
    expect(facts?.meta['llama.attention.head_count_kv']).toBe('2');
    expect(facts?.meta['tokenizer.chat_template']).toContain('<|im_start|>');
    expect(await readGgufFacts(new Blob(['<html>not a model</html>']))).toBeUndefined();
    // Cut short in its header: no facts, no error (the loader says what is wrong with it).
    const whole = tinyGguf();
    expect(await readGgufFacts(new Blob([whole.slice(0, 200) as BlobPart]))).toBeUndefined();
  });

  it('loads with the user’s context, or the model’s own capped for memory', () => {
    const shape = (contextLength: number | undefined, nEmbd = 64, nLayer = 2) => ({
      hparams: { nEmbd, nLayer },
      meta: {
        'general.architecture': 'llama',
        'llama.attention.head_count': '32',
        'llama.attention.head_count_kv': '8',
      },
      ...(contextLength ? { contextLength } : {}),
    });
    const cases: [string, Parameters<typeof contextToLoad>, number][] = [
      ['the model’s own', [shape(2048), undefined], 2048],
      ['capped', [shape(131_072), undefined], DEFAULT_CONTEXT_CAP],
      // 8B-like: 32 layers, a key/value width of 1024: 8,192 tokens would be 1 GB of cache.
      ['halved for memory', [shape(8192, 4096, 32), undefined], 4096],
      ['none said', [undefined, undefined], FALLBACK_CONTEXT_TOKENS],
      ['the user’s', [shape(32_768), 16_384], 16_384],
      ['the user’s, at most the model’s own', [shape(2048), 8192], 2048],
    ];
    for (const [what, args, expected] of cases) expect(contextToLoad(...args), what).toBe(expected);
    expect(contextTokensProblem(undefined)).toBeUndefined();
    expect(contextTokensProblem(4096)).toBeUndefined();
    for (const bad of [MIN_CONTEXT_TOKENS - 1, 1e9, 1.5, Number.NaN, '4096'])
      expect(contextTokensProblem(bad), String(bad)).toMatch(/whole number of tokens/);
  });
});
