// The app's runtime, as the worker runs it: IndexedDB services, one resumable runner per agent,
// session titles and settings, and the rules of the house:
// - every run, rewind, edit, resume and answer holds the session's lock (one tab at a time);
// - after every change it broadcasts what changed, so that other tabs update live;
// - a run can be stopped; it is then interrupted, and can be resumed.
// Flows (the Flows view, flow agents, checkpoints) are in app-flows.ts; model providers and the
// agent builder's agents in app-providers.ts and app-agent-specs.ts.

import { DEFAULT_AGENT_ID } from '../src/demos/index.ts';
import { INSTANT_DEMO, type DemoTiming } from '../src/demos/writing-workflow.ts';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  InvalidRequestError,
  InvocationNotFoundError,
  REQUEST_CONFIRMATION_FUNCTION,
  Runner,
  SessionNotFoundError,
  isUserArtifact,
  textOf,
  type BaseAgent,
  type Content,
  type Event,
  type HttpModelOptions,
  type InterruptedInvocation,
  type Part,
  type RunConfig,
} from '../src/index.ts';
import { IndexedDbAppStore, type SessionMeta } from '../src/store/app-store.ts';
import type { LogPage, RunRecord } from '../src/store/session-service.ts';
import { AppAgentSpecs } from './app-agent-specs.ts';
import { AppAgents } from './app-agents.ts';
import { AppFlows, REWIND_OWNER, rewindToCheckpoint } from './app-flows.ts';
import { AppToolServers } from './app-tool-servers.ts';
import { AppOpenings } from './app-openings.ts';
import { AppProviders } from './app-providers.ts';
import type { LocalModels } from './local-models.ts';
import {
  exportEvalSetFile,
  exportSessionFile,
  importSessionFile,
  type SessionFileDeps,
} from './app-session-files.ts';
import {
  DEFAULT_SETTINGS,
  type AgentInfo,
  type InterruptedRun,
  type RunCause,
  type OutgoingAttachment,
  type OpeningLimits,
  type RuntimeBroadcast,
  type SessionOpening,
  type SessionSnapshot,
  type SessionSummary,
  type Settings,
} from './protocol.ts';
import {
  APP_NAME,
  DEFAULT_TITLE,
  USER_ID,
  newMeta,
  summaryOf,
  userMessage,
  userText,
} from './app-sessions.ts';
import type { AttachmentPolicy } from '../src/models/attachments.ts';
import { NO_USAGE, type SessionUsage } from '../src/core/usage.ts';
import { sessionUsage, usageKey } from './app-usage.ts';
import type { SessionLocks } from './session-locks.ts';
import { AppRemote } from './app-remote.ts';
import { AppStateEdits } from './app-state-edits.ts';
import { isRemoteId } from './adk-servers.ts';
import { AppTraces } from './app-traces.ts';
import { AppBackup } from './app-backup.ts';
import { IndexedDbTraceService } from '../src/store/indexeddb-trace-service.ts';

export interface AppRuntimeOptions {
  dbName?: string;
  locks: SessionLocks;
  broadcast: (message: RuntimeBroadcast) => void;
  /** Pace of the demo agents (tests make them instant); otherwise Settings → demo pace. */
  timing?: DemoTiming;
  /** Retries and timeouts of real models (tests make retries quick). */
  modelHttp?: HttpModelOptions;
  /** Local models' files and engines (OPFS and wllama unless a test gives its own). */
  localModels?: LocalModels;
}

/** Called with each event of a run as it comes (partial ones included). */
export type EventListener = (event: Event) => void;

export class AppRuntime {
  private readonly sessions: IndexedDbSessionService;
  private readonly artifacts: IndexedDbArtifactService;
  private readonly store: IndexedDbAppStore;
  private readonly agentList: AppAgents;
  private readonly openings: AppOpenings;
  /** Stops the run of a session (the Stop button). */
  private readonly controllers = new Map<string, AbortController>();

  /** The Flows view's flows; `runtime.ts` exposes its methods. */
  readonly flows: AppFlows;
  /** Settings → Tool servers (MCP). */
  readonly toolServers: AppToolServers;
  /** Settings → Providers and the agent builder; `runtime.ts` exposes their methods. */
  readonly providers: AppProviders;
  readonly agentSpecs: AppAgentSpecs;
  /** Settings → ADK servers, and the sessions that live on them (workers/app-remote.ts). */
  readonly remote: AppRemote;
  /** The traces of the runs (workers/app-traces.ts). */
  readonly traces: AppTraces;
  /** Settings → Back up & restore (workers/app-backup.ts). */
  readonly backups: AppBackup;
  /** The State panel's edits and History's "Edit state and re-run". */
  readonly stateEdits: AppStateEdits;

