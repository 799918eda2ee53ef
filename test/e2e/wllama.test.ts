// wllama (llama.cpp in WebAssembly) in Chromium, on the hand-written tiny GGUF
// (test/support/tiny-gguf.ts): it loads from a Blob, completes, and a GBNF grammar makes its
// random weights write a tool call that parses. The app's local model stands on these three.

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launch, type Browser } from './browser.ts';
import { serveHarness, type Harness } from './markdown-harness/serve.ts';
import { TINY_CHAT_TEMPLATE, tinyGguf } from '../support/tiny-gguf.ts';
import { parseToolCall, toolGrammar } from '../../src/models/local/gguf-grammar.ts';
import type { FunctionDeclaration } from '../../src/models/llm.ts';

const CALCULATOR_CALL = String.raw`
root ::= "{\"name\":\"calculator\",\"arguments\":{\"expression\":\"" expression "\"}}"
expression ::= [0-9] ([0-9+*/() -]{0,12} [0-9])?
`;

const TOOLS: FunctionDeclaration[] = [
  {
    name: 'calculator',
    parameters: {
      type: 'object',
      properties: { expression: { type: 'string', maxLength: 12 } },
      required: ['expression'],
    },
  },
  {
    name: 'convert',
    parameters: {
      type: 'object',
      properties: {
        value: { type: 'number' },
        unit: { type: 'string', enum: ['km', 'mi'] },
        digits: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string', maxLength: 8 }, maxItems: 3 },
      },
      required: ['value', 'unit'],
    },
  },
  {
    // Nothing required, nullable, a union and a nested object: the grammar's other branches.
    name: 'clock',
    parameters: {
      type: 'object',
      properties: {
        zone: { type: 'string', maxLength: 6, nullable: true },
        offset: { anyOf: [{ type: 'integer' }, { type: 'string', enum: ['local'] }] },
        format: {
          type: 'object',
          properties: { seconds: { type: 'boolean' } },
          required: ['seconds'],
        },
      },
    },
  },
];

/** What is wrong with a call of TOOLS, by their schemas; [] when nothing is. */
function callProblems(call: { name: string; arguments: Record<string, unknown> }): string[] {
  const args = call.arguments;
  if (call.name === 'calculator')
    return typeof args.expression === 'string' &&
      args.expression.length <= 12 &&
      Object.keys(args).length === 1
      ? []
      : [`bad calculator arguments ${JSON.stringify(args)}`];
  if (call.name === 'clock') {
    const { zone, offset, format, ...extra } = args as Record<string, unknown>;
    const problems: string[] = [];
    if (zone !== undefined && zone !== null && !(typeof zone === 'string' && zone.length <= 6))
      problems.push(`zone ${JSON.stringify(zone)}`);
    if (offset !== undefined && !Number.isInteger(offset) && offset !== 'local')
      problems.push(`offset ${JSON.stringify(offset)}`);
    const seconds = (format as { seconds?: unknown } | undefined)?.seconds;
    if (
      format !== undefined &&
      (typeof seconds !== 'boolean' || Object.keys(format as object).length !== 1)
    )
      problems.push(`format ${JSON.stringify(format)}`);
    if (Object.keys(extra).length) problems.push(`extra keys ${Object.keys(extra).join(', ')}`);
    return problems;
  }
  if (call.name !== 'convert') return [`no tool ${call.name}`];
  const problems: string[] = [];
  if (typeof args.value !== 'number') problems.push('value is not a number');
  if (args.unit !== 'km' && args.unit !== 'mi') problems.push(`unit ${String(args.unit)}`);
  if ('digits' in args && !Number.isInteger(args.digits)) problems.push('digits not an integer');
  if (
    'tags' in args &&
    !(
      Array.isArray(args.tags) &&
      args.tags.length <= 3 &&
      args.tags.every((t) => typeof t === 'string' && t.length <= 8)
    )
  )
    problems.push('tags not at most 3 strings of at most 8');
  const extra = Object.keys(args).filter((k) => !['value', 'unit', 'digits', 'tags'].includes(k));
  if (extra.length) problems.push(`extra keys ${extra.join(', ')}`);
  return problems;
}

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
  });

  test('the tools grammar makes calls that follow each tool’s schema', async () => {
    const grammar = toolGrammar({ tools: TOOLS, allowText: false });
    const names = new Set<string>();
    for (const prompt of [
      'Convert 5 km',
      'What is 2+2?',
      'x',
      'Another one, please',
      'Time?',
      'now',
      'zone',
    ]) {
      const text = await browser.page.evaluate(
        ([p, g]) => window.wllamaHarness.complete(p, 200, g),
        [prompt, grammar] as const,
      );
      const call = parseToolCall(text);
      expect(call, text).toBeDefined();
      expect(callProblems(call!), text).toEqual([]);
      names.add(call!.name);
    }
    // Each tool's branch was taken at least once (the seed's choices), so each schema's rules
    // went through llama.cpp's grammar parser and sampler.
    expect([...names].sort()).toEqual(['calculator', 'clock', 'convert']);
  });

  test('LocalGgufModel streams an answer formatted by the GGUF’s chat template', async () => {
    const { responses } = await browser.page.evaluate(() =>
      window.wllamaHarness.generate({
        systemInstruction: 'Be brief.',
        contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }],
      }),
    );
    const final = responses.at(-1)!;
    const text = final.content?.parts[0]?.text ?? '';
    expect(final.partial).toBeUndefined();
    expect(text.length).toBeGreaterThan(0);
    const streamed = responses.filter((r) => r.partial).map((r) => r.content?.parts[0]?.text);
    expect(streamed.length).toBeGreaterThan(1);
    expect(streamed.join('')).toBe(text);
    expect(final.usageMetadata?.candidatesTokenCount).toBeGreaterThan(0);
  });

  test('LocalGgufModel with tools answers with a well-formed call or with text', async () => {
    for (const text of ['What is 6 times 7?', 'Convert 3 mi', 'hi']) {
      const { responses } = await browser.page.evaluate(
        ([t, tools]) =>
          window.wllamaHarness.generate({
            contents: [{ role: 'user', parts: [{ text: t }] }],
            tools,
          }),
        [text, TOOLS] as const,
      );
      const part = responses.at(-1)!.content!.parts[0]!;
      if (part.functionCall) {
        expect(
          callProblems({ name: part.functionCall.name, arguments: part.functionCall.args }),
        ).toEqual([]);
        expect(responses.filter((r) => r.partial)).toEqual([]);
      } else {
        expect(part.text?.trimStart().startsWith('{')).toBe(false);
      }
    }
    expect(browser.errors).toEqual([]);
  });

  test('LocalGgufModel stops on abort, and the next request runs', async () => {
    const ask = {
      contents: [{ role: 'user' as const, parts: [{ text: 'Tell me a long story' }] }],
    };
    const stopped = await browser.page.evaluate((r) => window.wllamaHarness.generate(r, 2), ask);
    expect(stopped.error).toBe('AbortError');
    expect(stopped.responses).toHaveLength(2);
    const next = await browser.page.evaluate((r) => window.wllamaHarness.generate(r), ask);
    expect(next.error).toBeUndefined();
    expect(next.responses.at(-1)?.partial).toBeUndefined();
    // wllama's own stream, stopped early, would leave the abort's rejection unhandled.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(browser.errors).toEqual([]);
  });
});
