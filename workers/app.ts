// The app's runtime, as the worker runs it: IndexedDB services, one resumable runner per agent,
// session titles and settings, and the rooms that do the rest, which `runtime.ts` exposes:
// - every run, rewind, edit, resume and answer holds the session's lock (one tab at a time);
// - after every change it broadcasts what changed, so that other tabs update live;
// - a run can be stopped; it is then interrupted, and can be resumed.
// Runs are in runs/runs.ts, rewinds and forks in runs/rewinds.ts, flows (the Flows view, flow
// agents, checkpoints) in flows/flows.ts; model providers and the agent builder's agents in
// providers.ts and agents/agent-specs.ts.

import { DEFAULT_AGENT_ID } from '../src/demos/index.ts';
import { INSTANT_DEMO, type DemoTiming } from '../src/demos/writing-workflow.ts';
import {
  IndexedDbArtifactService,
  IndexedDbMemoryService,
  IndexedDbSessionService,
  InvalidRequestError,
  Runner,
  SessionNotFoundError,
  type BaseAgent,
  type HttpModelOptions,
  type Part,
} from '../src/index.ts';
import { IndexedDbAppStore, type SessionMeta } from '../src/store/app-store.ts';
import type { LogPage } from '../src/store/session-service.ts';
import { AppAgentSpecs } from './agents/agent-specs.ts';
import { AppAgents } from './agents/agents.ts';
import { ModelChat } from './agents/model-chat.ts';
import { MODEL_CHAT_ID } from './agents/chat-settings.ts';
import { flowCompactors } from './agents/compaction.ts';
import { AppFlows } from './flows/flows.ts';
import { AppToolServers } from './tool-servers/tool-servers.ts';
import { AppOpenings } from './sessions/openings.ts';
import { AppProviders } from './providers.ts';
import type { LocalModels } from './local-models/local-models.ts';
import {
  exportEvalSetFile,
  exportSessionFile,
  importSessionFile,
  type SessionFileDeps,
} from './sessions/session-files.ts';
import {
  type AgentInfo,
  type OpeningLimits,
  type RuntimeBroadcast,
  type SessionOpening,
  type SessionSnapshot,
  type SessionSummary,
  type Settings,
} from './protocol.ts';
import { APP_NAME, DEFAULT_TITLE, USER_ID, newMeta, summaryOf } from './sessions/sessions.ts';
import { NO_USAGE, type SessionUsage } from '../src/core/usage.ts';
import { sessionUsage } from './sessions/usage.ts';
import { deleteSessionData } from './sessions/session-delete.ts';
import { agentContextFor, sessionContextUse } from './sessions/context-use.ts';
import type { ContextUse } from '../src/models/context-windows.ts';
import type { SessionLocks } from './runs/session-locks.ts';
import { AppRemote } from './remote/remote.ts';
import { AppStateEdits } from './sessions/state-edits.ts';
import { isRemoteId, localOnly } from './remote/adk-servers.ts';
import { AppRewinds } from './runs/rewinds.ts';
import { AppMemory } from './memory/memory.ts';
import { AppPrompts } from './prompts/prompts.ts';
import { AppKnowledge } from './knowledge/knowledge.ts';
import { AppRuns, turnFirstEvent } from './runs/runs.ts';
import { AppTraces } from './traces.ts';
import { AppBackup } from './backups/backups.ts';
import { IndexedDbTraceService } from '../src/store/indexeddb-trace-service.ts';
import { KeyVault, type ChannelLike } from './keys/key-vault.ts';
import { storedSecrets } from './keys/stored-secrets.ts';
import { settingProblem } from './settings-schema.ts';
import { readSettingProblems, readSettings, writeSettings } from './app-settings.ts';
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
  /** Where other tabs' key vaults are (KEYS_CHANNEL in the app); none in tests unless given. */
  keyChannel?: ChannelLike;
  /** PBKDF2 iterations of a new passphrase (tests use fewer). */
  keyIterations?: number;
}

