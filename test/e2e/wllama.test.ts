// wllama (llama.cpp in WebAssembly) in Chromium, on the hand-written tiny GGUF
// (test/support/tiny-gguf.ts): it loads from a Blob, completes, and a GBNF grammar makes its
// random weights write a tool call that parses. The app's local model stands on these three.

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launch, type Browser } from './browser.ts';
import { serveHarness, type Harness } from './markdown-harness/serve.ts';
import { TINY_CHAT_TEMPLATE, tinyGguf } from '../support/tiny-gguf.ts';

const CALCULATOR_CALL = String.raw`
root ::= "{\"name\":\"calculator\",\"arguments\":{\"expression\":\"" expression "\"}}"
expression ::= [0-9] ([0-9+*/() -]{0,12} [0-9])?
`;

const ISOLATED = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const model = Buffer.from(tinyGguf()).toString('base64');

describe.each([
  { threads: 1, headers: {}, multithread: false },
  { threads: 2, headers: ISOLATED, multithread: true },
])('wllama with $threads thread(s)', ({ threads, headers, multithread }) => {
  let harness: Harness;
  let browser: Browser;

  beforeAll(async () => {
    harness = await serveHarness(
      fileURLToPath(new URL('./wllama-harness/', import.meta.url)),
      headers,
    );
    browser = await launch();
    await browser.page.goto(harness.url);
    await browser.page.waitForFunction(() => 'wllamaHarness' in window);
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
  });

  test('loads the tiny GGUF from a Blob, with its chat template', async () => {
    const loaded = await browser.page.evaluate(
      ([bytes, n]) => window.wllamaHarness.load(bytes, n),
      [model, threads] as const,
    );
    expect(loaded).toEqual({ multithread, template: TINY_CHAT_TEMPLATE });
  });

  test('completes a few tokens', async () => {
    const text = await browser.page.evaluate(() =>
      window.wllamaHarness.complete('<|im_start|>user\nhello<|im_end|>\n', 8),
    );
    expect(text.length).toBeGreaterThan(0);
  });

  test('a grammar makes it write a calculator call that parses', async () => {
    const text = await browser.page.evaluate(
      (grammar) => window.wllamaHarness.complete('What is 6 times 7?', 100, grammar),
      CALCULATOR_CALL,
    );
    const call = JSON.parse(text) as { name: string; arguments: { expression: string } };
    expect(call.name).toBe('calculator');
    expect(call.arguments.expression).toMatch(/^[0-9][0-9+*/() -]*$/);
    expect(browser.errors).toEqual([]);
  });
});
