// The jobs of knowledge bases in the worker (workers/knowledge/knowledge.ts): adding files,
// pasted text, re-indexing and embedding. What must stay true:
// - one job at a time per base, in order, across tabs: each holds the Web Lock
//   `knowledge:<baseId>`; a job that finds it held by another tab fails saying so;
// - Stop aborts the running job and drops the ones waiting; later jobs run again;
// - progress goes out as `knowledge-progress` (every new phase or document, counts at most ~10 a
//   second), the job's end once (done, stopped or failed with why), and `knowledge-changed`.

import { InvalidRequestError, isTrellisError, messageOf } from '../../src/core/errors.ts';
import type { KnowledgeProgress } from '../../src/knowledge/types.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import type { SessionLocks } from '../runs/session-locks.ts';

const PROGRESS_EVERY_MS = 100;
const BUSY_ELSEWHERE =
  'Another tab is adding to or re-indexing this knowledge base: try again once it is done there';

interface Queue {
  controller: AbortController;
  tail: Promise<void>;
  waiting: number;
  progress?: KnowledgeProgress;
}

export class BaseJobs {
  private readonly jobs = new Map<string, Queue>();
  private lastProgressAt = 0;

  constructor(
    private readonly locks: SessionLocks,
    private readonly broadcast: (message: RuntimeBroadcast) => void,
  ) {}

  /** The running job's latest progress, if a job runs on the base. */
  progressOf(baseId: string): KnowledgeProgress | undefined {
    return this.jobs.get(baseId)?.progress;
  }

  /** Stops the base's running job and drops the waiting ones. */
  stop(baseId: string): void {
    this.jobs.get(baseId)?.controller.abort(new DOMException('Stopped', 'AbortError'));
  }

  /** Resolves once the base's jobs have ended. */
  async idle(baseId: string): Promise<void> {
    await this.jobs.get(baseId)?.tail;
  }

  /** Runs `work` after the base's earlier jobs, holding its lock; Stop aborts `signal`. */
  enqueue(baseId: string, work: (signal: AbortSignal) => Promise<void>): void {
    let jobs = this.jobs.get(baseId);
    if (!jobs || jobs.controller.signal.aborted) {
      jobs = {
        controller: new AbortController(),
        tail: jobs?.tail ?? Promise.resolve(),
        waiting: 0,
      };
      this.jobs.set(baseId, jobs);
    }
    const own = jobs;
    const { signal } = own.controller;
    own.waiting++;
    own.tail = own.tail
      .then(async () => {
        signal.throwIfAborted();
        await this.locks
          .withLock(`knowledge:${baseId}`, () => work(signal))
          .catch((error) => {
            // The lock is a session's kind: its "session is busy" would misname what waits.
            if (!isTrellisError(error, 'SessionBusyError')) throw error;
            throw new InvalidRequestError(BUSY_ELSEWHERE);
          });
      })
      .then(
        () => {
          if (own.waiting === 1)
            this.progress(baseId, { baseId, phase: 'done', done: 1, total: 1 });
        },
        (error: unknown) => {
          const stopped = signal.aborted;
          this.progress(baseId, {
            baseId,
            phase: stopped ? 'stopped' : 'failed',
            done: 0,
            total: 0,
            ...(stopped ? {} : { error: messageOf(error) }),
          });
          if (!stopped) console.warn('Trellis: a knowledge base job failed', messageOf(error));
        },
      )
      .finally(() => {
        own.waiting--;
        if (own.waiting === 0 && this.jobs.get(baseId) === own) this.jobs.delete(baseId);
        this.broadcast({ type: 'knowledge-changed' });
      });
  }

  /** A step of a job: the library's own end of a step is not the job's end. */
  step(baseId: string, progress: KnowledgeProgress): void {
    if (
      progress.phase === 'reading' ||
      progress.phase === 'indexing' ||
      progress.phase === 'embedding'
    )
      this.progress(baseId, progress);
  }

  progress(baseId: string, progress: KnowledgeProgress): void {
    const jobs = this.jobs.get(baseId);
    const last = jobs?.progress;
    if (jobs) jobs.progress = progress;
    // Every new phase or document is said; counts within one, at most ~10 times a second.
    const now = Date.now();
    const same = last?.phase === progress.phase && last.document === progress.document;
    if (same && now - this.lastProgressAt < PROGRESS_EVERY_MS) return;
    this.lastProgressAt = now;
    this.broadcast({ type: 'knowledge-progress', progress });
  }
}
