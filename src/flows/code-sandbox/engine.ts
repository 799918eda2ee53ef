// QuickJS in WebAssembly (quickjs-emscripten): one Custom Function call at a time, each in a
// runtime and context of its own, made for the call and disposed after it, on a WebAssembly
// instance kept warm between calls. Loaded lazily: ../code-sandbox.ts imports it with import(), and
// the sandbox's worker (worker.ts) is its only static importer.
//
// What must stay true:
// - Nothing of the page or the worker reaches the code: it sees JSON copies of its globals and a
//   console whose lines are copied out; no host function of ours takes anything but strings.
// - Every handle is disposed before its context, the context before its runtime: QuickJS aborts
//   (taking the whole instance with it) when a runtime is freed with something still alive.
// - An instance that threw from inside WebAssembly (the host's stack overflowed, QuickJS aborted)
//   is in an unknown state: it is dropped, and the next call gets a new one.
// - Memory: QuickJS under Emscripten counts 8 bytes per allocation, not its size
//   (quickjs-emscripten#271), so `setMemoryLimit` bounds one allocation but not their sum. The
//   sum is bounded by the instance's WebAssembly.Memory, whose maximum is the call's limit plus
//   what QuickJS needs itself (its 5 MB C stack and its own data): past it malloc fails and
//   QuickJS throws "out of memory" cleanly. So an instance serves one memory limit, and calls run
//   one at a time.

import variant from '@jitl/quickjs-wasmfile-release-sync';
// Bundled by vite as a file of its own, loaded only with this module.
import wasmUrl from '@jitl/quickjs-wasmfile-release-sync/wasm?url';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSHandle,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import { CODE_FILE, PRELUDE, wrapCode } from './prelude.ts';

/** One call, as it crosses to the sandbox's worker: plain data. */
export interface SandboxRequest {
  code: string;
  /** `{ values, unset }` as JSON text: the globals, and the names of those set to undefined. */
  globals: string;
  timeoutMs: number;
  memoryMb: number;
}

/** What a limit stopped: the clock, memory, the host's stack, or the caller (Stop). */
export type SandboxLimit = 'time' | 'memory' | 'stack' | 'stop';

/** How a call ended, as plain data; code-sandbox.ts turns it into a value or an error. */
export type SandboxOutcome = { logs: string[] } & (
  | { type: 'value'; /** JSON text; absent when the code returned undefined. */ json?: string }
  | { type: 'threw'; name?: string; message: string; line?: number; syntax?: boolean }
  | { type: 'notJson'; what: string }
  | { type: 'unsettled' }
  | { type: 'limit'; limit: SandboxLimit }
  | { type: 'failed'; message: string }
);

export interface RunOptions {
  /** Polled while the code runs: true stops it (the in-thread host's AbortSignal). */
  shouldStop?: () => boolean;
  /** Awaited every SLICE_MS between promise jobs, so a host on one thread sees its Stop. */
  pause?: () => Promise<void>;
}

const MB = 1024 * 1024;
const PAGE = 64 * 1024;
/** The memory the module declares it starts with (it refuses less). */
const INITIAL_PAGES = 256;
/** QuickJS's own share of an instance's memory: its C stack (5 MB) and data. */
const OWN_MB = 6;
/** An instance grown past this after a call is dropped, so its memory goes back to the browser. */
const KEEP_BYTES = 64 * MB;
/** Instances kept warm, one per memory limit in use. */
const MAX_INSTANCES = 2;
/**
 * QuickJS's stack limit. Its WebAssembly frames run on the host's own stack, which is the smaller
 * one: measured, 192 KB overflows Chromium's stack in a worker before QuickJS's check, 128 KB
 * never did (about 680 frames of plain recursion fit, 200 through Array.map). Deeper native
 * recursion (JSON.stringify of a 100,000-deep object, a parser nesting 5,000 brackets) can still
 * overflow the host's stack: that is the `stack` limit, which drops the instance.
 */
