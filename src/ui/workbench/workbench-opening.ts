// The workbench's view model, its first layer: the open session as the page shows it. It reads
// the session's opening (workers/protocol.ts: state, the end of the active conversation, the end
// of the active path), never its whole log, so that a session of 100,000 events opens and follows
// as fast as a short one (issue 8):
// - "Show earlier" asks the worker for a longer tail or more turns;
// - the event log reads the raw log a page at a time, newest first, only while it is open;
// - another tab's changes and a rewind read the opening again (at most every 150 ms for
//   broadcasts), which costs what the opening holds, not what the log holds.
// Runs are the next layer (workbench-runs.ts), the user's other actions the last (workbench.ts).

import { ViewState } from './view-state.ts';
import { isTrellisError } from '../../core/errors.ts';
import type { RuntimeBroadcast } from '../../../workers/protocol.ts';
import { OPENING } from '../../../workers/protocol.ts';
import {
  INITIAL,
  LOG_PAGE,
  MORE,
  type RuntimeClient,
  type WorkbenchState,
} from './workbench-state.ts';

export abstract class WorkbenchOpening extends ViewState<WorkbenchState> {
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Counts the reads of the opening: only the latest one asked for is shown. */
  private reads = 0;

  constructor(protected readonly client: RuntimeClient) {
    super(INITIAL);
  }

  async open(sessionId: string): Promise<void> {
    this.set({ opening: true });
    await this.guard(async () => {
      const read = ++this.reads;
      const [current, busy] = await Promise.all([
        this.client.runtime.openSessionSummary(sessionId, OPENING),
        this.client.runtime.busySessions(),
      ]);
      if (read !== this.reads) return;
      this.set({
        current,
        usage: undefined,
        context: undefined,
        rewind: undefined,
        // What was said of the session left goes with it (an error stays until dismissed).
        notice: undefined,
        stoppedText: undefined,
        logFocus: undefined,
        limits: OPENING,
        busyElsewhere: busy.includes(sessionId),
        selectedTurnId: undefined,
        streaming: undefined,
      });
      void this.refreshUsage(sessionId);
      if (this.state.log) await this.openLog(true);
    });
    this.set({ opening: false });
  }

  /** Chat's "Show earlier": a longer tail of the active conversation. */
  async showEarlierMessages(): Promise<void> {
    const { limits } = this.state;
    this.set({
      limits: { ...limits, numActiveEvents: limits.numActiveEvents + MORE.numActiveEvents },
    });
    // A run under way shows its own events; the longer tail comes with the read at its end.
    if (!this.state.running) await this.reload();
  }

  /** History's "Show earlier": more turns of the active path. */
  async showEarlierTurns(): Promise<void> {
    const { limits } = this.state;
    this.set({ limits: { ...limits, numTurns: limits.numTurns + MORE.numTurns } });
    if (!this.state.running) await this.reload();
  }

  /** Opens the event log at the newest page of the raw log, or closes it. */
  async openLog(open: boolean): Promise<void> {
    const current = this.state.current;
    if (!open || !current) {
      this.set({ log: undefined, logFocus: undefined });
      return;
    }
    const from = Math.max(0, current.eventCount - LOG_PAGE);
    await this.readLog(current.summary.id, from, current.eventCount - from);
  }

  /** Opens the event log at an event of the conversation (a message's link to its event). */
  async showInLog(eventId: string): Promise<void> {
    const current = this.state.current;
    const entry = current?.activeTail.find(({ event }) => event.id === eventId);
    if (!current || !entry) return;
    const log = this.state.log;
    const from =
      log && log.from <= entry.seq
        ? log.from
        : Math.max(0, Math.min(entry.seq, current.eventCount - LOG_PAGE));
    await this.readLog(current.summary.id, from, current.eventCount - from);
    this.set({ logFocus: eventId });
  }

  /** The event log's "Show earlier": the page before the ones read. */
  async showEarlierLog(): Promise<void> {
    const { current, log } = this.state;
    if (!current || !log || log.from === 0) return;
    const from = Math.max(0, log.from - LOG_PAGE);
    await this.readLog(current.summary.id, from, log.eventCount - from);
  }

  selectTurn(invocationId: string | undefined): void {
    this.set({ selectedTurnId: invocationId });
  }

  dismiss(): void {
    this.set({ error: undefined, notice: undefined });
  }

