// The workbench's view model: what the page shows, and every action a user can take. It talks to
// the runtime worker only (through the client module) and never writes IndexedDB itself.
//
// The open session is its opening (workers/protocol.ts: state, the end of the active
// conversation, the end of the active path), never its whole log, so that a session of 100,000
// events opens and follows as fast as a short one (issue 8):
// - "Show earlier" asks the worker for a longer tail or more turns;
// - the event log reads the raw log a page at a time, newest first, only while it is open;
// - this tab's run extends the tail and the state with each stored event, and the opening is read
//   again when it ends; another tab's changes and a rewind read it again (at most every 150 ms
//   for broadcasts), which costs what the opening holds, not what the log holds.

import { ViewState } from './view-state.ts';
import { isTrellisError } from '../core/errors.ts';
import { withEventUsage } from '../core/usage.ts';
import { showsError } from './chat-model.ts';
import type { AdkSpan } from '../remote/client.ts';
import type { Event } from '../core/event.ts';
import type { InterruptedRun, RuntimeBroadcast, Settings } from '../../workers/protocol.ts';
import { OPENING, type OutgoingAttachment } from '../../workers/protocol.ts';
import type { InputRequest } from './input-requests-model.ts';
import { sessionView } from './session-view.ts';
import {
  INITIAL,
  LOG_PAGE,
  MORE,
  withStoredEvent,
  type RuntimeClient,
  type Streaming,
  type WorkbenchState,
} from './workbench-state.ts';

export {
  LOG_PAGE,
  MORE,
  type LogPages,
  type RuntimeClient,
  type Streaming,
  type WorkbenchState,
} from './workbench-state.ts';

/** Rounds of rejections before a message is sent while approvals are waiting. */
const REJECT_ROUNDS = 3;

export class Workbench extends ViewState<WorkbenchState> {
  /** The user pressed Stop during the run under way. */
  private stopped = false;
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  /** Streamed text not drawn yet, and the frame that will draw it. */
  private pendingStream: Streaming | undefined;
  private streamFrame: (() => void) | undefined;
  /** Counts the reads of the opening: only the latest one asked for is shown. */
  private reads = 0;

  constructor(private readonly client: RuntimeClient) {
    super(INITIAL);
  }