const STACK_BYTES = 128 * 1024;
const JOB_BATCH = 1_000;
const SLICE_MS = 20;
const MAX_LOG_LINES = 100;

type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
/** An outcome before its logs are added. */
type Ending = DistributiveOmit<SandboxOutcome, 'logs'>;

interface Instance {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
  /** The most its memory may grow to, in bytes. */
  maximum: number;
}

const instances = new Map<number, Promise<Instance>>();
let compiled: Promise<WebAssembly.Module> | undefined;
let turn: Promise<unknown> = Promise.resolve();

/** Runs one call, after the calls before it have finished. */
export function runCode(
  request: SandboxRequest,
  options: RunOptions = {},
): Promise<SandboxOutcome> {
  const run = turn.then(() => runNow(request, options));
  // Why ignore: each call's failure is its own caller's; the next call runs regardless.
  turn = run.catch(() => undefined);
  return run;
}

async function runNow(request: SandboxRequest, options: RunOptions): Promise<SandboxOutcome> {
  const logs = new Logs();
  let instance: Instance;
  try {
    instance = await instanceFor(request.memoryMb);
  } catch (error) {
    instances.delete(request.memoryMb);
    return { type: 'failed', message: `QuickJS could not load (${String(error)})`, logs: [] };
  }
  let outcome: Ending;
  try {
    outcome = await runOn(instance, request, logs, options);
  } catch (error) {
    instances.delete(request.memoryMb);
    outcome = crashOutcome(error, instance);
  }
  // Its memory goes back to the browser; and a new instance's full memory means its call filled it.
  if (instance.memory.buffer.byteLength > KEEP_BYTES || isFull(instance))
    instances.delete(request.memoryMb);
  return { ...outcome, logs: logs.lines() } as SandboxOutcome;
}

/** What an error thrown by the instance itself (not by the code) means. */
function crashOutcome(error: unknown, instance: Instance): Ending {
  if (error instanceof RangeError) return { type: 'limit', limit: 'stack' };
  if (isFull(instance)) return { type: 'limit', limit: 'memory' };
  return { type: 'failed', message: String(error) };
}

/**
 * Whether the instance's memory has grown close to its maximum: within what an allocation that
 * failed may have asked for (an array's storage grows by half), and at least 4 MB.
 */
const isFull = (instance: Instance) =>
  instance.memory.buffer.byteLength >= instance.maximum - Math.max(4 * MB, instance.maximum / 4);

/**
 * Runs the call in a new runtime and context, disposed after it. When anything throws, nothing is
 * disposed: the instance is in an unknown state (freeing its runtime could abort it again), and
 * the caller drops it whole.
 */
async function runOn(
  instance: Instance,
  request: SandboxRequest,
  logs: Logs,
  options: RunOptions,
): Promise<Ending> {
  const runtime = instance.module.newRuntime();
  // The instance's memory is the limit that counts; this one fails an allocation that could
  // never fit at once, before the instance tries to grow for it.
  runtime.setMemoryLimit(instance.maximum);
  runtime.setMaxStackSize(STACK_BYTES);
  const deadline = performance.now() + request.timeoutMs;
  let stopped: 'time' | 'stop' | undefined;
  runtime.setInterruptHandler(() => {
    stopped ??= options.shouldStop?.() ? 'stop' : performance.now() > deadline ? 'time' : undefined;
    return stopped !== undefined;
  });
  const context = runtime.newContext();
  const run = new Run(runtime, context, instance, logs, () => stopped);
  const ending = await run.evaluate(request, options);
  context.dispose();
  runtime.dispose();
  return ending;
}

/** One evaluation in a fresh context; every handle it makes is disposed by `evaluate`. */
class Run {
  private readonly handles: QuickJSHandle[] = [];
  /** The prelude's `finish(failed, value)`: the value as tagged text, or the error described. */
  private finish: QuickJSHandle | undefined;

