// A local GGUF's embeddings in Chromium: the hand-written tiny GGUF (test/support/tiny-gguf.ts)
// kept in OPFS and loaded into wllama with embeddings on (workers/local-models/local-embedder.ts):
// a vector per text of the model's dimension, the same text the same vector, a longer text than
// the context still embedded, Stop, and unloading.

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launch, type Browser } from './browser.ts';
import { serveHarness, type Harness } from './markdown-harness/serve.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

const EMBEDDING_LENGTH = 64;
const model = Buffer.from(tinyGguf({ embeddingLength: EMBEDDING_LENGTH })).toString('base64');

const cosine = (a: number[], b: number[]) =>
  a.reduce((sum, x, i) => sum + x * b[i]!, 0) / (Math.hypot(...a) * Math.hypot(...b));

describe('local GGUF embeddings through wllama', () => {
  let harness: Harness;
  let browser: Browser;

  beforeAll(async () => {
    harness = await serveHarness(fileURLToPath(new URL('./embedder-harness/', import.meta.url)));
    browser = await launch();
    await browser.page.goto(harness.url);
    await browser.page.waitForFunction(() => 'embedderHarness' in window);
    await browser.page.evaluate((bytes) => window.embedderHarness.save(bytes), model);
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  const embed = (texts: string[]) =>
    browser.page.evaluate((t) => window.embedderHarness.embed(t), texts);

  test('loads at the first texts and answers a vector per text, of the model’s dimension', async () => {
    expect(await browser.page.evaluate(() => window.embedderHarness.isLoaded())).toBe(false);
    const { vectors, error } = await embed(['hello world', 'a car is fast', 'hello world']);
    expect(error).toBeUndefined();
    expect(vectors).toHaveLength(3);
    for (const vector of vectors!) {
      expect(vector).toHaveLength(EMBEDDING_LENGTH);
      expect(vector.every(Number.isFinite)).toBe(true);
    }
    expect(vectors![2]).toEqual(vectors![0]);
    expect(cosine(vectors![0]!, vectors![1]!)).toBeLessThan(0.9999);
    expect(await browser.page.evaluate(() => window.embedderHarness.isLoaded())).toBe(true);
  });

  test('the same text gets the same vector in another call, alone or in a batch', async () => {
    const alone = await embed(['hello world']);
    const batch = await embed(['something else', 'hello world', ...Array(20).fill('filler')]);
    expect(batch.vectors).toHaveLength(22);
    for (const [i, value] of alone.vectors![0]!.entries())
      expect(batch.vectors![1]![i]).toBeCloseTo(value, 4);
  });

  test('a text longer than the context is cut, not failed', async () => {
    const long = 'word '.repeat(4000);
    const { vectors, error } = await embed([long]);
    expect(error).toBeUndefined();
    expect(vectors![0]).toHaveLength(EMBEDDING_LENGTH);
  });

  test('Stop ends embedding at once, and the next texts embed', async () => {
    const texts = Array.from({ length: 400 }, (_, i) => `text number ${i}`);
    const { ms } = await embed(texts.slice(0, 16));
    const stopped = await browser.page.evaluate(
      ([t, after]) => window.embedderHarness.stop(t, after),
      [texts, Math.max(1, ms / 2)] as const,
    );
    expect(stopped.error).toBe('AbortError');
    expect(stopped.stopMs).toBeLessThan(100);
    const next = await embed(['hello world']);
    expect(next.vectors).toHaveLength(1);
  });

  test('unloads when asked, and loads again at the next texts', async () => {
    await browser.page.evaluate(() => window.embedderHarness.unload());
    expect(await browser.page.evaluate(() => window.embedderHarness.isLoaded())).toBe(false);
    const { vectors } = await embed(['hello world']);
    expect(vectors![0]).toHaveLength(EMBEDDING_LENGTH);
    expect(browser.errors).toEqual([]);
  });
});