  constructor(private readonly options: AppRuntimeOptions) {
    const dbName = options.dbName ? { dbName: options.dbName } : {};
    this.sessions = new IndexedDbSessionService(dbName);
    this.artifacts = new IndexedDbArtifactService(dbName);
    this.store = new IndexedDbAppStore(dbName);
    const traceService = new IndexedDbTraceService(dbName);
    this.traces = new AppTraces(this.sessions, traceService);
    this.backups = new AppBackup({
      sessions: this.sessions,
      artifacts: this.artifacts,
      store: this.store,
      broadcast: options.broadcast,
    });
    this.openings = new AppOpenings(this.sessions, this.artifacts, this.store);
    this.providers = new AppProviders(this.store, options);
    // A flow's nodes may name the providers' models (`Provider name/model`).
    // …and tools of the tool servers (`Server name/tool`).
    this.flows = new AppFlows(
      this.store,
      options,
      { resolve: (names) => this.providers.flowModels(names) },
      {
        resolve: (refs) => this.toolServers.flowTools(refs),
        policyOf: (name) => this.toolServers.policyOf(name),
      },
    );
    this.toolServers = new AppToolServers(this.store, options.broadcast, async (server) => ({
      agents: await this.agentSpecs.usingToolServer(server.id),
      flows: await this.flows.usingToolServer(server.name),
    }));
    this.agentSpecs = new AppAgentSpecs(this.store, this.providers, options, this.toolServers);
    const newRunner = (agent: BaseAgent, resumable: boolean) =>
      new Runner({
        appName: APP_NAME,
        agent,
        sessionService: this.sessions,
        artifactService: this.artifacts,
        resumabilityConfig: { isResumable: resumable },
        traceService,
        // A run is alive exactly while its session's lock is held: a closed tab drops its locks.
        runLiveness: async (run) => (await options.locks.held()).has(run.sessionId),
      });
    const timing = async () =>
      options.timing ?? ((await this.settings()).demoPace === 'instant' ? INSTANT_DEMO : undefined);
    this.agentList = new AppAgents(this.flows, timing, newRunner, this.agentSpecs);
    this.remote = new AppRemote(this.store, options.broadcast, (json) => this.importSession(json));
    this.stateEdits = new AppStateEdits({
      locks: options.locks,
      broadcast: options.broadcast,
      sessions: this.sessions,
      runnerFor: (sessionId) => this.runnerFor(sessionId),
      run: (sessionId, onEvent, start) => this.run(sessionId, onEvent, start),
      firstMessage: (sessionId, invocationId) => this.firstMessage(sessionId, invocationId),
    });
  }

  /** The demo agents, then the example flows, then the user's flows. */
  async agents(): Promise<AgentInfo[]> {
    const [local, remote] = await Promise.all([this.agentList.list(), this.remote.agents()]);
    return [...local, ...remote];
  }

  async listSessions(): Promise<SessionSummary[]> {
    const [{ sessions }, metas] = await Promise.all([
      this.sessions.listSessions({ appName: APP_NAME, userId: USER_ID }),
      this.store.listSessionMeta(APP_NAME, USER_ID),
    ]);
    const bySession = new Map(metas.map((meta) => [meta.sessionId, meta]));
    const local = sessions.map((session) => summaryOf(session, bySession.get(session.id)));
    return [...local, ...(await this.remote.listSessions())];
  }

  async createSession(agentId = DEFAULT_AGENT_ID, title = DEFAULT_TITLE): Promise<SessionSummary> {
    if (isRemoteId(agentId)) return this.remote.createSession(agentId);
    await this.agentList.check(agentId);
    const session = await this.sessions.createSession({ appName: APP_NAME, userId: USER_ID });
    const meta = newMeta(session.id, title, agentId);
    await this.store.putSessionMeta(meta);
    this.options.broadcast({ type: 'sessions-changed' });
    return summaryOf(session, meta);
  }

  async renameSession(sessionId: string, title: string): Promise<void> {
    if (isRemoteId(sessionId)) return this.remote.rename(sessionId, title);
    const clean = title.trim();
    if (!clean) throw new InvalidRequestError('A session needs a title');
    const meta = await this.meta(sessionId);
    await this.store.putSessionMeta({ ...meta, title: clean.slice(0, 120) });
    this.options.broadcast({ type: 'sessions-changed' });
  }

