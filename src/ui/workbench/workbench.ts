// The workbench's view model: what the page shows, and every action a user can take. It talks to
// the runtime worker only (through the client module) and never writes IndexedDB itself. It is
// built in layers: the open session as shown (workbench-opening.ts), its runs
// (workbench-runs.ts), and here the user's other actions: sessions, rewinds, state edits, files.

import type { AdkSpan } from '../../remote/client.ts';
import type { Event } from '../../core/event.ts';
import type {
  ChatSettings,
  ConnectionTest,
  ExportRequest,
  ExportTurnChoice,
  LocalModelLoad,
  ProviderInfo,
  Settings,
} from '../../../workers/protocol.ts';
import type { ExportedFile } from '../export/export-file.ts';
import { authorNames } from './open-session-model.ts';
import { sessionView } from './session-view.ts';
import { WorkbenchRuns } from './workbench-runs.ts';

export {
  LOG_PAGE,
  MORE,
  type LogPages,
  type RuntimeClient,
  type Streaming,
  type WorkbenchState,
} from './workbench-state.ts';

const NONE: ReadonlySet<string> = new Set();

export class Workbench extends WorkbenchRuns {
  /**
   * Reads what the page needs and opens `sessionId` (the page's address), or when it names no
   * session in this browser the latest one, saying so. `hidden`: sessions deleted and waiting
   * for their Undo to pass (pending-deletes.ts), never opened.
   */
  async init(sessionId?: string, hidden: ReadonlySet<string> = NONE): Promise<void> {
    const { runtime } = this.client;
    this.client.onBroadcast((message) => this.onBroadcast(message));
    await this.guard(async () => {
      const [agents, settings, sessions] = await Promise.all([
        runtime.agents(),
        runtime.settings(),
        runtime.listSessions(),
      ]);
      this.set({ agents, settings, sessions });
      if (sessionId === undefined || !(await this.openFromAddress(sessionId, hidden))) {
        await this.openOther(hidden);
        if (sessionId !== undefined) this.sayMissing(sessionId, hidden);
      }
      await this.refreshInterrupted();
      this.set({ ready: true });
      await this.sayUnreadableSettings();
      if (settings.autoResume) await this.resumeAll();
    });
    // A tab that was just closed may still have held its locks when we first looked.
    setTimeout(() => void this.refreshInterrupted(), 1500);
  }

  /**
   * Says which stored settings could not be read (a malformed value, e.g. from an old version):
   * each runs on its default until changed. Said until dismissed, as an error is.
   */
  private async sayUnreadableSettings(): Promise<void> {
    const problems = await this.client.runtime.settingProblems();
    if (problems.length === 0) return;
    const named = problems.map(({ label, problem }) => `${label} (${problem})`).join('; ');
    this.set({
      error: `Some of your settings could not be read, and are back to their defaults: ${named}. Setting them again replaces what was stored.`,
    });
  }

  /**
   * Opens the session the page's address names: false when this browser has no such session
   * (deleted, or made in another browser), it is deleted and waiting for its Undo, or it could
   * not be opened (an ADK server out of reach: the error says so).
   */
  async openFromAddress(sessionId: string, hidden: ReadonlySet<string> = NONE): Promise<boolean> {
    if (hidden.has(sessionId) || !this.state.sessions.some((s) => s.id === sessionId)) return false;
    await this.open(sessionId);
    return this.state.current?.summary.id === sessionId;
  }

  /**
   * Opens a session other than those in `hidden`: one in this browser, which needs no network
   * (one on an ADK server may be out of reach), or a new one when there is none.
   */
  async openOther(hidden: ReadonlySet<string> = NONE): Promise<void> {
    await this.guard(async () => {
      const { sessions } = this.state;
      const local = sessions.find((session) => !session.remote && !hidden.has(session.id));
      const next = local ?? (await this.client.runtime.createSession());
      if (!local) this.set({ sessions: [next, ...sessions] });
      await this.open(next.id);
    });
  }

  /** Says that the address named `sessionId`, which is not here (a session that is says why not). */
  sayMissing(sessionId: string, hidden: ReadonlySet<string> = NONE): void {
    if (!hidden.has(sessionId) && this.state.sessions.some((s) => s.id === sessionId)) return;
    const title = this.state.current?.summary.title;
    this.set({
      notice: `The address named a session that is not in this browser (deleted, or made in another browser)${title === undefined ? '.' : `: showing “${title}”.`}`,
    });
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
      // The open session's heading shows its summary: give it the title as stored (trimmed,
      // capped).
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

  /** Share and export: the session, or a range of its turns, as a page, Markdown or JSON. */
  exportAs(sessionId: string, request: ExportRequest): Promise<ExportedFile | undefined> {
    const agentId = this.state.sessions.find((s) => s.id === sessionId)?.agentId;
    const agent = this.state.agents.find((a) => a.id === agentId);
    const context = { agentName: agent?.name, authors: authorNames(agent) };
    return this.guard(async () =>
      (await import('../export/export-file.ts')).exportFile(
        this.client.runtime,
        sessionId,
        request,
        context,
      ),
    );
  }

  /** The turns of the active conversation, for Share → Some turns… */
  exportTurns(sessionId: string): Promise<ExportTurnChoice[] | undefined> {
    return this.guard(() => this.client.runtime.exportTurns(sessionId));
  }

  /** *Add to memory*: the session's conversation, whole, for agents that remember. */
  async addToMemory(sessionId: string): Promise<void> {
    await this.guard(async () => {
      const count = await this.client.runtime.addSessionToMemory(sessionId);
      const title = this.state.sessions.find((session) => session.id === sessionId)?.title;
      const what = count === 1 ? '1 memory' : `${count} memories`;
      this.set({
        notice: `Added ${title === undefined ? 'the session' : `“${title}”`} to memory (${what}): see Settings → Memory.`,
      });
    });
  }

  async importSession(json: string): Promise<void> {
    await this.guard(async () => {
      const imported = await this.client.runtime.importSession(json);
      await this.refreshSessions();
      await this.open(imported.id);
      this.set({ notice: `Imported “${imported.title}”.` });
    });
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

  /** "Chat with a model": saves the open chat's model settings (a turn of its history). */
  async setChatSettings(settings: ChatSettings): Promise<boolean> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return false;
    const saved = await this.guard(async () => {
      await this.client.runtime.setChatSettings(sessionId, settings);
      await this.reload();
      return true;
    });
    return saved ?? false;
  }

  /** The providers, and one's models: what a chat's Model settings offer. */
  listProviders(): Promise<ProviderInfo[]> {
    return this.client.runtime.listProviders();
  }

  providerModels(providerId: string): Promise<ConnectionTest> {
    return this.client.runtime.providerModels(providerId);
  }

  /** The local models this tab's worker is loading now (the chat shows them while a turn waits). */
  localModelLoads(): Promise<LocalModelLoad[]> {
    return this.client.runtime.localModelLoads();
  }

  /** One value of the open session's state, whole (its opening has only a preview of a long one). */
  stateValue(key: string): Promise<unknown> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return Promise.resolve(undefined);
    return this.guard(() => this.client.runtime.stateValue(sessionId, key));
  }

  /** The state a re-run of the turn starts from (History's "Edit state and re-run"). */
  stateBefore(invocationId: string): Promise<Record<string, unknown> | undefined> {
    const sessionId = this.state.current?.summary.id;
    if (!sessionId) return Promise.resolve(undefined);
    return this.guard(() => this.client.runtime.stateBefore(sessionId, invocationId));
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
}
