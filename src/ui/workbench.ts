// The workbench's view model: what the page shows, and every action a user can take. It talks to
// the runtime worker only (through the client module) and never writes IndexedDB itself.

import { ViewState } from './view-state.ts';
import type { Remote } from 'comlink';
import { applyDelta } from '../core/state.ts';
import { isTrellisError } from '../core/errors.ts';
import { showsError } from './chat-model.ts';
import type { Event } from '../core/event.ts';
import type { RuntimeApi } from '../../workers/runtime.ts';
import type {
  AgentInfo,
  InterruptedRun,
  RuntimeBroadcast,
  SessionSnapshot,
  SessionSummary,
  Settings,
} from '../../workers/protocol.ts';
import { DEFAULT_SETTINGS } from '../../workers/protocol.ts';

export interface Streaming {
  eventId: string;
  author: string;
  text: string;
}

export interface WorkbenchState {
  ready: boolean;
  agents: AgentInfo[];
  sessions: SessionSummary[];
  current: SessionSnapshot | undefined;
  /** This tab is running the current session. */
  running: boolean;
  /** Another tab is running the current session. */
  busyElsewhere: boolean;
  streaming: Streaming | undefined;
  interrupted: InterruptedRun[];
  settings: Settings;
  selectedTurnId: string | undefined;
  /** The message being sent, shown until the log has it (the runner does not yield it). */
  sent: string | undefined;
  /** Confirmation requests answered in this run, hidden until the log has the answers. */
  answered: readonly string[];
  /** Ids of the events this tab's run has stored so far (they follow the message just sent). */
  runEventIds: ReadonlySet<string>;
  error: string | undefined;
  notice: string | undefined;
}

export interface RuntimeClient {
  runtime: Remote<RuntimeApi>;
  /** Wraps a callback so that the worker can call it (Comlink's proxy). */
  callback: (listener: (event: Event) => void) => (event: Event) => void;
  /** Listens to what every tab's worker says it changed; returns the unsubscribe. */
  onBroadcast: (listener: (message: RuntimeBroadcast) => void) => () => void;
}

const INITIAL: WorkbenchState = {
  ready: false,
  agents: [],
  sessions: [],
  current: undefined,
  running: false,
  busyElsewhere: false,
  streaming: undefined,
  interrupted: [],
  settings: DEFAULT_SETTINGS,
  selectedTurnId: undefined,
  sent: undefined,
  answered: [],
  runEventIds: new Set(),
  error: undefined,
  notice: undefined,
};