  constructor(
    private readonly runtime: QuickJSRuntime,
    private readonly context: QuickJSContext,
    private readonly instance: Instance,
    private readonly logs: Logs,
    private readonly stopped: () => 'time' | 'stop' | undefined,
  ) {}

  async evaluate(request: SandboxRequest, options: RunOptions): Promise<Ending> {
    const ending = await this.steps(request, options);
    for (const handle of this.handles.reverse()) if (handle.alive) handle.dispose();
    return ending;
  }

  private keep<T extends QuickJSHandle>(handle: T): T {
    this.handles.push(handle);
    return handle;
  }

  private async steps(request: SandboxRequest, options: RunOptions): Promise<Ending> {
    const { context, runtime } = this;
    const prelude = context.evalCode(PRELUDE, 'prelude.js');
    if (prelude.error) return this.failure(this.keep(prelude.error));
    const log = this.keep(
      context.newFunction('log', (level, text) => {
        if (context.typeof(level) === 'string' && context.typeof(text) === 'string')
          this.logs.add(context.getString(level), context.getString(text));
      }),
    );
    const globals = this.keep(context.newString(request.globals));
    const setup = context.callFunction(this.keep(prelude.value), context.undefined, globals, log);
    if (setup.error) return this.failure(this.keep(setup.error));
    this.finish = this.keep(setup.value);

    const evaluated = context.evalCode(wrapCode(request.code), CODE_FILE);
    if (evaluated.error) return this.failure(this.keep(evaluated.error), request.code);
    const promise = this.keep(evaluated.value);
    let sliceStart = performance.now();
    for (;;) {
      const state = context.getPromiseState(promise);
      if (state.type === 'fulfilled')
        return this.encode(state.notAPromise ? promise : this.keep(state.value));
      if (state.type === 'rejected') return this.failure(this.keep(state.error), request.code);
      // A job interrupted at the limit may leave the promise pending, with nothing left to run.
      const stopped = this.stopped();
      if (stopped) return { type: 'limit', limit: stopped };
      const jobs = runtime.executePendingJobs(JOB_BATCH);
      if (jobs.error) return this.failure(this.keep(jobs.error), request.code);
      // Nothing ran and it is still pending: it awaits what never comes (no timers, no I/O).
      if (jobs.value === 0 && !this.stopped()) return { type: 'unsettled' };
      if (options.pause && performance.now() - sliceStart > SLICE_MS) {
        await options.pause();
        if (options.shouldStop?.()) return { type: 'limit', limit: 'stop' };
        sliceStart = performance.now();
      }
    }
  }

  /** The returned value as JSON text, or why it is not JSON. */
  private encode(value: QuickJSHandle): Ending {
    const { context } = this;
    const encoded = context.callFunction(this.finish!, context.undefined, context.false, value);
    if (encoded.error) return this.failure(this.keep(encoded.error));
    const text = context.getString(this.keep(encoded.value));
    if (text === 'u') return { type: 'value' };
    if (text.startsWith('j')) return { type: 'value', json: text.slice(1) };
    return { type: 'notJson', what: text.slice(1) };
  }

  /** What an exception means: a limit reached, or an error of the code's, described. */
  private failure(error: QuickJSHandle, code?: string): Ending {
    const { context } = this;
    const stopped = this.stopped();
    if (stopped) return { type: 'limit', limit: stopped };
    // Out of memory, QuickJS throws null when it cannot even make the error.
    const full = isFull(this.instance);
    if (full && context.eq(error, context.null)) return { type: 'limit', limit: 'memory' };
    const described = this.describe(error);
    if (!described) return full ? { type: 'limit', limit: 'memory' } : unreadable;
    const { name, message } = described;
    if (name === 'InternalError' && message === 'out of memory')
      return { type: 'limit', limit: 'memory' };
    const threw = { type: 'threw' as const, message, ...(name === undefined ? {} : { name }) };
    if (code === undefined || described.line === undefined) return threw;
    const syntax = name === 'SyntaxError' && described.syntaxOfCode === true;
    // Past the code's last line is the wrapper's closing line: the code left something open.
    if (syntax && described.line > code.split('\n').length)
      return { ...threw, syntax, message: 'it ends before a bracket or brace it opened is closed' };
    return { ...threw, line: described.line, ...(syntax ? { syntax } : {}) };
  }

