// The Web Worker a browser runs Custom Function code in (code-sandbox/thread.ts): calls one at a
// time in one warm worker, Stop and a worker that never answers ending it, a failed worker replaced.
// The workers are fakes that run the real engine, on this thread.

import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCode, type SandboxRequest } from '../../../src/flows/code-sandbox/engine.ts';
import { SandboxThread } from '../../../src/flows/code-sandbox/thread.ts';
import type {
  SandboxAnswerMessage,
  SandboxCallMessage,
} from '../../../src/flows/code-sandbox/worker.ts';

/**
 * A browser's Worker, as the thread uses it: it runs the engine, as the real worker does, unless
 * it hangs, as a worker busy with code that never ends.
 */
class FakeWorker {
  terminated = false;
  onmessage: ((event: MessageEvent<SandboxAnswerMessage>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;

  constructor(private readonly hang: boolean) {}

  postMessage({ id, request }: SandboxCallMessage): void {
    if (this.hang) return;
    void runCode(request).then((outcome) => {
      if (!this.terminated) this.onmessage?.({ data: { id, outcome } } as MessageEvent);
    });
  }

  terminate(): void {
    this.terminated = true;
  }
}

const request = (code: string, timeoutMs = 2_000): SandboxRequest => ({
  code,
  globals: '{"values":{},"unset":[]}',
  timeoutMs,
  memoryMb: 32,
});

const stopped = () => new DOMException('The code was stopped', 'AbortError');

/** A thread whose workers are fakes (the first one hanging, when asked), and the ones it started. */
function sandboxThread({ firstHangs = false } = {}) {
  const workers: FakeWorker[] = [];
  const thread = new SandboxThread(() => {
    const worker = new FakeWorker(firstHangs && workers.length === 0);
    workers.push(worker);
    return worker;
  });
  return { thread, workers };
}

describe('SandboxThread', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs calls in one worker, one after another', async () => {
    const { thread, workers } = sandboxThread();
    const outcomes = await Promise.all(
      [1, 2, 3].map((n) => thread.run(request(`return ${n}`), undefined, stopped)),
    );
    expect(outcomes).toMatchObject([
      { type: 'value', json: '1' },
      { type: 'value', json: '2' },
      { type: 'value', json: '3' },
    ]);
    expect(workers).toHaveLength(1);
  });

  it('on Stop, rejects at once: a waiting call leaves the queue, the running one ends its worker', async () => {
    const { thread, workers } = sandboxThread({ firstHangs: true });
    const first = new AbortController();
    const second = new AbortController();
    const running = thread.run(request('while (true) {}'), first.signal, stopped);
    const waiting = thread.run(request('return 2'), second.signal, stopped);
    second.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0]!.terminated).toBe(false);
    first.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(workers[0]!.terminated).toBe(true);
    expect(await thread.run(request('return 3'), undefined, stopped)).toMatchObject({
      type: 'value',
      json: '3',
    });
    expect(workers).toHaveLength(2);
  });

  it('ends a worker that never answers, past the time limit and a grace', async () => {
    vi.useFakeTimers();
    const { thread, workers } = sandboxThread({ firstHangs: true });
    const call = thread.run(request('while (true) {}', 1_000), undefined, stopped);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(await call).toEqual({ type: 'limit', limit: 'time', logs: [] });
    expect(workers[0]!.terminated).toBe(true);
  });

  it('fails the call when its worker fails, and starts another for the next', async () => {
    const { thread, workers } = sandboxThread({ firstHangs: true });
    const call = thread.run(request('return 1'), undefined, stopped);
    workers[0]!.onerror?.({ message: 'Failed to fetch', preventDefault() {} } as ErrorEvent);
    expect(await call).toEqual({ type: 'failed', message: 'Failed to fetch', logs: [] });
    expect(await thread.run(request('return 2'), undefined, stopped)).toMatchObject({
      type: 'value',
      json: '2',
    });
    expect(workers).toHaveLength(2);
  });

  it('ends its worker after two idle minutes, and starts another when code comes', async () => {
    vi.useFakeTimers();
    const { thread, workers } = sandboxThread();
    const call = thread.run(request('return 1'), undefined, stopped);
    await vi.advanceTimersByTimeAsync(0);
    await call;
    await vi.advanceTimersByTimeAsync(120_000);
    expect(workers[0]!.terminated).toBe(true);
    const next = thread.run(request('return 2'), undefined, stopped);
    await vi.advanceTimersByTimeAsync(0);
    expect(await next).toMatchObject({ type: 'value', json: '2' });
    expect(workers).toHaveLength(2);
  });
});
