// Keeps the record of a run in flight up to date: written when the run starts, refreshed by a
// heartbeat while it runs, and finally removed (finished) or marked paused, interrupted or failed.
//
// Invariants:
// - every write of one run goes through one queue, so a late heartbeat never lands after the
//   final write;
// - the heartbeat stops before the final write is queued;
// - bookkeeping never breaks a run: a failed heartbeat or final write is logged and dropped (the
//   worst outcome is a run listed as interrupted that was not, which resuming sorts out);
// - a final write the store refused (a full disk) is remembered beside the session service, so
//   that every runner over it lists the run as it ended, with its reason (`asEnded`), until the
//   run starts again or the service is gone.

import type { BaseSessionService, RunRecord, RunStatus } from '../store/session-service.ts';

export type RunOutcome = 'finished' | Exclude<RunStatus, 'running'>;

export interface RunTrackerOptions {
  sessionService: BaseSessionService;
  ownerId: string;
  heartbeatMs: number;
  clock: () => number;
}

/** How a run ended when its final write was refused. */
interface Ended {
  ownerId: string;
  outcome: RunOutcome;
  details: Pick<RunRecord, 'pendingCallIds' | 'error'>;
}

/** Per session service: invocation id → how its run ended, where its record could not say so. */
const refused = new WeakMap<BaseSessionService, Map<string, Ended>>();

/**
 * The record of a run as it ended, when its final write was refused (`undefined`: it finished,
 * and its record could not be removed); otherwise the record as it is.
 */
export function asEnded(sessionService: BaseSessionService, run: RunRecord): RunRecord | undefined {
  const ended = refused.get(sessionService)?.get(run.invocationId);
  if (!ended || ended.ownerId !== run.ownerId) return run;
  if (ended.outcome === 'finished') return undefined;
  return { ...run, ...ended.details, status: ended.outcome };
}

export class RunTracker {
  private queue: Promise<void> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | undefined;
  private record: RunRecord;

  private constructor(
    private readonly options: RunTrackerOptions,
    record: RunRecord,
  ) {
    this.record = record;
  }

  /**
   * Records the run as running (a failure to write it fails the run before it starts): with
   * `write`, when the run starts with an event, the record goes in the same atomic write as it.
   */
  static async start(
    options: RunTrackerOptions,
    run: Pick<RunRecord, 'appName' | 'userId' | 'sessionId' | 'invocationId' | 'agentName'>,
    write: (record: RunRecord) => Promise<unknown> = (record) =>
      options.sessionService.putRun(record),
  ): Promise<RunTracker> {
    const now = options.clock();
    const record: RunRecord = {
      ...run,
      status: 'running',
      startedAt: now,
      updatedAt: now,
      heartbeatAt: now,
      ownerId: options.ownerId,
    };
    await write(record);
    refused.get(options.sessionService)?.delete(record.invocationId);
    const tracker = new RunTracker(options, record);
    tracker.timer = setInterval(() => tracker.beat(), options.heartbeatMs);
    // In Node, a heartbeat alone must not keep the process alive.
    (tracker.timer as { unref?: () => void }).unref?.();
    return tracker;
  }

  /**
   * The final write: the record goes away (finished) or keeps the outcome. A full disk may refuse
   * it (the record then still says `running`): the outcome is then remembered (see `asEnded`).
   */
  async finish(
    outcome: RunOutcome,
    details: Pick<RunRecord, 'pendingCallIds' | 'error'> = {},
  ): Promise<void> {
    clearInterval(this.timer);
    const { sessionService, clock, ownerId } = this.options;
    const { appName, userId, sessionId, invocationId } = this.record;
    const written = await this.enqueue(() =>
      outcome === 'finished'
        ? sessionService.deleteRun({ appName, userId, sessionId, invocationId })
        : sessionService.putRun({
            ...this.record,
            ...details,
            status: outcome,
            updatedAt: clock(),
          }),
    );
    if (written) return;
    let ended = refused.get(sessionService);
    if (!ended) refused.set(sessionService, (ended = new Map()));
    ended.set(invocationId, { ownerId, outcome, details });
  }

  private beat(): void {
    const now = this.options.clock();
    this.record = { ...this.record, heartbeatAt: now };
    const record = this.record;
    void this.enqueue(() => this.options.sessionService.putRun(record));
  }

  private enqueue(write: () => Promise<void>): Promise<boolean> {
    const written = this.queue.then(write).then(
      () => true,
      (error: unknown) => {
        // Bookkeeping only (see the invariants above): the run itself carries on.
        console.warn('Trellis: could not update the record of a run in flight', error);
        return false;
      },
    );
    this.queue = written.then(() => undefined);
    return written;
  }
}