  async setAgent(sessionId: string, agentId: string): Promise<void> {
    localOnly(sessionId, 'Choosing another agent');
    if (isRemoteId(agentId))
      throw new InvalidRequestError(
        'An ADK server app answers in its own sessions: start a new session with it',
      );
    await this.agentList.check(agentId);
    await this.locked(sessionId, async () => {
      const meta = await this.meta(sessionId);
      await this.store.putSessionMeta({ ...meta, agentId });
    });
    this.options.broadcast({ type: 'sessions-changed' });
  }

  async deleteSession(sessionId: string): Promise<void> {
    // A remote session is only taken off the list: it stays on its server.
    if (isRemoteId(sessionId)) return this.remote.forget(sessionId);
    await this.locked(sessionId, async () => {
      const key = this.key(sessionId);
      const files = await this.artifacts.listArtifactKeys(key);
      await this.sessions.deleteSession(key);
      await Promise.all(
        files
          .filter((file) => !isUserArtifact(file))
          .map((filename) => this.artifacts.deleteArtifact({ ...key, filename })),
      );
      await this.store.deleteSessionMeta(APP_NAME, USER_ID, sessionId);
      await this.store.deleteSetting(usageKey(sessionId));
    });
    this.options.broadcast({ type: 'sessions-changed' });
  }

  /** The whole session, every event of its log (tests read a run's log with it). */
  openSession(sessionId: string): Promise<SessionSnapshot> {
    return this.openings.whole(sessionId);
  }

  /** What the page needs to draw a session, read without reading its whole log. */
  openSessionSummary(sessionId: string, limits?: OpeningLimits): Promise<SessionOpening> {
    if (isRemoteId(sessionId)) return this.remote.opening(sessionId, limits);
    return this.openings.opening(sessionId, limits);
  }

  /** One state value whole (an opening sends long ones as previews). */
  stateValue(sessionId: string, key: string): Promise<unknown> {
    if (isRemoteId(sessionId)) return this.remote.stateValue(sessionId, key);
    return this.openings.stateValue(sessionId, key);
  }

  /** What the session's model calls cost so far: calls, tokens, time. */
  sessionUsage(sessionId: string): Promise<SessionUsage> {
    if (isRemoteId(sessionId)) return Promise.resolve(NO_USAGE);
    return sessionUsage(this.sessions, this.store, sessionId);
  }

  /** A page of the raw log for the event log (markers included), oldest first. */
  readLog(sessionId: string, fromSeq: number, limit: number): Promise<LogPage> {
    if (isRemoteId(sessionId)) return this.remote.logPage(sessionId, fromSeq, limit);
    return this.openings.logPage(sessionId, fromSeq, limit);
  }

  /** Sends a message as a new turn, with the files attached to it. */
  async send(
    sessionId: string,
    text: string,
    onEvent: EventListener,
    attachments: readonly OutgoingAttachment[] = [],
  ): Promise<void> {
    if (isRemoteId(sessionId)) {
      if (attachments.length > 0)
        throw new InvalidRequestError('Files are not sent to ADK servers yet: send the text alone');
      return this.remote.send(sessionId, text, onEvent);
    }
    const message =
      attachments.length === 0
        ? userText(text)
        : userMessage(text, attachments, await this.attachmentPolicy(sessionId));
    await this.run(sessionId, onEvent, async (runner, runConfig) => {
      await this.titleFromFirstMessage(sessionId, message);
      return runner.runAsync({
        userId: USER_ID,
        sessionId,
        newMessage: message,
        runConfig,
      });
    });
  }

  /** Stops the session's run; it is then interrupted and can be resumed. */
  stop(sessionId: string): void {
    this.remote.stop(sessionId);
    this.controllers.get(sessionId)?.abort();
  }

  rewind(sessionId: string, rewindBeforeInvocationId: string): Promise<Event> {
    localOnly(sessionId, 'This rewind');
    return this.rewindBefore(sessionId, async () => rewindBeforeInvocationId);
  }