export class Workbench extends ViewState<WorkbenchState> {
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;

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
      const first = sessions[0] ?? (await runtime.createSession());
      if (!sessions[0]) this.set({ sessions: [first] });
      await this.open(first.id);
      await this.refreshInterrupted();
      this.set({ ready: true });
      if (settings.autoResume) await this.resumeAll();
    });
    // A tab that was just closed may still have held its locks when we first looked.
    setTimeout(() => void this.refreshInterrupted(), 1500);
  }

  async open(sessionId: string): Promise<void> {
    await this.guard(async () => {
      const [current, busy] = await Promise.all([
        this.client.runtime.openSession(sessionId),
        this.client.runtime.busySessions(),
      ]);
      this.set({
        current,
        busyElsewhere: busy.includes(sessionId),
        selectedTurnId: undefined,
        streaming: undefined,
      });
    });
  }

  async newSession(): Promise<void> {
    await this.guard(async () => {
      const agentId = this.state.current?.summary.agentId;
      const created = await this.client.runtime.createSession(agentId);
      await this.refreshSessions();
      await this.open(created.id);
    });
  }

  async rename(sessionId: string, title: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.renameSession(sessionId, title);
      await this.refreshSessions();
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

  async importSession(json: string): Promise<void> {
    await this.guard(async () => {
      const imported = await this.client.runtime.importSession(json);
      await this.refreshSessions();
      await this.open(imported.id);
      this.set({ notice: `Imported “${imported.title}”.` });
    });
  }

  async send(text: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId || !text.trim()) return;
    this.set({ sent: text.trim() });
    await this.running(sessionId, (onEvent) => this.client.runtime.send(sessionId, text, onEvent));
  }

  stop(): void {
    const sessionId = this.state.current?.summary.id;
    if (sessionId) void this.client.runtime.stop(sessionId);
  }

  selectTurn(invocationId: string | undefined): void {
    this.set({ selectedTurnId: invocationId });
  }

  /** Rewinds before `invocationId`: a turn, or the marker that left a branch (switch branch). */
  async rewind(invocationId: string): Promise<void> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return;
    await this.guard(async () => {
      await this.client.runtime.rewind(sessionId, invocationId);
      this.set({ selectedTurnId: undefined });
      await this.reload();
      await this.refreshInterrupted();
    });
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
    this.set({ running: true, runEventIds: new Set(), error: undefined, notice: undefined });
    const before = this.state.current?.events.length ?? 0;
    const failure = await start(
      this.client.callback((event) => this.onEvent(sessionId, event)),
    ).then(
      () => undefined,
      (error: unknown) => error ?? new Error('The run failed'),
    );
    this.set({ running: false, streaming: undefined });
    if (this.state.current?.summary.id === sessionId) await this.reload();
    const logged = this.state.current?.events.slice(before) ?? [];
    if (failure !== undefined && !showsError(logged, (failure as Error).message))
      this.fail(failure);
    this.set({ sent: undefined, answered: [], runEventIds: new Set() });
    await Promise.all([this.refreshSessions(), this.refreshInterrupted()]);
  }

  private onEvent(sessionId: string, event: Event): void {
    const current = this.state.current;
    if (current?.summary.id !== sessionId) return;
    if (event.partial) {
      const previous = this.state.streaming;
      const text =
        (previous?.eventId === event.id ? previous.text : '') +
        (event.content?.parts[0]?.text ?? '');
      this.set({ streaming: { eventId: event.id, author: event.author, text } });
      return;
    }
    // Stored events carry no temp: keys, so the delta applies as it is.
    const state = applyDelta(current.state, event.actions.stateDelta);
    this.set({
      current: { ...current, events: [...current.events, event], state },
      runEventIds: new Set([...this.state.runEventIds, event.id]),
      streaming: this.state.streaming?.eventId === event.id ? undefined : this.state.streaming,
    });
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
      // Another tab changed the open session: follow it (at most every 150 ms).
      clearTimeout(this.refreshTimer);
      this.refreshTimer = setTimeout(() => void this.reload(), 150);
    }
  }

  /**
   * Brings the open session up to date. The log only grows, so only the events this page has
   * not seen yet cross from the worker (the ones of this tab's run are set aside: the log has the
   * user's message before them, which the page never got).
   */
  private async reload(): Promise<void> {
    const current = this.state.current;
    if (!current) return;
    const known = current.events.length - this.state.runEventIds.size;
    await this.guard(async () => {
      const fresh = await this.client.runtime.openSession(current.summary.id, known);
      const events = [...current.events.slice(0, known), ...fresh.events];
      if (this.state.current?.summary.id === current.summary.id)
        this.set({ current: { ...fresh, events } });
    });
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

  /** Runs an action; its failure becomes the error shown (a cancelled one is not a failure). */
  private async guard<T>(action: () => Promise<T>): Promise<T | undefined> {
    try {
      return await action();
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /** Shows a failure as the error (a cancelled action is not a failure). */
  private fail(error: unknown): void {
    if ((error as Error | null)?.name === 'AbortError') return;
    const message = (error as Error | null)?.message ?? String(error);
    if (isTrellisError(error, 'SessionBusyError')) this.set({ busyElsewhere: true });
    this.set({ error: message });
  }
}
