// The sandbox behind a flow's Custom Function node: what code gets back, what it can reach, and
// how its limits stop it (in Node, on this thread; code-sandbox-thread.test.ts has the Web Worker
// a browser runs it in).

import { describe, expect, it } from 'vitest';
import { CodeNodeError, InvalidRequestError } from '../../../src/core/errors.ts';
import {
  runSandboxed,
  sandboxLimits,
  type SandboxLimits,
} from '../../../src/flows/code-sandbox.ts';

const LIMITS: SandboxLimits = { timeoutMs: 2_000, memoryMb: 32 };

function run(code: string, globals: Record<string, unknown> = {}, limits = LIMITS) {
  return runSandboxed({ code, globals, limits });
}

/** The CodeNodeError (or other error) a call rejects with. */
async function failure(call: Promise<unknown>): Promise<CodeNodeError> {
  try {
    await call;
  } catch (error) {
    return error as CodeNodeError;
  }
  throw new Error('the call did not fail');
}

const NO_HOST = 'the code runs in a sandbox with no network, no DOM and no Node modules';

describe('runSandboxed', () => {
  it.each([
    ['a string, which stays a string', 'return "[1, 2]"', '[1, 2]'],
    ['a number', 'return 6 * 7', 42],
    ['a fraction', 'return 0.1 + 0.2', 0.1 + 0.2],
    ['true', 'return 1 < 2', true],
    ['null', 'return null', null],
    ['an array', 'return [1, "two", [3]]', [1, 'two', [3]]],
    ['an object', 'return { a: { b: [1, null] }, c: "d" }', { a: { b: [1, null] }, c: 'd' }],
    ['nothing', 'const x = 1;', undefined],
    ['undefined', 'return undefined', undefined],
    ['NaN, as JSON has it', 'return NaN', null],
    ['a Date, as JSON has it', 'return new Date(0)', '1970-01-01T00:00:00.000Z'],
  ])('returns %s', async (_, code, value) => {
    expect(await run(code)).toEqual({ value, logs: [] });
  });

  it('gives the code its globals, as copies', async () => {
    const $flow = { state: { count: 1 }, sessionId: 's1' };
    const { value } = await run(
      '$flow.state.count++; return { input: $input, count: $flow.state.count, city: $city, none: typeof $none }',
      { $input: 'hello', $flow, $city: 'Lyon', $none: undefined },
    );
    expect(value).toEqual({ input: 'hello', count: 2, city: 'Lyon', none: 'undefined' });
    expect($flow.state.count).toBe(1);
  });

  it('awaits what the code awaits', async () => {
    const code = `
      const twice = async (n) => { await null; return n * 2 };
      const [a, b] = await Promise.all([twice(1), twice(2)]);
      return a + b + await Promise.resolve(10)`;
    expect((await run(code)).value).toBe(16);
  });

  it('captures console lines, each level, values shown as JSON', async () => {
    const code = `
      console.log('text', { a: 1 }, [2], null, undefined, 3.5);
      console.info('info'); console.debug('debug');
      console.warn('careful'); console.error(new TypeError('bad'));
      return 1`;
    expect((await run(code)).logs).toEqual([
      'text {"a":1} [2] null undefined 3.5',
      'info',
      'debug',
      'warn: careful',
      'error: TypeError: bad',
    ]);
  });

  it('keeps the first 100 console lines, each cut at 2,000 characters', async () => {
    const { logs } = await run(
      'console.log("x".repeat(5000)); for (let i = 0; i < 500; i++) console.log(i)',
    );
    expect(logs).toHaveLength(101);
    expect(logs[0]).toBe(`${'x'.repeat(2_000)}…`);
    expect(logs[99]).toBe('98');
    expect(logs[100]).toBe('… 401 more lines not kept');
  });

  it.each([
    ['an error of the runtime', 'const x = 1;\nconst y = 2;\nx();', 'TypeError: not a function', 3],
    ['an Error it made', '\nthrow new Error("boom")', 'Error: boom', 2],
    [
      'after an await',
      'await null;\n\nnull.field',
      "TypeError: cannot read property 'field' of null",
      3,
    ],
    [
      'in a function it called',
      'function f() {\n  throw new RangeError("far")\n}\nf()',
      'RangeError: far',
      2,
    ],
    [
      'its own class',
      '\nclass Oops extends Error { name = "Oops" }\nthrow new Oops("mine")',
      'Oops: mine',
      2, // where it was made: its constructor
    ],
    ['a string', 'throw "plain text"', 'plain text', undefined],
    ['null', 'throw null', 'null', undefined],
    ['an object', 'throw { code: 7 }', '{"code":7}', undefined],
  ])('says what the code threw: %s, and on which line', async (_, code, what, line) => {
    const error = await failure(run(code));
    expect(error).toBeInstanceOf(CodeNodeError);
    expect(error.reason).toBe('error');
    expect(error.message).toBe(
      `The code threw: ${what}${line === undefined ? '' : ` (line ${line})`}`,
    );
    expect(error.line).toBe(line);
  });

  it('keeps what the code printed before it threw', async () => {
    const error = await failure(run('console.log("got here"); throw new Error("then failed")'));
    expect(error.logs).toEqual(['got here']);
  });

  it.each([
    ['a stray bracket', 'const a = 1;\n)', "unexpected token in expression: ')' (line 2)", 2],
    [
      'a brace left open',
      'if (true) {\n  return 1',
      'it ends before a bracket or brace it opened is closed',
      undefined,
    ],
    ['an import statement', 'import fs from "fs"', "expecting '(' (line 1)", 1],
  ])('says where a syntax error is: %s', async (_, code, what, line) => {
    const error = await failure(run(code));
    expect([error.reason, error.message, error.line]).toEqual([
      'error',
      `The code has a syntax error: ${what}`,
      line,
    ]);
  });

  it('stops an endless loop at its time limit, and says so', async () => {
    const started = performance.now();
    const error = await failure(
      run('console.log("looping");\nwhile (true) {}', {}, { timeoutMs: 200, memoryMb: 32 }),
    );
    const elapsed = performance.now() - started;
    expect([error.reason, error.message, error.logs]).toEqual([
      'timeout',
      'The code ran past its time limit of 200 ms and was stopped',
      ['looping'],
    ]);
    expect(elapsed).toBeGreaterThanOrEqual(200);
    expect(elapsed).toBeLessThan(2_000);
  });

  it('stops an endless chain of awaits at its time limit too', async () => {
    const error = await failure(run('for (;;) await null', {}, { timeoutMs: 200, memoryMb: 32 }));
    expect([error.reason, error.message]).toEqual([
      'timeout',
      'The code ran past its time limit of 200 ms and was stopped',
    ]);
  });

  it.each([
    ['many strings', 'const a = []; while (true) a.push("x".repeat(1000) + a.length)'],
    ['many objects', 'const a = []; while (true) a.push({ n: a.length })'],
    ['one huge string', 'return "x".repeat(100 * 1024 * 1024).length'],
    ['typed arrays', 'const a = []; while (true) a.push(new Uint8Array(1e6))'],
  ])(
    'stops a memory bomb (%s) at its memory limit, and works after',
    { timeout: 30_000 },
    async (_, code) => {
      const error = await failure(run(code, {}, { timeoutMs: 20_000, memoryMb: 32 }));
      expect([error.reason, error.message]).toEqual([
        'memory',
        'The code used more than its memory limit of 32 MB and was stopped',
      ]);
      expect((await run('return "still here"')).value).toBe('still here');
    },
  );

  it('lets code use what its memory limit allows', async () => {
    // 20 MB of strings: within 32 MB.
    const code =
      'const a = []; for (let i = 0; i < 20_000; i++) a.push("x".repeat(1000) + i); return a.length';
    expect((await run(code)).value).toBe(20_000);
  });

  it('stops deep recursion cleanly, and works after', async () => {
    const error = await failure(
      run('function down(n) {\n  return down(n + 1) + 1\n}\nreturn down(0)'),
    );
    expect([error.reason, error.message]).toEqual([
      'error',
      'The code nested too deeply (a stack overflow) (line 2)',
    ]);
    // Recursion a program may reasonably need fits.
    expect(
      (await run('const depth = (n) => n === 0 ? 0 : 1 + depth(n - 1); return depth(500)')).value,
    ).toBe(500);
  });

  it(
    'stops nesting deeper than the host allows (the parser, JSON), and works after',
    { timeout: 30_000 },
    async () => {
      for (const code of [
        `return ${'('.repeat(5_000)}1${')'.repeat(5_000)}`,
        'let o = {}; for (let i = 0; i < 100_000; i++) o = { o }; return o',
      ]) {
        const error = await failure(run(code, {}, { timeoutMs: 10_000, memoryMb: 64 }));
        expect([error.reason, error.message]).toEqual([
          'error',
          'The code nested too deeply (a stack overflow) and was stopped',
        ]);
        expect((await run('return 1 + 1')).value).toBe(2);
      }
    },
  );

  it('stops on the run’s Stop mid-loop, with an AbortError', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    const error = await failure(
      runSandboxed({
        code: 'let i = 0; for (;;) { await null; i++ }',
        globals: {},
        limits: { timeoutMs: 20_000, memoryMb: 32 },
        signal: controller.signal,
      }),
    );
    expect(error.name).toBe('AbortError');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect((await run('return "next"')).value).toBe('next');
  });

  it('does not start code whose Stop has come', async () => {
    const error = await failure(
      runSandboxed({ code: 'return 1', globals: {}, limits: LIMITS, signal: AbortSignal.abort() }),
    );
    expect(error.name).toBe('AbortError');
  });

  it.each([
    ['require("fs")', `require is not available: ${NO_HOST} (line 1)`],
    ['await fetch("https://example.com")', `fetch is not available: ${NO_HOST} (line 1)`],
    ['process.exit(1)', `process is not available: ${NO_HOST} (line 1)`],
    ['document.title', `document is not available: ${NO_HOST} (line 1)`],
    ['await import("https://example.com/x.js")', `import() is not available: ${NO_HOST}`],
    [
      'setTimeout(() => {}, 10)',
      'setTimeout is not available: the code runs in a sandbox with no timers (line 1)',
    ],
  ])('has no host to reach: %s', async (code, message) => {
    const error = await failure(run(code));
    expect([error.reason, error.message]).toEqual(['error', message]);
  });

  it('has none of the host’s globals', async () => {
    const names = [
      'fetch',
      'require',
      'process',
      'setTimeout',
      'window',
      'document',
      'WebAssembly',
      'Worker',
    ];
    const { value } = await run(
      `return ${JSON.stringify(names)}.map((name) => typeof globalThis[name])`,
    );
    expect(value).toEqual(names.map(() => 'undefined'));
  });

  it('says when what the code awaits can never come', async () => {
    const error = await failure(run('await new Promise(() => {})'));
    expect([error.reason, error.message]).toEqual([
      'error',
      'The code awaited something that never finished: the sandbox has no timers, network or events to wait for',
    ]);
  });

  it.each([
    ['a function', 'return () => 1'],
    ['a symbol', 'return Symbol("s")'],
    ['a BigInt', 'return 10n'],
    ['an object that contains itself', 'const a = {}; a.self = a; return a'],
    ['a BigInt inside it', 'return { n: 1n }'],
  ])('refuses a result that is not JSON: %s', async (what, code) => {
    const error = await failure(run(code));
    expect([error.reason, error.message]).toEqual([
      'result',
      `The code returned a value that is not JSON (${what})`,
    ]);
  });

  it.each([
    ['markup', '</script><script>alert(1)</script>'],
    ['lone surrogates', '\ud800 and \udc00x and \udbff'],
    ['line separators and NUL', 'a\u2028b\u2029c\u0000d'],
    ['emoji', '👩‍💻 ok'],
    ['a 4 MB string', 'y'.repeat(4 * 1024 * 1024)],
  ])('passes hostile strings through unchanged: %s', async (_, text) => {
    const { value } = await run('return { text: $text, length: $text.length }', {
      $text: text,
      ['__proto__']: 'just a name',
    });
    expect(value).toEqual({ text, length: text.length });
  });

  it('refuses inputs too large for the memory limit, running nothing', async () => {
    const error = await failure(run('return $text.length', { $text: 'y'.repeat(9 * 1024 * 1024) }));
    expect([error.reason, error.message]).toEqual([
      'memory',
      'The code and its inputs (9.0 MB) are too large for its memory limit of 32 MB',
    ]);
  });

  it('refuses globals that are not JSON, running nothing', async () => {
    for (const globals of [
      { $f: () => 1 },
      { $n: 1n },
      {
        $cycle: (() => {
          const a: Record<string, unknown> = {};
          a.a = a;
          return a;
        })(),
      },
    ]) {
      const error = await failure(run('return 1', globals));
      expect(error).toBeInstanceOf(InvalidRequestError);
    }
  });

  it('works again after a timeout', async () => {
    await failure(run('while (true) {}', {}, { timeoutMs: 50, memoryMb: 32 }));
    expect((await run('return $x * 2', { $x: 21 })).value).toBe(42);
  });

  it('keeps nothing from one call to the next, over 1,000 calls', { timeout: 60_000 }, async () => {
    for (let i = 0; i < 1_000; i++) {
      const { value } = await run(
        'const seen = typeof globalThis.left; globalThis.left = $i; Array.prototype.extra = 1; return [seen, $i + 1, [].extra]',
        { $i: i },
      );
      expect(value).toEqual(['undefined', i + 1, 1]);
    }
  });
});

describe('sandboxLimits', () => {
  it('fills in the defaults and keeps within the bounds', () => {
    expect(sandboxLimits({})).toEqual({ timeoutMs: 2_000, memoryMb: 32 });
    expect(sandboxLimits({ timeoutMs: 500, memoryMb: 64 })).toEqual({
      timeoutMs: 500,
      memoryMb: 64,
    });
    expect(sandboxLimits({ timeoutMs: 1e9, memoryMb: 1e9 })).toEqual({
      timeoutMs: 60_000,
      memoryMb: 256,
    });
    expect(sandboxLimits({ timeoutMs: Number.NaN, memoryMb: 4 })).toEqual({
      timeoutMs: 2_000,
      memoryMb: 16,
    });
  });
});