  /**
   * Brings back the branch of a turn off the active path (History's "Switch to this branch"):
   * rewinds before the last marker that left it, found under the lock, so that what it found
   * still holds when it rewinds.
   */
  switchToBranch(sessionId: string, invocationId: string): Promise<Event> {
    localOnly(sessionId, 'Switching branches');
    return this.rewindBefore(sessionId, () =>
      this.sessions.getSwitchMarker({ ...this.key(sessionId), invocationId }),
    );
  }

  /** Rewinds a flow session to before a node ran (after its checkpoint); it can then resume. */
  async rewindToCheckpoint(sessionId: string, checkpointEventId: string): Promise<Event> {
    localOnly(sessionId, 'Rewinding to a checkpoint');
    const marker = await this.locked(sessionId, async () =>
      rewindToCheckpoint(await this.runnerFor(sessionId), USER_ID, sessionId, checkpointEventId),
    );
    this.options.broadcast({ type: 'session-changed', sessionId });
    return marker;
  }

  /**
   * Runs a turn's message again with new text (Edit): the files it carried go with it. The old
   * version stays as a branch.
   */
  async edit(
    sessionId: string,
    invocationId: string,
    text: string,
    onEvent: EventListener,
  ): Promise<void> {
    localOnly(sessionId, 'Edit');
    const files = (await this.firstMessage(sessionId, invocationId))?.parts.filter(
      (part) => part.inlineData,
    );
    const newMessage = userText(text);
    if (files?.length) newMessage.parts.push(...files);
    await this.editRun(sessionId, invocationId, newMessage, onEvent);
  }

  /** Asks the same message of a turn again (Regenerate): the old answer stays as a branch. */
  async regenerate(sessionId: string, invocationId: string, onEvent: EventListener): Promise<void> {
    localOnly(sessionId, 'Regenerate');
    const message = await this.firstMessage(sessionId, invocationId);
    if (!message || message.role !== 'user' || message.parts.every((part) => part.functionResponse))
      throw new InvalidRequestError('Only a turn that began with your message can be regenerated');
    await this.editRun(sessionId, invocationId, message, onEvent);
  }

  private async editRun(
    sessionId: string,
    invocationId: string,
    newMessage: Content,
    onEvent: EventListener,
  ): Promise<void> {
    await this.run(sessionId, onEvent, async (runner, runConfig) =>
      runner.editMessageAsync({
        userId: USER_ID,
        sessionId,
        invocationId,
        newMessage,
        runConfig,
      }),
    );
  }

  async fork(sessionId: string, atInvocationId: string): Promise<SessionSummary> {
    localOnly(sessionId, 'Fork');
    const runner = await this.runnerFor(sessionId);
    const meta = await this.meta(sessionId);
    const fork = await runner.forkSessionAsync({ userId: USER_ID, sessionId, atInvocationId });
    const forkMeta = newMeta(fork.id, `${meta.title} (fork)`, meta.agentId);
    await this.store.putSessionMeta(forkMeta);
    this.options.broadcast({ type: 'sessions-changed' });
    return summaryOf(fork, forkMeta);
  }

  async resume(sessionId: string, invocationId: string, onEvent: EventListener): Promise<void> {
    if (isRemoteId(sessionId)) return this.remote.resume(sessionId, invocationId, onEvent);
    await this.run(sessionId, onEvent, async (runner, runConfig) =>
      runner.runAsync({
        userId: USER_ID,
        sessionId,
        invocationId,
        runConfig,
      }),
    );
  }

  /** Answers a confirmation request (Approve / Reject), which resumes the paused run. */
  async answer(
    sessionId: string,
    requestId: string,
    confirmed: boolean,
    payload: unknown,
    onEvent: EventListener,
  ): Promise<void> {
    const response = { confirmed, ...(payload === undefined || payload === '' ? {} : { payload }) };
    await this.respond(sessionId, requestId, REQUEST_CONFIRMATION_FUNCTION, response, onEvent);
  }

  /**
   * Answers a paused call (a long-running tool, a question to the user) with its response, as
   * the user's function response: the run that waits for it goes on.
   */
  async respond(
    sessionId: string,
    callId: string,
    name: string,
    response: Record<string, unknown>,
    onEvent: EventListener,
  ): Promise<void> {
    if (isRemoteId(sessionId))
      return this.remote.respond(sessionId, callId, name, response, onEvent);
    const newMessage: Content = {
      role: 'user',
      parts: [{ functionResponse: { id: callId, name, response } }],
    };
    await this.run(sessionId, onEvent, async (runner, runConfig) =>
      runner.runAsync({
        userId: USER_ID,
        sessionId,
        newMessage,
        runConfig,
      }),
    );
  }