export class AppRuntime {
  private readonly sessions: IndexedDbSessionService;
  private readonly artifacts: IndexedDbArtifactService;
  private readonly store: IndexedDbAppStore;
  private readonly agentList: AppAgents;
  private readonly openings: AppOpenings;
  /** Runs: send, Stop, resume, answers, Edit and Regenerate, and the runs to resume. */
  readonly runs: AppRuns;
  /** Rewinds, branch switches, checkpoints and forks. */
  readonly rewinds: AppRewinds;
  /** The Flows view's flows; `runtime.ts` exposes its methods. */
  readonly flows: AppFlows;
  /** Settings → Tool servers (MCP). */
  readonly toolServers: AppToolServers;
  /** Settings → Providers and the agent builder; `runtime.ts` exposes their methods. */
  readonly providers: AppProviders;
  /** Settings → Security: the passphrase that protects stored keys (workers/keys/key-vault.ts). */
  readonly keys: KeyVault;
  readonly agentSpecs: AppAgentSpecs;
  /** Settings → ADK servers, and the sessions that live on them (workers/remote/remote.ts). */
  readonly remote: AppRemote;
  /** The traces of the runs (workers/traces.ts). */
  readonly traces: AppTraces;
  /** Settings → Back up & restore (workers/backups/backups.ts). */
  readonly backups: AppBackup;
  /** The State panel's edits and History's "Edit state and re-run". */
  readonly stateEdits: AppStateEdits;
  /** "Chat with a model": a chat's own model settings (workers/agents/model-chat.ts). */
  readonly modelChat: ModelChat;
  /** What agents remember across sessions, and the Memory view (workers/memory/memory.ts). */
  readonly memory: AppMemory;
  readonly prompts: AppPrompts;
  readonly knowledge: AppKnowledge;
  constructor(private readonly options: AppRuntimeOptions) {
    const dbName = options.dbName ? { dbName: options.dbName } : {};
    this.sessions = new IndexedDbSessionService(dbName);
    this.artifacts = new IndexedDbArtifactService(dbName);
    this.store = new IndexedDbAppStore({ ...dbName, checkSetting: settingProblem });
    const traceService = new IndexedDbTraceService(dbName);
    const memoryService = new IndexedDbMemoryService(dbName);
    this.traces = new AppTraces(this.sessions, traceService, this.store);
    this.backups = new AppBackup({
      sessions: this.sessions,
      artifacts: this.artifacts,
      traces: traceService,
      memory: memoryService,
      store: this.store,
      broadcast: options.broadcast,
    });
    this.openings = new AppOpenings(this.sessions, this.artifacts, this.store);
    this.prompts = new AppPrompts(this.store, options.broadcast);
    this.keys = new KeyVault(this.store, {
      ...(options.keyChannel ? { channel: options.keyChannel } : {}),
      ...(options.keyIterations ? { iterations: options.keyIterations } : {}),
      onChange: () => options.broadcast({ type: 'keys-changed' }),
    });
    this.keys.useRewriter(storedSecrets(this.store));
    this.providers = new AppProviders(this.store, { ...options, vault: this.keys });
    // A flow's nodes may name the providers' models (`Provider name/model`) and servers' tools.
    this.flows = new AppFlows(
      this.store,
      options,
      {
        resolve: (names) => this.providers.flowModels(names),
        // A flow's long chat compacts as a builder agent's does.
        compactors: flowCompactors(this.providers),
      },
      {
        resolve: (refs) => this.toolServers.flowTools(refs),
        policyOf: (name) => this.toolServers.policyOf(name),
      },
    );
    this.toolServers = new AppToolServers(
      this.store,
      this.keys,
      options.broadcast,
      async (server) => ({
        agents: await this.agentSpecs.usingToolServer(server.id),
        flows: await this.flows.usingToolServer(server.name),
      }),
    );
    this.agentSpecs = new AppAgentSpecs(this.store, this.providers, options, this.toolServers);
    const users = [this.agentSpecs, this.flows, this.backups];
    this.knowledge = AppKnowledge.open(options, this.providers, users);
    const newRunner = (agent: BaseAgent, resumable: boolean) =>
      new Runner({
        appName: APP_NAME,
        agent,
        sessionService: this.sessions,
        artifactService: this.artifacts,
        resumabilityConfig: { isResumable: resumable },
        traceService,
        // Every runner has it: a rewind forgets what the rewound events added, whatever the agent.
        memoryService,
        // A run is alive exactly while its session's lock is held: a closed tab drops its locks.
        runLiveness: async (run) => (await options.locks.held()).has(run.sessionId),
      });
    const timing = async () =>
      options.timing ?? ((await this.settings()).demoPace === 'instant' ? INSTANT_DEMO : undefined);
    this.modelChat = new ModelChat(this.providers, {
      edit: (id, changes) => this.stateEdits.editState(id, changes),
      stateOf: (id) => this.stateOf(id),
    });
    this.agentList = new AppAgents(this.flows, timing, newRunner, this.agentSpecs, this.modelChat);
    this.remote = new AppRemote(this.store, options.broadcast, (json) => this.importSession(json));
    const lent = {
      sessions: this.sessions,
      store: this.store,
      locks: options.locks,
      broadcast: options.broadcast,
      runnerFor: (sessionId: string) => this.runnerFor(sessionId),
      meta: (sessionId: string) => this.meta(sessionId),
      firstEvent: (sessionId: string, invocationId: string) =>
        turnFirstEvent(this.sessions, sessionId, invocationId),
    };
    this.memory = new AppMemory({
      ...lent,
      memory: memoryService,
      remembers: async (sessionId) =>
        this.agentList.remembers((await this.meta(sessionId)).agentId),
      authorNames: async () => (await this.agentSpecs.agentInfos())[0]?.authors ?? {},
    });
    this.runs = new AppRuns({
      ...lent,
      agents: this.agentList,
      remote: this.remote,
      afterTurn: (sessionId, invocationIds) => this.memory.afterTurn(sessionId, invocationIds),
      models: { providers: this.providers, modelChat: this.modelChat },
    });
    this.rewinds = new AppRewinds(lent);
    this.stateEdits = new AppStateEdits({
      ...lent,
      run: (sessionId, onEvent, start) => this.runs.run(sessionId, onEvent, start),
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
    const { sessions, artifacts, store, memory } = this;
    await this.locked(sessionId, () =>
      deleteSessionData({ sessions, artifacts, store, memory }, sessionId),
    );
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

  /** The chat header's meter: the session's context against its agent's model's window. */
  async sessionContext(sessionId: string): Promise<ContextUse | undefined> {
    if (isRemoteId(sessionId)) return undefined;
    const { agentId } = await this.meta(sessionId);
    const agent =
      agentId === MODEL_CHAT_ID
        ? await this.modelChat.contextAgent(sessionId)
        : await agentContextFor(this.store, this.providers, agentId);
    return sessionContextUse(this.sessions, sessionId, agent);
  }

  /** A page of the raw log for the event log (markers included), oldest first. */
  readLog(sessionId: string, fromSeq: number, limit: number): Promise<LogPage> {
    if (isRemoteId(sessionId)) return this.remote.logPage(sessionId, fromSeq, limit);
    return this.openings.logPage(sessionId, fromSeq, limit);
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

  settings(): Promise<Settings> {
    return readSettings(this.store);
  }

  /** Stored settings that do not fit their schema (read as absent: the app uses its default). */
  settingProblems() {
    return readSettingProblems(this.store);
  }

  updateSettings(patch: Partial<Settings>): Promise<Settings> {
    return writeSettings(this.store, patch);
  }

  private locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    return this.options.locks.withLock(sessionId, work);
  }

  private async runnerFor(sessionId: string): Promise<Runner> {
    const { agentId } = await this.meta(sessionId);
    return this.agentList.runner(agentId, () => this.stateOf(sessionId));
  }

  private async stateOf(sessionId: string): Promise<Record<string, unknown>> {
    const key = { ...this.key(sessionId), config: { numRecentEvents: 0 } };
    const session = await this.sessions.getSession(key);
    if (!session) throw new SessionNotFoundError(sessionId);
    return session.state;
  }

  private async meta(sessionId: string): Promise<SessionMeta> {
    const meta = await this.store.getSessionMeta(APP_NAME, USER_ID, sessionId);
    if (meta) return meta;
    // A session made by the library directly (not through the app) gets a record on first use.
    await this.stateOf(sessionId); // SessionNotFoundError for none
    return newMeta(sessionId, DEFAULT_TITLE, DEFAULT_AGENT_ID);
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
