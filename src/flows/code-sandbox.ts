// The sandbox behind a flow's Custom Function node (Flowise V2's customFunctionAgentflow): user
// JavaScript run in QuickJS compiled to WebAssembly (quickjs-emscripten), never with eval or
// new Function in the page or a worker of ours. The code has no network, no DOM, no timers and no
// modules: its globals (JSON copies) and a console whose lines come back with the result.
//
// Where it runs: in a browser, in a Web Worker of its own (code-sandbox/thread.ts), so code that
// loops does not hold the runtime worker and a Stop ends it at once; in Node (tests), on the
// caller's thread, where a Stop is seen between two awaits of the code, or at its time limit.
// QuickJS, its glue and its .wasm load on the first call (code-sandbox/engine.ts), not before.

import { CodeNodeError, InvalidRequestError, messageOf } from '../core/errors.ts';
import type { SandboxOutcome, SandboxRequest } from './code-sandbox/engine.ts';
import { SandboxThread, type SandboxWorker } from './code-sandbox/thread.ts';

export interface SandboxLimits {
  /** Stopped past this many milliseconds of running (its loading is not counted). */
  timeoutMs: number;
  /** Stopped past this many megabytes of memory. */
  memoryMb: number;
}

export interface SandboxCall {
  /** The body of an async function: it may use `await` and `return`. */
  code: string;
  /** Globals the code sees, by name (`$input`, `$flow`…): JSON values, copied in. */
  globals: Record<string, unknown>;
  limits: SandboxLimits;
  /** The run's Stop: interrupts the code, and the call rejects with an AbortError. */
  signal?: AbortSignal;
}

export interface SandboxResult {
  /** What the code returned, as JSON values (a copy); undefined when it returned nothing. */
  value: unknown;
  /** What it printed with console.log, info, debug, warn (`warn: …`) and error (`error: …`). */
  logs: string[];
}

const MB = 1024 * 1024;
export const DEFAULT_CODE_TIMEOUT_MS = 2_000;
export const MAX_CODE_TIMEOUT_MS = 60_000;
export const DEFAULT_CODE_MEMORY_MB = 32;
export const MAX_CODE_MEMORY_MB = 256;
/**
 * The least memory a call gets. QuickJS itself starts with 16 MB; below this, a memory bomb could
 * not be told from a `throw null` (code-sandbox/engine.ts, isFull).
 */
export const MIN_CODE_MEMORY_MB = 16;

/** A code node's limits: its own where set, else the defaults, within the bounds. */
export function sandboxLimits(limits: Partial<SandboxLimits>): SandboxLimits {
  const within = (value: number | undefined, fallback: number, min: number, max: number) =>
    value === undefined || !Number.isFinite(value)
      ? fallback
      : Math.round(Math.min(max, Math.max(min, value)));
  return {
    timeoutMs: within(limits.timeoutMs, DEFAULT_CODE_TIMEOUT_MS, 1, MAX_CODE_TIMEOUT_MS),
    memoryMb: within(
      limits.memoryMb,
      DEFAULT_CODE_MEMORY_MB,
      MIN_CODE_MEMORY_MB,
      MAX_CODE_MEMORY_MB,
    ),
  };
}

/**
 * Runs `call.code` in the sandbox and resolves with what it returned and printed.
 *
 * - Rejects with CodeNodeError: `timeout` and `memory` past a limit, `error` when the code does
 *   not parse, throws, or awaits what never comes, `result` when it returns what is not JSON.
 *   Its message says what happened in words a user knows, with the code's line when known.
 * - Stop (`signal`) rejects with an AbortError; it is a cancellation, never a CodeNodeError.
 * - Each call runs in a fresh QuickJS context: nothing a call leaves behind reaches the next.
 * - A global that is not JSON (a function, a cycle) throws InvalidRequestError, and code and
 *   globals too large for the memory limit a CodeNodeError `memory`: nothing runs.
 */
export async function runSandboxed(call: SandboxCall): Promise<SandboxResult> {
  const { signal } = call;
  if (signal?.aborted) throw stopped(signal);
  const limits = sandboxLimits(call.limits);
  const request: SandboxRequest = {
    code: call.code,
    globals: globalsText(call.globals),
    ...limits,
  };
  const inputMb = (request.code.length + request.globals.length) / MB;
  // Copied in, parsed and held as strings, inputs take about four times their length.
  if (inputMb * 4 > limits.memoryMb)
    throw new CodeNodeError(
      'memory',
      `The code and its inputs (${inputMb.toFixed(1)} MB) are too large for its memory limit of ${limits.memoryMb} MB`,
    );
  const outcome =
    typeof Worker === 'function'
      ? await sandboxThread().run(request, signal, () => stopped(signal))
      : await runHere(request, signal);
  // A Stop that came while the code ran (on this thread, seen only now) wins over its outcome.
  if (signal?.aborted) throw stopped(signal);
  return resultOf(outcome, limits, signal);
}

let thread: SandboxThread | undefined;

