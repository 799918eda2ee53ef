// The bridge to the sandbox's Web Worker (worker.ts), where a browser runs Custom Function code:
// QuickJS runs a call synchronously, so on the runtime worker's own thread a loop would hold every
// other session, and a Stop (a message like any other) could not arrive until the code ended.
//
// What must stay true:
// - The worker starts on the first call and is ended after IDLE_MS without one (its memory goes
//   back to the browser); the next call starts another.
// - One call at a time: the next is posted once the one before has its answer, so each call's
//   time limit counts from its own start.
// - Stop of the running call ends the worker, the only way to interrupt code it is running; the
//   calls waiting go on in a new one. Stop of a waiting call takes it out of the queue. Either
//   rejects at once with the AbortError.
// - A worker that does not answer within the call's time limit and WATCHDOG_GRACE_MS (to load
//   QuickJS) is ended: the call ran past its limit. One that fails (its script does not load, it
//   crashes) fails its call; the next call starts another.

import type { SandboxOutcome, SandboxRequest } from './engine.ts';
import type { SandboxAnswerMessage, SandboxCallMessage } from './worker.ts';

const IDLE_MS = 120_000;
const WATCHDOG_GRACE_MS = 10_000;

/** What the thread needs of a Worker: tests give it a fake. */
export interface SandboxWorker {
  postMessage(message: SandboxCallMessage): void;
  terminate(): void;
  onmessage: ((event: MessageEvent<SandboxAnswerMessage>) => void) | null;
  onerror: ((event: ErrorEvent) => void) | null;
}

interface Call {
  id: number;
  request: SandboxRequest;
  resolve(outcome: SandboxOutcome): void;
  reject(error: Error): void;
  /** Takes the call's listener off its signal and clears its watchdog. */
  release(): void;
  watchdog?: ReturnType<typeof setTimeout>;
}

export class SandboxThread {
  private worker: SandboxWorker | undefined;
  private running: Call | undefined;
  private readonly waiting: Call[] = [];
  private idle: ReturnType<typeof setTimeout> | undefined;
  private lastId = 0;

  constructor(private readonly startWorker: () => SandboxWorker) {}

  /** The outcome of `request`; rejects only on Stop of `signal`, with what `stopped` makes. */
  run(request: SandboxRequest, signal: AbortSignal | undefined, stopped: () => Error) {
    return new Promise<SandboxOutcome>((resolve, reject) => {
      const onAbort = () => this.abort(call, stopped());
      const call: Call = {
        id: ++this.lastId,
        request,
        resolve,
        reject,
        release: () => {
          signal?.removeEventListener('abort', onAbort);
          clearTimeout(call.watchdog);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(call);
      this.next();
    });
  }

  private next(): void {
    if (this.running) return;
    clearTimeout(this.idle);
    const call = this.waiting.shift();
    if (!call) {
      this.idle = setTimeout(() => this.endWorker(), IDLE_MS);
      return;
    }
    this.running = call;
    const worker = (this.worker ??= this.start());
    call.watchdog = setTimeout(() => {
      this.endWorker();
      this.settle(call, { type: 'limit', limit: 'time', logs: [] });
    }, call.request.timeoutMs + WATCHDOG_GRACE_MS);
    worker.postMessage({ id: call.id, request: call.request });
  }

  private start(): SandboxWorker {
    const worker = this.startWorker();
    worker.onmessage = ({ data }) => {
      if (this.worker === worker && this.running?.id === data.id)
        this.settle(this.running, data.outcome);
    };
    worker.onerror = (event) => {
      event.preventDefault?.();
      if (this.worker !== worker) return;
      this.endWorker();
      const message = event.message || 'its worker stopped or could not load';
      if (this.running) this.settle(this.running, { type: 'failed', message, logs: [] });
    };
    return worker;
  }

  private settle(call: Call, outcome: SandboxOutcome): void {
    call.release();
    if (this.running === call) this.running = undefined;
    call.resolve(outcome);
    this.next();
  }

  private abort(call: Call, error: Error): void {
    call.release();
    if (this.running === call) {
      this.endWorker();
      this.running = undefined;
    } else {
      const at = this.waiting.indexOf(call);
      if (at >= 0) this.waiting.splice(at, 1);
    }
    call.reject(error);
    this.next();
  }

  private endWorker(): void {
    clearTimeout(this.idle);
    this.worker?.terminate();
    this.worker = undefined;
  }
}