  /** The notice has had its time (`said`: only if it is still that one, not a newer one). */
  dismissNotice(said?: string): void {
    if (this.state.notice !== undefined && (said === undefined || this.state.notice === said))
      this.set({ notice: undefined });
  }

  protected onBroadcast(message: RuntimeBroadcast): void {
    const currentId = this.state.current?.summary.id;
    if (message.type === 'sessions-changed') void this.refreshSessions();
    // The Agent select lists flows and built agents (whose descriptions name their providers).
    if (/^(flows|agents|providers)-changed$/.test(message.type)) void this.refreshAgents();
    if (message.type === 'busy-changed') {
      if (message.sessionId === currentId && !this.state.running)
        this.set({ busyElsewhere: message.busy });
      if (!message.busy) void this.refreshInterrupted();
    }
    if (
      message.type === 'session-changed' &&
      message.sessionId === currentId &&
      !this.state.running
    ) {
      // Another tab changed the open session: follow it, at most every 150 ms however fast
      // its events come (each read costs the opening, not the log).
      this.refreshTimer ??= setTimeout(() => {
        this.refreshTimer = undefined;
        void this.reload();
      }, 150);
    }
  }

  /**
   * Reads the open session's opening again, as far back as the user has asked to see, and the
   * event log's pages if it is open.
   */
  protected async reload(): Promise<void> {
    const current = this.state.current;
    // While another session opens, the one shown is about to go: re-reading it would only make
    // the open's read look stale, and the page would stay on the old session.
    if (!current || this.state.opening) return;
    const sessionId = current.summary.id;
    await this.guard(async () => {
      const read = ++this.reads;
      const fresh = await this.client.runtime.openSessionSummary(sessionId, this.state.limits);
      if (read !== this.reads || this.state.current?.summary.id !== sessionId) return;
      this.set({ current: fresh });
      void this.refreshUsage(sessionId);
      const log = this.state.log;
      if (log) await this.readLog(sessionId, log.from, fresh.eventCount - log.from);
    });
  }

  protected async readLog(sessionId: string, from: number, limit: number): Promise<void> {
    await this.guard(async () => {
      const page = await this.client.runtime.readLog(sessionId, from, Math.max(limit, LOG_PAGE));
      if (this.state.current?.summary.id !== sessionId) return;
      this.set({ log: { from, entries: page.entries, eventCount: page.eventCount } });
    });
  }

  /** Counts the session's usage (what the log holds beyond the count kept is counted now). */
  protected async refreshUsage(sessionId: string): Promise<void> {
    void this.refreshContext(sessionId);
    try {
      const usage = await this.client.runtime.sessionUsage(sessionId);
      if (this.state.current?.summary.id === sessionId) this.set({ usage });
    } catch {
      // The totals are a courtesy: a session deleted meanwhile, say, has none to show.
    }
  }

  /** The context meter's count and window, read again with the usage (after each run). */
  private async refreshContext(sessionId: string): Promise<void> {
    try {
      const context = await this.client.runtime.sessionContext(sessionId);
      if (this.state.current?.summary.id === sessionId) this.set({ context });
    } catch {
      // A courtesy as the totals are: a session deleted meanwhile has no meter to show.
    }
  }

  protected async refreshAgents(): Promise<void> {
    await this.guard(async () => this.set({ agents: await this.client.runtime.agents() }));
  }

  protected async refreshSessions(): Promise<void> {
    await this.guard(async () => {
      const sessions = await this.client.runtime.listSessions();
      // The open session's heading follows its title too: a new session is titled by its first
      // message as its run starts, not when the run ends.
      const current = this.state.current;
      const listed = current && sessions.find((session) => session.id === current.summary.id);
      const retitled =
        current && listed && listed.title !== current.summary.title
          ? { current: { ...current, summary: { ...current.summary, title: listed.title } } }
          : {};
      this.set({ sessions, ...retitled });
    });
  }

  protected async refreshInterrupted(): Promise<void> {
    await this.guard(async () =>
      this.set({ interrupted: await this.client.runtime.interruptedRuns() }),
    );
  }

  /** Runs an action; its failure becomes the error shown. */
  protected async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /** Shows a failure as the error. */
  protected fail(error: unknown): void {
    const message = (error as Error | null)?.message ?? String(error);
    if (isTrellisError(error, 'SessionBusyError')) this.set({ busyElsewhere: true });
    this.set({ error: message });
  }
}