function sandboxThread(): SandboxThread {
  thread ??= new SandboxThread(
    () =>
      new Worker(new URL('./code-sandbox/worker.ts', import.meta.url), {
        type: 'module',
        name: 'code-sandbox',
      }) as SandboxWorker,
  );
  return thread;
}

/** On this thread (Node): a Stop is polled by QuickJS and seen in pauses between promise jobs. */
async function runHere(request: SandboxRequest, signal?: AbortSignal): Promise<SandboxOutcome> {
  const { runCode } = await import('./code-sandbox/engine.ts');
  return runCode(request, {
    shouldStop: () => signal?.aborted === true,
    pause: () => new Promise((resolve) => setTimeout(resolve, 0)),
  });
}

/** `{ values, unset }` as JSON text: undefined globals are named, so the code still sees them. */
function globalsText(globals: Record<string, unknown>): string {
  // No prototype: a global named __proto__ is a name like any other.
  const values: Record<string, unknown> = Object.create(null);
  const unset: string[] = [];
  for (const [name, value] of Object.entries(globals)) {
    if (value === undefined) unset.push(name);
    else if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint')
      throw new InvalidRequestError(`The code's global ${name} is not JSON (a ${typeof value})`);
    else values[name] = value;
  }
  try {
    return JSON.stringify({ values, unset });
  } catch (error) {
    throw new InvalidRequestError(`The code's globals are not JSON: ${messageOf(error)}`);
  }
}

function resultOf(
  outcome: SandboxOutcome,
  limits: SandboxLimits,
  signal?: AbortSignal,
): SandboxResult {
  const { logs } = outcome;
  const fail = (reason: CodeNodeError['reason'], message: string, line?: number) =>
    new CodeNodeError(reason, message, line, logs);
  switch (outcome.type) {
    case 'value':
      return { value: outcome.json === undefined ? undefined : JSON.parse(outcome.json), logs };
    case 'limit':
      switch (outcome.limit) {
        case 'stop':
          throw stopped(signal);
        case 'time':
          throw fail(
            'timeout',
            `The code ran past its time limit of ${limits.timeoutMs} ms and was stopped`,
          );
        case 'memory':
          throw fail(
            'memory',
            `The code used more than its memory limit of ${limits.memoryMb} MB and was stopped`,
          );
        case 'stack':
          throw fail('error', 'The code nested too deeply (a stack overflow) and was stopped');
      }
      throw new Error(`Unknown limit: ${String(outcome.limit satisfies never)}`);
    case 'threw':
      throw fail('error', thrownMessage(outcome), outcome.line);
    case 'notJson':
      throw fail('result', `The code returned a value that is not JSON (${outcome.what})`);
    case 'unsettled':
      throw fail('error', `The code awaited something that never finished: ${NOTHING_TO_AWAIT}`);
    case 'failed':
      throw fail('error', `The sandbox failed: ${outcome.message}`);
  }
}

/** What the sandbox does not have: a reference to one of these gets a message saying so. */
const HOST_NAMES = new Set([
  'require',
  'module',
  'exports',
  'process',
  'Buffer',
  'global',
  'fetch',
  'XMLHttpRequest',
  'WebSocket',
  'EventSource',
  'window',
  'document',
  'navigator',
  'location',
  'localStorage',
  'sessionStorage',
  'importScripts',
]);
const TIMER_NAMES = new Set([
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'requestAnimationFrame',
]);
const NO_HOST = 'the code runs in a sandbox with no network, no DOM and no Node modules';
const NOTHING_TO_AWAIT = 'the sandbox has no timers, network or events to wait for';

function thrownMessage(thrown: Extract<SandboxOutcome, { type: 'threw' }>): string {
  const at = thrown.line === undefined ? '' : ` (line ${thrown.line})`;
  if (thrown.syntax) return `The code has a syntax error: ${thrown.message}${at}`;
  if (thrown.name === 'ReferenceError') {
    const missing = /^'?([\w$]+)'? is not defined$/.exec(thrown.message)?.[1];
    if (missing && HOST_NAMES.has(missing)) return `${missing} is not available: ${NO_HOST}${at}`;
    if (missing && TIMER_NAMES.has(missing))
      return `${missing} is not available: the code runs in a sandbox with no timers${at}`;
    if (/^could not load module/.test(thrown.message))
      return `import() is not available: ${NO_HOST}${at}`;
  }
  if (thrown.name === 'InternalError' && thrown.message === 'stack overflow')
    return `The code nested too deeply (a stack overflow)${at}`;
  const what = thrown.name === undefined ? thrown.message : `${thrown.name}: ${thrown.message}`;
  return `The code threw: ${what}${at}`;
}

/** The run's stop as an AbortError: the signal's reason when it is one, else a fresh one. */
function stopped(signal?: AbortSignal): Error {
  const reason: unknown = signal?.reason;
  if ((reason as Error | undefined)?.name === 'AbortError') return reason as Error;
  return new DOMException('The code was stopped', 'AbortError');
}