  async init(): Promise<void> {
    const { runtime } = this.client;
    this.client.onBroadcast((message) => this.onBroadcast(message));
    await this.guard(async () => {
      const [agents, settings, sessions] = await Promise.all([
        runtime.agents(),
        runtime.settings(),
        runtime.listSessions(),
      ]);
      this.set({ agents, settings, sessions });
      // The app opens on a session in this browser, which needs no network (one on an ADK
      // server may be out of reach): a new one when there is none.
      const local = sessions.find((session) => !session.remote);
      const first = local ?? (await runtime.createSession());
      if (!local) this.set({ sessions: [first, ...sessions] });
      await this.open(first.id);
      await this.refreshInterrupted();
      this.set({ ready: true });
      if (settings.autoResume) await this.resumeAll();
    });
    // A tab that was just closed may still have held its locks when we first looked.
    setTimeout(() => void this.refreshInterrupted(), 1500);
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
        rewind: undefined,
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

  /** A new session with the open session's agent, or with `agentId` (an ADK server's app). */
  async newSession(agentId = this.state.current?.summary.agentId): Promise<void> {
    // Until the new session is open, what the page shows (its agent above all) is the old one's.
    this.set({ opening: true });
    await this.guard(async () => {
      const created = await this.client.runtime.createSession(agentId);
      await this.refreshSessions();
      await this.open(created.id);
    });
    this.set({ opening: false });
  }

  async rename(sessionId: string, title: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.renameSession(sessionId, title);
      await this.refreshSessions();
      // The open session's heading shows its summary: give it the title as stored (trimmed, capped).
      const renamed = this.state.sessions.find((session) => session.id === sessionId);
      const current = this.state.current;
      if (renamed && current?.summary.id === sessionId)
        this.set({
          current: { ...current, summary: { ...current.summary, title: renamed.title } },
        });
    });
  }

  async remove(sessionId: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deleteSession(sessionId);
      const sessions = await this.client.runtime.listSessions();
      this.set({ sessions });
      if (this.state.current?.summary.id === sessionId) {
        const next = sessions[0] ?? (await this.client.runtime.createSession());
        if (!sessions[0]) await this.refreshSessions();
        await this.open(next.id);
      }
    });
  }

  async setAgent(agentId: string): Promise<void> {
    const current = this.state.current;
    if (!current) return;
    await this.guard(async () => {
      await this.client.runtime.setAgent(current.summary.id, agentId);
      await this.reload();
      await this.refreshSessions();
    });
  }

  /** The session file to download. */
  exportSession(sessionId: string): Promise<{ filename: string; json: string } | undefined> {
    return this.guard(() => this.client.runtime.exportSession(sessionId));
  }

  /** The session as an ADK eval set file, for `adk eval`. */
  exportEvalSet(sessionId: string): Promise<{ filename: string; json: string } | undefined> {
    return this.guard(() => this.client.runtime.exportEvalSet(sessionId));
  }

  async importSession(json: string): Promise<void> {
    await this.guard(async () => {
      const imported = await this.client.runtime.importSession(json);
      await this.refreshSessions();
      await this.open(imported.id);
      this.set({ notice: `Imported “${imported.title}”.` });
    });
  }

  async send(text: string, attachments: OutgoingAttachment[] = []): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId || (!text.trim() && attachments.length === 0)) return;
    // A question the agent asked (ask_user) takes the next message as its reply, as ADK takes
    // a plain-text reply to its own question.
    const question = this.waitingQuestion();
    if (question && attachments.length === 0)
      return this.respond(question.callId, question.name, { result: text });
    this.set({ sent: sentText(text, attachments) });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.send(sessionId, text, onEvent, attachments),
    );
  }

  /**
   * Rejects the approvals the session waits for (each run goes on, told the user declined),
   * then sends the message: what the composer does when the user sends while one waits.
   */
  async rejectAndSend(text: string, attachments: OutgoingAttachment[] = []): Promise<void> {
    // An agent told no may ask again (a flow's retry): a few rounds, then the user decides.
    for (let round = 0; round < REJECT_ROUNDS; round++) {
      const current = this.state.current;
      if (!current) return;
      const waiting = sessionView(current).approvals;
      if (waiting.length === 0) return this.send(text, attachments);
      for (const approval of waiting) {
        await this.answer(approval.requestId, false);
        if (this.state.error) return;
      }
    }
    const current = this.state.current;
    if (current && sessionView(current).approvals.length === 0) return this.send(text, attachments);
    // Nothing the user typed is lost: the message goes back to the composer.
    this.set({
      returned: { text, attachments },
      notice: 'The agent asked for approval again: answer it, then send your message.',
    });
  }

  stop(): void {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.stopped = true;
    void this.client.runtime.stop(sessionId);
  }

  selectTurn(invocationId: string | undefined): void {
    this.set({ selectedTurnId: invocationId });
  }

  /** Rewinds before the turn `invocationId`; the chat then says so, with an undo. */
  rewind(invocationId: string): Promise<void> {
    if (this.state.current?.summary.remote) return this.rewindRemote(invocationId);
    const text = this.turnText(invocationId);
    return this.rewound(
      (sessionId) => this.client.runtime.rewind(sessionId, invocationId),
      text === undefined ? 'Rewound.' : `Rewound to before “${text}”.`,
    );
  }

  /**
   * Rewinds a session on an ADK server: by the server's own rewind, or into a new session on it
   * (which then opens, saying what it kept).
   */
  private async rewindRemote(invocationId: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    await this.guard(async () => {
      const done = await this.client.runtime.rewindRemote(sessionId, invocationId);
      await this.refreshSessions();
      if (done.sessionId === sessionId) await this.reload();
      else await this.open(done.sessionId);
      this.set({ notice: done.note, selectedTurnId: undefined });
    });
  }

  /** The spans the open ADK server session's server recorded ([] when it keeps none). */
  async remoteTrace(): Promise<AdkSpan[] | undefined> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return undefined;
    return this.guard(() => this.client.runtime.remoteTrace(sessionId));
  }

  /** Imports the open ADK server session into this browser, and opens the copy. */
  async copyToBrowser(): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    await this.guard(async () => {
      const copy = await this.client.runtime.copyToBrowser(sessionId);
      await this.refreshSessions();
      await this.open(copy.id);
      this.set({
        notice: `Copied to this browser as “${copy.title}”: it works offline now, with a local agent.`,
      });
    });
  }

  /** Brings back the branch of the turn `invocationId`, off the active path. */
  switchToBranch(invocationId: string): Promise<void> {
    const text = this.turnText(invocationId);
    return this.rewound(
      (sessionId) => this.client.runtime.switchToBranch(sessionId, invocationId),
      text === undefined ? 'Switched branch.' : `Switched to the branch of “${text}”.`,
    );
  }

  /** Takes back the last rewind or switch: rewinds before its marker, which brings back what it left. */
  async undoRewind(): Promise<void> {
    const last = this.state.rewind;
    if (!last) return;
    await this.rewound(
      (sessionId) => this.client.runtime.rewind(sessionId, last.markerInvocationId),
      undefined,
    );
    if (!this.state.error) this.set({ notice: 'Undone: the conversation is back as it was.' });
  }

  /** Rewinds a flow session to before a node ran; the run can then resume from that node. */
  async rewindToCheckpoint(checkpointEventId: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    await this.guard(async () => {
      await this.client.runtime.rewindToCheckpoint(sessionId, checkpointEventId);
      await this.reload();
      await this.refreshInterrupted();
    });
  }

  async edit(invocationId: string, text: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ selectedTurnId: undefined, sent: text.trim() });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.edit(sessionId, invocationId, text, onEvent),
    );
  }

  /** Asks the turn's message again; the old answer stays as a branch. */
  async regenerate(invocationId: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ selectedTurnId: undefined });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.regenerate(sessionId, invocationId, onEvent),
    );
  }

  /** Saves the user's edit of the open session's state (one turn); true once it is stored. */
  async editState(changes: Readonly<Record<string, unknown>>): Promise<boolean> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return false;
    const saved = await this.guard(async () => {
      await this.client.runtime.editState(sessionId, { ...changes });
      await this.reload();
      return true;
    });
    return saved ?? false;
  }

  /** The state a re-run of the turn starts from (History's "Edit state and re-run"). */
  stateBefore(invocationId: string): Promise<Record<string, unknown> | undefined> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return Promise.resolve(undefined);
    return this.guard(() => this.client.runtime.stateBefore(sessionId, invocationId));
  }

  /** Rewinds to before the turn, saves the state edit, and asks the turn's message again. */
  async editStateAndRerun(
    invocationId: string,
    changes: Readonly<Record<string, unknown>>,
  ): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ selectedTurnId: undefined });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.editStateAndRerun(sessionId, invocationId, { ...changes }, onEvent),
    );
  }

  async fork(invocationId: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    await this.guard(async () => {
      const fork = await this.client.runtime.fork(sessionId, invocationId);
      await this.refreshSessions();
      await this.open(fork.id);
      this.set({ notice: `Forked into “${fork.title}”.` });
    });
  }

  async resume(run: InterruptedRun): Promise<void> {
    if (this.state.current?.summary.id !== run.sessionId) await this.open(run.sessionId);
    await this.running(run.sessionId, (onEvent) =>
      this.client.runtime.resume(run.sessionId, run.invocationId, onEvent),
    );
  }

  async answer(requestId: string, confirmed: boolean, payload?: unknown): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ answered: [...this.state.answered, requestId] });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.answer(sessionId, requestId, confirmed, payload, onEvent),
    );
  }

  /** Approves a call, and lets its tool run without asking from now on (policy: always). */
  async allowAlways(requestId: string, toolName: string): Promise<void> {
    const set = await this.guard(async () => {
      await this.client.runtime.setToolPolicy(toolName, 'always');
      return true;
    });
    if (set) await this.answer(requestId, true);
  }

  /**
   * Replies to a paused call (a question, a long-running tool) with its function response: the
   * run that waits for it goes on.
   */
  async respond(callId: string, name: string, response: Record<string, unknown>): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    this.set({ answered: [...this.state.answered, callId] });
    await this.running(sessionId, (onEvent) =>
      this.client.runtime.respond(sessionId, callId, name, response, onEvent),
    );
  }

  /** The question the open session waits on, unless an approval comes first. */
  waitingQuestion(): InputRequest | undefined {
    const current = this.state.current;
    if (!current) return undefined;
    const view = sessionView(current);
    if (view.approvals.some((approval) => !this.state.answered.includes(approval.requestId)))
      return undefined;
    return view.inputs.find(
      (input) => input.kind === 'question' && !this.state.answered.includes(input.callId),
    );
  }

  async updateSettings(patch: Partial<Settings>): Promise<void> {
    await this.guard(async () =>
      this.set({ settings: await this.client.runtime.updateSettings(patch) }),
    );
  }

  loadArtifact(filename: string, version: number) {
    const sessionId = this.state.current?.summary.id;
    return sessionId
      ? this.client.runtime.loadArtifact(sessionId, filename, version)
      : Promise.resolve(undefined);
  }

  dismiss(): void {
    this.set({ error: undefined, notice: undefined });
  }

  /** Rewinds the open session by `rewind`, then draws it again. */
  private async rewound(
    rewind: (sessionId: string) => Promise<Event>,
    said: string | undefined,
  ): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    await this.guard(async () => {
      const marker = await rewind(sessionId);
      this.set({
        selectedTurnId: undefined,
        rewind: said === undefined ? undefined : { said, markerInvocationId: marker.invocationId },
      });
      await this.reload();
      await this.refreshInterrupted();
    });
  }

  /** The text of a turn the open session shows in History. */
  private turnText(invocationId: string): string | undefined {
    const current = this.state.current;
    return (
      current && sessionView(current).history.find((row) => row.invocationId === invocationId)?.text
    );
  }

  /** Runs that can be resumed without an answer from the user (cut off, or stopped). */
  private async resumeAll(): Promise<void> {
    for (const run of this.state.interrupted.filter((item) => item.status === 'interrupted'))
      await this.resume(run);
  }

  /**
   * Runs something that streams events of the current session: partial events feed the live
   * text, stored ones join the log (and update the state) as they come. A failure the run logged
   * as an error event is shown there, in the chat, not a second time in the error banner.
   */
  private async running(
    sessionId: string,
    start: (onEvent: (event: Event) => void) => Promise<void>,
  ): Promise<void> {
    this.set({
      running: true,
      runEventIds: new Set(),
      error: undefined,
      notice: undefined,
      rewind: undefined,
      stoppedText: undefined,
      returned: undefined,
    });
    this.stopped = false;
    const logged: Event[] = [];
    const failure = await start(
      this.client.callback((event) => {
        if (!event.partial) logged.push(event);
        this.onEvent(sessionId, event);
      }),
    ).then(
      () => undefined,
      (error: unknown) => error ?? new Error('The run failed'),
    );
    this.flushStream();
    // What a stopped answer had said stays shown, marked as stopped (partial text is not stored).
    const cut = this.stopped ? this.state.streaming : undefined;
    this.set({ running: false, streaming: undefined, stoppedText: cut });
    if (this.state.current?.summary.id === sessionId) await this.reload();
    // Stop cancels the run: its AbortError is no failure. Any other AbortError (a tool's own
    // request, a store that gave up) is one, and is shown.
    const cancelled = this.stopped && (failure as Error | undefined)?.name === 'AbortError';
    if (failure !== undefined && !cancelled && !showsError(logged, (failure as Error).message))
      this.fail(failure);
    this.set({ sent: undefined, answered: [], runEventIds: new Set() });
    await Promise.all([this.refreshSessions(), this.refreshInterrupted()]);
  }

  private onEvent(sessionId: string, event: Event): void {
    const current = this.state.current;
    if (current?.summary.id !== sessionId) return;
    if (event.partial) {
      const previous = this.pendingStream ?? this.state.streaming;
      const text =
        (previous?.eventId === event.id ? previous.text : '') +
        (event.content?.parts[0]?.text ?? '');
      // Drawn once a frame, however fast chunks come: a fast model (or a long answer at the
      // demos' instant pace) sends hundreds a second, and each drawing costs the whole chat.
      this.pendingStream = { eventId: event.id, author: event.author, text };
      this.streamFrame ??= nextFrame(() => this.flushStream());
      return;
    }
    this.flushStream();
    this.set({
      current: withStoredEvent(current, event),
      usage: this.state.usage && withEventUsage(this.state.usage, event),
      runEventIds: new Set([...this.state.runEventIds, event.id]),
      // The answer a stream was drawing is stored: by the same id (Trellis's models), or as the
      // author's next complete event (an ADK server's stream gives each chunk an id of its own).
      streaming:
        this.state.streaming?.eventId === event.id || this.state.streaming?.author === event.author
          ? undefined
          : this.state.streaming,
      // The user's message, stored: it joins the log, and is no longer shown as not saved yet.
      ...(event.author === 'user' ? { sent: undefined } : {}),
    });
  }

  /** Draws the streamed text that came since the last frame. */
  private flushStream(): void {
    this.streamFrame?.();
    this.streamFrame = undefined;
    const pending = this.pendingStream;
    if (!pending) return;
    this.pendingStream = undefined;
    this.set({ streaming: pending });
  }

  private onBroadcast(message: RuntimeBroadcast): void {
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
  private async reload(): Promise<void> {
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

  private async readLog(sessionId: string, from: number, limit: number): Promise<void> {
    await this.guard(async () => {
      const page = await this.client.runtime.readLog(sessionId, from, Math.max(limit, LOG_PAGE));
      if (this.state.current?.summary.id !== sessionId) return;
      this.set({ log: { from, entries: page.entries, eventCount: page.eventCount } });
    });
  }

  /** Counts the session's usage (what the log holds beyond the count kept is counted now). */
  private async refreshUsage(sessionId: string): Promise<void> {
    try {
      const usage = await this.client.runtime.sessionUsage(sessionId);
      if (this.state.current?.summary.id === sessionId) this.set({ usage });
    } catch {
      // The totals are a courtesy: a session deleted meanwhile, say, has none to show.
    }
  }

  private async refreshAgents(): Promise<void> {
    await this.guard(async () => this.set({ agents: await this.client.runtime.agents() }));
  }

  private async refreshSessions(): Promise<void> {
    await this.guard(async () => this.set({ sessions: await this.client.runtime.listSessions() }));
  }

  private async refreshInterrupted(): Promise<void> {
    await this.guard(async () =>
      this.set({ interrupted: await this.client.runtime.interruptedRuns() }),
    );
  }

  /** Runs an action; its failure becomes the error shown. */
  private async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /** Shows a failure as the error. */
  private fail(error: unknown): void {
    const message = (error as Error | null)?.message ?? String(error);
    if (isTrellisError(error, 'SessionBusyError')) this.set({ busyElsewhere: true });
    this.set({ error: message });
  }
}

/** The message as shown until the log has it: its text, and the names of its files. */
function sentText(text: string, attachments: readonly OutgoingAttachment[]): string {
  const files = attachments.map((file) => `📎 ${file.name}`).join('\n');
  return [text.trim(), files].filter(Boolean).join('\n');
}

/** Runs `draw` at the next frame (a timer where there are no frames); returns its cancel. */
function nextFrame(draw: () => void): () => void {
  if (typeof requestAnimationFrame === 'function') {
    const frame = requestAnimationFrame(draw);
    return () => cancelAnimationFrame(frame);
  }
  const timer = setTimeout(draw, 16);
  return () => clearTimeout(timer);
}
