// The sandbox's own Web Worker, started by thread.ts: it runs Custom Function calls one at a time
// and answers each with its outcome. A thread of its own, so that code looping forever never
// blocks the runtime worker, and a Stop ends it at once by ending this worker.

import { runCode, type SandboxOutcome, type SandboxRequest } from './engine.ts';

/** A call as thread.ts posts it, numbered so its answer is matched to it. */
export interface SandboxCallMessage {
  id: number;
  request: SandboxRequest;
}

export interface SandboxAnswerMessage {
  id: number;
  outcome: SandboxOutcome;
}

self.onmessage = async ({ data }: MessageEvent<SandboxCallMessage>) => {
  const outcome = await runCode(data.request).catch((error: unknown): SandboxOutcome => ({
    type: 'failed',
    message: String(error),
    logs: [],
  }));
  self.postMessage({ id: data.id, outcome } satisfies SandboxAnswerMessage);
};
