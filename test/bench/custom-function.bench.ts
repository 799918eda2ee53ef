// The Custom Function node's sandbox (Flowise V2's customFunctionAgentflow): the cost of one call
// of a small function on a warm sandbox (QuickJS in WebAssembly loaded; a fresh runtime and
// context per call, globals copied in as JSON, the result copied out), against the way Flowise
// runs the same code in Node: a new V8 context per call (node:vm, which its NodeVM builds on),
// with the same copies in and out. Calls alternate by round, so the machine's noise falls on both.
// And the first call's load: QuickJS read, compiled and instantiated, then the call.
//
// In Node the sandbox runs on the caller's thread; a browser runs it in a Web Worker of its own,
// which adds a message each way (see the figures in the sandbox's report, not measured here).
//
// Alone: npx vitest run --project bench test/bench/custom-function.bench.ts (about 30 seconds).

import { runInNewContext } from 'node:vm';
import { describe, expect, it, vi } from 'vitest';
import { collectGarbage, pairedRatio, pairedRounds, summarize, time } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure, type BenchResult } from './results-file.ts';

const GROUP = 'custom function (code node)';
const CALLS = 300;
const ROUNDS = 7;
const COLD_RUNS = 5;
const MAX_WARM_MS = 5;
const LIMITS = { timeoutMs: 2_000, memoryMb: 32 };
const SANDBOX = 'QuickJS sandbox (runSandboxed), warm';
const NODE_VM = 'node:vm, a new context per call';

interface Workload {
  name: string;
  code: string;
  globals: Record<string, unknown>;
}

const items = Array.from({ length: 1_000 }, (_, i) => ({ name: `item ${i}`, price: i % 50 }));
const WORKLOADS: Workload[] = [
  {
    name: 'a small function',
    code: 'const words = $input.trim().split(/\\s+/);\nreturn { words: words.length, shout: $input.toUpperCase(), session: $flow.sessionId }',
    globals: { $input: '  hello from the flow  ', $flow: { sessionId: 's1', state: { count: 1 } } },
  },
  {
    name: 'a function over 1,000 items',
    code: 'return $input.items.filter((item) => item.price > 40).map((item) => item.name)',
    globals: { $input: { items }, $flow: { sessionId: 's1', state: {} } },
  },
];

/** Flowise's way: the code as an async function's body in a new context, JSON in and out. */
async function inNodeVm({ code, globals }: Workload): Promise<unknown> {
  const context = JSON.parse(JSON.stringify(globals)) as Record<string, unknown>;
  const value: unknown = await runInNewContext(`(async () => {${code}\n})()`, context, {
    timeout: LIMITS.timeoutMs,
  });
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

async function msPerCall(call: () => Promise<unknown>): Promise<number> {
  collectGarbage();
  const started = performance.now();
  for (let i = 0; i < CALLS; i++) await call();
  return (performance.now() - started) / CALLS;
}

describe('custom function', () => {
  it(
    'a call on a warm sandbox, against node:vm; and the first call',
    { timeout: 600_000 },
    async () => {
      const results: BenchResult[] = [];

      // Cold: a fresh copy of the sandbox's modules each time, so QuickJS loads again.
      const coldMs: number[] = [];
      for (let run = 0; run < COLD_RUNS; run++) {
        vi.resetModules();
        const { runSandboxed } = await import('../../src/flows/code-sandbox.ts');
        const [first] = WORKLOADS;
        coldMs.push(await time(() => runSandboxed({ ...first!, limits: LIMITS })));
      }
      results.push(
        figure(
          GROUP,
          'QuickJS sandbox, first call',
          { measured: 'ms, load and call' },
          'ms',
          summarize(coldMs),
          {
            note: "Node: Emscripten reads and compiles the .wasm (503 kB) for the instance; a browser compiles it once per sandbox worker, from the service worker's cache",
          },
        ),
      );

      const { runSandboxed } = await import('../../src/flows/code-sandbox.ts');
      for (const workload of WORKLOADS) {
        const viaSandbox = () => runSandboxed({ ...workload, limits: LIMITS });
        const viaVm = () => inNodeVm(workload);
        // Both give the same value.
        expect((await viaSandbox()).value).toEqual(await viaVm());
        await msPerCall(viaSandbox); // warm-up, both
        await msPerCall(viaVm);
        const [sandboxMs, vmMs] = await pairedRounds(
          ROUNDS,
          () => msPerCall(viaSandbox),
          () => msPerCall(viaVm),
        );
        const params = { calls: CALLS, measured: `ms per call, ${workload.name}` };
        const mine = summarize(sandboxMs);
        results.push(
          figure(GROUP, SANDBOX, params, 'ms', mine, {
            ratio: { vs: NODE_VM, ...pairedRatio(sandboxMs, vmMs) },
            target: { text: `≤ ${MAX_WARM_MS} ms per call, warm`, met: mine.median <= MAX_WARM_MS },
          }),
          figure(GROUP, NODE_VM, params, 'ms', summarize(vmMs), {
            note: "Flowise's way (NodeVM): no memory limit, and its timeout stops only synchronous code",
          }),
        );
      }

      await publishNodeResults(GROUP, results);
      expect(results.length).toBeGreaterThan(0);
    },
  );
});