  /**
   * Runs that a reload, a crash, Stop, a failure or a rewind to a checkpoint cut off, and runs
   * waiting for an answer, each with its turn's text and why it stopped.
   */
  async interruptedRuns(): Promise<InterruptedRun[]> {
    const runner = await this.agentList.runner(DEFAULT_AGENT_ID);
    const [runs, metas, records] = await Promise.all([
      runner.listInterruptedInvocations({ userId: USER_ID }),
      this.store.listSessionMeta(APP_NAME, USER_ID),
      this.sessions.listRuns({ appName: APP_NAME, userId: USER_ID }),
    ]);
    const titles = new Map(metas.map((meta) => [meta.sessionId, meta.title]));
    const agents = new Map(metas.map((meta) => [meta.sessionId, meta.agentId]));
    const byRun = new Map(records.map((record) => [record.invocationId, record]));
    const offered = await Promise.all(
      runs.map((run) => this.agentList.resumable(agents.get(run.sessionId) ?? DEFAULT_AGENT_ID)),
    );
    const remoteTitles = new Map((await this.remote.listSessions()).map((s) => [s.id, s.title]));
    const remote = this.remote.interruptedRuns(remoteTitles);
    const local = await Promise.all(
      runs
        .filter((_, i) => offered[i])
        .map(async (run) => ({
          ...run,
          sessionTitle: titles.get(run.sessionId) ?? DEFAULT_TITLE,
          turnText: await this.turnText(run.sessionId, run.invocationId),
          cause: causeOf(run, byRun.get(run.invocationId)),
        })),
    );
    return [...local, ...remote];
  }

  /** The text of the message that began a turn ('' when there is none to show). */
  private async turnText(sessionId: string, invocationId: string): Promise<string> {
    // A run whose first event is not there (left by a kill before it was written) has none.
    const message = await this.firstMessage(sessionId, invocationId).catch(() => undefined);
    const text = textOf(message).trim();
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  }

  /** The content of a turn's first event (its user's message), read without the log. */
  private async firstMessage(
    sessionId: string,
    invocationId: string,
  ): Promise<Content | undefined> {
    const key = this.key(sessionId);
    const checkpoint = await this.sessions.getInvocationCheckpoint({ ...key, invocationId });
    if (!checkpoint) throw new InvocationNotFoundError(invocationId, sessionId);
    const page = await this.sessions.listEvents({ ...key, fromSeq: checkpoint.firstSeq, limit: 1 });
    return page?.entries[0]?.event.content;
  }

  /** Which of these sessions another tab (or this one) is running right now. */
  async busySessions(): Promise<string[]> {
    return [...(await this.options.locks.held())];
  }

  loadArtifact(sessionId: string, filename: string, version?: number): Promise<Part | undefined> {
    if (isRemoteId(sessionId))
      return this.remote.loadArtifact(sessionId, filename, version) as Promise<Part | undefined>;
    return this.artifacts.loadArtifact({
      ...this.key(sessionId),
      filename,
      ...(version === undefined ? {} : { version }),
    });
  }

  async exportSession(sessionId: string): Promise<{ filename: string; json: string }> {
    localOnly(sessionId, 'Export');
    return exportSessionFile(this.fileDeps(), await this.meta(sessionId));
  }

  /** The session's active conversation as an ADK eval set of one case, for `adk eval`. */
  async exportEvalSet(sessionId: string): Promise<{ filename: string; json: string }> {
    localOnly(sessionId, 'Export');
    return exportEvalSetFile(this.fileDeps(), await this.meta(sessionId));
  }

  /** Imports a session file (Trellis's or ADK's JSON); a bad file changes nothing. */
  async importSession(json: string): Promise<SessionSummary> {
    const summary = await importSessionFile(this.fileDeps(), json);
    this.options.broadcast({ type: 'sessions-changed' });
    return summary;
  }

  async settings(): Promise<Settings> {
    return { ...DEFAULT_SETTINGS, ...(await this.store.getSetting<Partial<Settings>>('settings')) };
  }

  async updateSettings(patch: Partial<Settings>): Promise<Settings> {
    const next = { ...(await this.settings()), ...patch };
    await this.store.putSetting('settings', next);
    return next;
  }