  private describe(error: QuickJSHandle): Described | undefined {
    const { context } = this;
    if (!this.finish) {
      // Before the prelude's finish exists (the globals did not fit, say): name and message only.
      if (context.typeof(error) !== 'object') return undefined;
      return { message: 'the sandbox could not be set up', name: readName(context, error) };
    }
    const described = context.callFunction(this.finish, context.undefined, context.true, error);
    if (described.error) {
      this.keep(described.error);
      return undefined;
    }
    const text = context.getString(this.keep(described.value));
    try {
      return JSON.parse(text) as Described;
    } catch {
      return undefined; // the prelude answers JSON; anything else means it could not read the error
    }
  }
}

interface Described {
  name?: string;
  message: string;
  line?: number;
  /** The error was raised parsing the code itself (not an eval or JSON.parse inside it). */
  syntaxOfCode?: boolean;
}

const unreadable: Ending = { type: 'threw', message: 'an error that could not be read' };

function readName(context: QuickJSContext, error: QuickJSHandle): string | undefined {
  const name = context.getProp(error, 'name');
  try {
    return context.typeof(name) === 'string' ? context.getString(name) : undefined;
  } finally {
    name.dispose();
  }
}

/** The console's lines, at most MAX_LOG_LINES, then how many more there were. */
class Logs {
  private readonly kept: string[] = [];
  private dropped = 0;

  add(level: string, text: string): void {
    if (this.kept.length >= MAX_LOG_LINES) this.dropped++;
    else this.kept.push(level === 'warn' || level === 'error' ? `${level}: ${text}` : text);
  }

  lines(): string[] {
    return this.dropped === 0
      ? this.kept
      : [...this.kept, `… ${this.dropped} more line${this.dropped === 1 ? '' : 's'} not kept`];
  }
}

function instanceFor(memoryMb: number): Promise<Instance> {
  let instance = instances.get(memoryMb);
  if (instance) instances.delete(memoryMb); // put back below, as the most recently used
  instance ??= newInstance(memoryMb);
  instances.set(memoryMb, instance);
  for (const [limit] of instances) {
    if (instances.size <= MAX_INSTANCES) break;
    instances.delete(limit);
  }
  return instance;
}

async function newInstance(memoryMb: number): Promise<Instance> {
  const maximumPages = Math.max(INITIAL_PAGES, Math.ceil(((OWN_MB + memoryMb) * MB) / PAGE));
  const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: maximumPages });
  const wasmModule = await compiledModule();
  const module = await newQuickJSWASMModuleFromVariant(
    newVariant(variant, { wasmMemory: memory, ...(wasmModule ? { wasmModule } : {}) }),
  );
  return { module, memory, maximum: maximumPages * PAGE };
}

/**
 * The module compiled once, for every instance, in a browser. In Node (tests) Emscripten's own
 * loader reads the file next to its script, as a URL from vite would not be a path there.
 */
function compiledModule(): Promise<WebAssembly.Module> | undefined {
  const isNode = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions
    ?.node;
  if (isNode) return undefined;
  if (!compiled) {
    compiled = WebAssembly.compileStreaming(fetch(wasmUrl)).catch(async () => {
      // A host that serves .wasm with another type than application/wasm: compile from bytes.
      const response = await fetch(wasmUrl);
      if (!response.ok) throw new Error(`${wasmUrl}: ${response.status}`);
      return WebAssembly.compile(await response.arrayBuffer());
    });
    // The next call tries again (back online, say).
    compiled.catch(() => (compiled = undefined));
  }
  return compiled;
}