  /**
   * Runs a stream of events under the session's lock, with a Stop button, handing each event to
   * `onEvent` and telling other tabs as events are stored.
   */
  private async run(
    sessionId: string,
    onEvent: EventListener,
    start: (runner: Runner, runConfig: RunConfig) => Promise<AsyncGenerator<Event, void>>,
  ): Promise<void> {
    await this.locked(sessionId, async () => {
      const controller = new AbortController();
      this.controllers.set(sessionId, controller);
      this.options.broadcast({ type: 'busy-changed', sessionId, busy: true });
      const runConfig: RunConfig = {
        signal: controller.signal,
        streamingMode: 'sse',
        // A file attached to a message is also an artifact of the session (as in adk-web).
        saveInputBlobsAsArtifacts: true,
        // The page shows the user's message as saved only from now on (a kill before loses it).
        onMessageStored: (event) => {
          onEvent(event);
          this.options.broadcast({ type: 'session-changed', sessionId });
        },
      };
      try {
        const runner = await this.runnerFor(sessionId);
        for await (const event of await start(runner, runConfig)) {
          onEvent(event);
          if (!event.partial) this.options.broadcast({ type: 'session-changed', sessionId });
        }
      } finally {
        this.controllers.delete(sessionId);
        this.options.broadcast({ type: 'busy-changed', sessionId, busy: false });
        this.options.broadcast({ type: 'session-changed', sessionId });
      }
    });
  }

  /** Rewinds before the invocation `target` finds, under the session's lock, and tells tabs. */
  private async rewindBefore(sessionId: string, target: () => Promise<string>): Promise<Event> {
    const marker = await this.locked(sessionId, async () => {
      const runner = await this.runnerFor(sessionId);
      const rewindBeforeInvocationId = await target();
      return runner.rewindAsync({ userId: USER_ID, sessionId, rewindBeforeInvocationId });
    });
    this.options.broadcast({ type: 'session-changed', sessionId });
    return marker;
  }

  private locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    return this.options.locks.withLock(sessionId, work);
  }

  private async attachmentPolicy(sessionId: string): Promise<AttachmentPolicy> {
    const { agentId } = await this.meta(sessionId);
    const agent = (await this.agentList.list()).find((info) => info.id === agentId);
    if (!agent) throw new InvalidRequestError(`There is no agent ${agentId}`);
    return agent.attachments;
  }

  private async runnerFor(sessionId: string): Promise<Runner> {
    return this.agentList.runner((await this.meta(sessionId)).agentId);
  }

  private async meta(sessionId: string): Promise<SessionMeta> {
    const meta = await this.store.getSessionMeta(APP_NAME, USER_ID, sessionId);
    if (meta) return meta;
    // A session made by the library directly (not through the app) gets a record on first use.
    const session = await this.sessions.getSession({
      ...this.key(sessionId),
      config: { numRecentEvents: 0 },
    });
    if (!session) throw new SessionNotFoundError(sessionId);
    return newMeta(sessionId, DEFAULT_TITLE, DEFAULT_AGENT_ID);
  }

  private async titleFromFirstMessage(sessionId: string, message: Content): Promise<void> {
    const meta = await this.meta(sessionId);
    if (meta.title !== DEFAULT_TITLE) return;
    const text = message.parts[0]?.text?.trim() ?? '';
    await this.store.putSessionMeta({
      ...meta,
      title: text.length > 48 ? `${text.slice(0, 47)}…` : text || DEFAULT_TITLE,
    });
    this.options.broadcast({ type: 'sessions-changed' });
  }

  private fileDeps(): SessionFileDeps {
    return {
      sessions: this.sessions,
      artifacts: this.artifacts,
      store: this.store,
      agents: this.agentList,
    };
  }

  private key(sessionId: string) {
    return { appName: APP_NAME, userId: USER_ID, sessionId };
  }
}

/** Why a run listed as interrupted stopped, from its record (see Runner and rewindToCheckpoint). */
function causeOf(
  run: InterruptedRun | InterruptedInvocation,
  record: RunRecord | undefined,
): RunCause {
  if (run.status === 'paused') return 'waiting';
  if (record?.ownerId === REWIND_OWNER) return 'rewound';
  if (run.error) return 'failed';
  return record?.status === 'running' ? 'cut-off' : 'stopped';
}

/** Refuses what works only on sessions in this browser, for a session on an ADK server. */
function localOnly(sessionId: string, what: string): void {
  if (isRemoteId(sessionId))
    throw new InvalidRequestError(
      `${what} works on sessions in this browser: use "Copy to this browser" on this ADK session first`,
    );
}
