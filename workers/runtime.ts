// The Web Worker that owns the runtime: runners and IndexedDB services live here, and the page
// reaches them through Comlink. Everything it takes and returns is plain data; run events come
// back through a callback the page passes as a Comlink proxy, streamed text in batches
// (partial-batches.ts).

import { expose, proxy } from 'comlink';
import { AppRuntime } from './app.ts';
import { AppOrganise } from './sessions/organise.ts';
import { AppExports } from './sessions/session-exports.ts';
import type { EventListener } from './runs/runs.ts';
import { withPartialBatches } from './runs/partial-batches.ts';
import {
  BROADCAST_CHANNEL,
  type AgentSpecInput,
  type ChatSettings,
  type OpeningLimits,
  type OrganiseChange,
  type Organised,
  type OutgoingAttachment,
  type PromptInput,
  type ProviderInput,
  type RuntimeBroadcast,
  type Settings,
  type ToolServerInput,
  type TurnRange,
} from './protocol.ts';
import { FLOW_DEMO_TOOLS } from '../src/demos/flow-demos.ts';
import { webLocks } from './runs/session-locks.ts';
import { KEYS_CHANNEL } from './keys/key-vault.ts';
import type { ToolPolicy } from '../src/tools/tool-policy.ts';
import { AppSearch } from './search/search.ts';
import { knowledgeApi } from './knowledge/knowledge-views.ts';

const channel = new BroadcastChannel(BROADCAST_CHANNEL);
// Search across sessions indexes what this tab's runtime says it changed (workers/search/).
const search = AppSearch.on();
const runtime = new AppRuntime({
  locks: webLocks(navigator.locks),
  broadcast: (message: RuntimeBroadcast) => {
    channel.postMessage(message);
    search.notice(message);
  },
  keyChannel: new BroadcastChannel(KEYS_CHANNEL),
});
// Pinned, archived, folders (workers/sessions/organise.ts): its own room, on the same database.
const organise = AppOrganise.open({ broadcast: (message) => channel.postMessage(message) });
// Share and export (workers/sessions/session-exports.ts): its own room, on the same database.
const sessionExports = AppExports.open();

const api = {
  agents: () => runtime.agents(),
  listSessions: () => runtime.listSessions(),
  createSession: (agentId?: string) => runtime.createSession(agentId),
  renameSession: (sessionId: string, title: string) => runtime.renameSession(sessionId, title),
  /** "Write a title": the session's model titles it now (sessions/model-titles.ts). */
  writeTitle: (sessionId: string) => runtime.runs.titles.write(sessionId),
  setAgent: (sessionId: string, agentId: string) => runtime.setAgent(sessionId, agentId),
  deleteSession: (sessionId: string) => runtime.deleteSession(sessionId),
  organiseSessions: (ids: string[], change: OrganiseChange) => organise.organise(ids, change),
  restoreOrganisation: (before: Organised[]) => organise.restore(before),
  renameFolder: (from: string, to: string) => organise.renameFolder(from, to),
  removeFolder: (name: string) => organise.removeFolder(name),
  openSessionSummary: (sessionId: string, limits?: OpeningLimits) =>
    runtime.openSessionSummary(sessionId, limits),
  /** One state value whole: an opening sends long ones as previews (LongState). */
  stateValue: (sessionId: string, key: string) => runtime.stateValue(sessionId, key),
  sessionUsage: (sessionId: string) => runtime.sessionUsage(sessionId),
  /** The chat header's context meter: tokens against the agent's model's window. */
  sessionContext: (sessionId: string) => runtime.sessionContext(sessionId),
  readLog: (sessionId: string, fromSeq: number, limit: number) =>
    runtime.readLog(sessionId, fromSeq, limit),
  /** `form`: a flow's start form's values by field name (the worker checks them: runs/runs.ts). */
  send: (
    sessionId: string,
    text: string,
    onEvent: EventListener,
    attachments?: OutgoingAttachment[],
    form?: Record<string, unknown>,
  ) =>
    withPartialBatches(onEvent, (listener) =>
      runtime.runs.send(sessionId, text, listener, attachments, form),
    ),
  stop: (sessionId: string) => runtime.runs.stop(sessionId),
  rewind: (sessionId: string, invocationId: string) =>
    runtime.rewinds.rewind(sessionId, invocationId),
  switchToBranch: (sessionId: string, invocationId: string) =>
    runtime.rewinds.switchToBranch(sessionId, invocationId),
  rewindToCheckpoint: (sessionId: string, checkpointEventId: string) =>
    runtime.rewinds.rewindToCheckpoint(sessionId, checkpointEventId),
  edit: (sessionId: string, invocationId: string, text: string, onEvent: EventListener) =>
    withPartialBatches(onEvent, (listener) =>
      runtime.runs.edit(sessionId, invocationId, text, listener),
    ),
  regenerate: (sessionId: string, invocationId: string, onEvent: EventListener) =>
    withPartialBatches(onEvent, (listener) =>
      runtime.runs.regenerate(sessionId, invocationId, listener),
    ),
  fork: (sessionId: string, invocationId: string) => runtime.rewinds.fork(sessionId, invocationId),
  /** "Chat with a model": this chat's model settings, a state edit (agents/model-chat.ts). */
  setChatSettings: (sessionId: string, settings: ChatSettings) =>
    runtime.modelChat.setSettings(sessionId, settings),
  // The State panel's edits and History's "Edit state and re-run" (workers/sessions/state-edits.ts)
  editState: (sessionId: string, changes: Record<string, unknown>) =>
    runtime.stateEdits.editState(sessionId, changes),
  stateBefore: (sessionId: string, invocationId: string) =>
    runtime.stateEdits.stateBefore(sessionId, invocationId),
  editStateAndRerun: (
    sessionId: string,
    invocationId: string,
    changes: Record<string, unknown>,
    onEvent: EventListener,
  ) =>
    withPartialBatches(onEvent, (listener) =>
      runtime.stateEdits.editStateAndRerun(sessionId, invocationId, changes, listener),
    ),
  resume: (sessionId: string, invocationId: string, onEvent: EventListener) =>
    withPartialBatches(onEvent, (listener) =>
      runtime.runs.resume(sessionId, invocationId, listener),
    ),
  answer: (
    sessionId: string,
    requestId: string,
    confirmed: boolean,
    payload: unknown,
    onEvent: EventListener,
  ) =>
    withPartialBatches(onEvent, (listener) =>
      runtime.runs.answer(sessionId, requestId, confirmed, payload, listener),
    ),
  respond: (
    sessionId: string,
    callId: string,
    name: string,
    response: Record<string, unknown>,
    onEvent: EventListener,
  ) =>
    withPartialBatches(onEvent, (listener) =>
      runtime.runs.respond(sessionId, callId, name, response, listener),
    ),
  interruptedRuns: () => runtime.runs.interruptedRuns(),
  busySessions: () => runtime.runs.busySessions(),
  loadArtifact: (sessionId: string, filename: string, version?: number) =>
    runtime.loadArtifact(sessionId, filename, version),
  exportSession: (sessionId: string) => runtime.exportSession(sessionId),
  exportEvalSet: (sessionId: string) => runtime.exportEvalSet(sessionId),
  // Share and export: the page renders HTML and Markdown from the source (src/ui/export/).
  exportSource: (sessionId: string) => sessionExports.source(sessionId),
  exportTurns: (sessionId: string) => sessionExports.turns(sessionId),
  exportRange: (sessionId: string, range: TurnRange) => sessionExports.range(sessionId, range),
  importSession: (json: string) => runtime.importSession(json),
  // Settings → ADK servers, and the sessions on them (workers/remote/remote.ts)
  adkServers: () => runtime.remote.servers(),
  addAdkServer: (url: string, userId?: string) => runtime.remote.addServer(url, userId),
  refreshAdkServer: (serverId: string) => runtime.remote.refreshServer(serverId),
  removeAdkServer: (serverId: string) => runtime.remote.removeServer(serverId),
  adkSessions: (serverId: string, appName: string) =>
    runtime.remote.remoteSessions(serverId, appName),
  openAdkSession: (serverId: string, appName: string, sessionId: string) =>
    runtime.remote.openRemoteSession(serverId, appName, sessionId),
  rewindRemote: (sessionId: string, invocationId: string) =>
    runtime.remote.rewind(sessionId, invocationId),
  copyToBrowser: (sessionId: string) => runtime.remote.copyToBrowser(sessionId),
  remoteTrace: (sessionId: string) => runtime.remote.trace(sessionId),
  listFlows: () => runtime.flows.list(),
  getFlow: (id: string) => runtime.flows.get(id),
  checkFlow: (json: string, id?: string) => runtime.flows.check(json, id),
  saveFlow: (json: string, id?: string) => runtime.flows.save(json, id),
  duplicateFlow: (id: string) => runtime.flows.duplicate(id),
  deleteFlow: (id: string) => runtime.flows.remove(id),
  // Settings → Providers: keys go in, and only their masked form comes out.
  listProviders: () => runtime.providers.list(),
  settingProblems: () => runtime.settingProblems(),
  // Settings → Security: a passphrase over the stored keys (workers/keys/key-vault.ts)
  keyStatus: () => runtime.keys.status(),
  protectKeys: (passphrase: string) => runtime.keys.protect(passphrase),
  unlockKeys: (passphrase: string) => runtime.keys.unlock(passphrase),
  lockKeys: () => runtime.keys.lock(),
  changePassphrase: (oldPassphrase: string, newPassphrase: string) =>
    runtime.keys.change(oldPassphrase, newPassphrase),
  unprotectKeys: (passphrase: string) => runtime.keys.unprotect(passphrase),
  forgetKeys: () => runtime.keys.forget(),
  saveProvider: (input: ProviderInput) => runtime.providers.save(input),
  deleteProvider: (id: string) => runtime.providers.remove(id),
  addLocalModel: (files: File | File[]) => runtime.providers.addLocal(files),
  downloadLocalModel: (url: string) => runtime.providers.downloadLocal(url),
  cancelLocalDownload: (url: string) => runtime.providers.cancelDownload(url),
  localModelStatus: (id: string) => runtime.providers.localStatus(id),
  localModelLoads: () => runtime.providers.localLoads(),
  loadLocalModel: (id: string) => runtime.providers.loadLocal(id),
  unloadLocalModel: (id: string) => runtime.providers.unloadLocal(id),
  testProvider: (input: ProviderInput) => runtime.providers.test(input),
  providerModels: (id: string) => runtime.providers.models(id),
  // Settings → Tool servers (MCP): header values go in, and only their masked form comes out.
  listToolServers: () => runtime.toolServers.list(),
  saveToolServer: (input: ToolServerInput) => runtime.toolServers.save(input),
  deleteToolServer: (id: string) => runtime.toolServers.remove(id),
  testToolServer: (input: ToolServerInput) => runtime.toolServers.test(input),
  /** The whole workspace as one file (never a key or a token). */
  backup: () => runtime.backups.backup(),
  /** Merges a backup in: what it added, what was here already, and the conflicts it left. */
  restore: (json: string) => runtime.backups.restore(json),
  lastBackupAt: () => runtime.backups.lastBackupAt(),
  /** One invocation's spans and events, for the Trace view. */
  trace: (sessionId: string, invocationId: string) => runtime.traces.trace(sessionId, invocationId),
  /** The session's traces as OTLP JSON, to download. */
  exportTraces: (sessionId: string) => runtime.traces.exportOtlp(sessionId),
  /** The tools a flow's nodes may name: the demo tools, then the tool servers' (`Server/tool`). */
  flowToolChoices: async () => [
    ...FLOW_DEMO_TOOLS,
    ...(await runtime.toolServers.flowToolChoices()),
  ],
  toolPolicies: () => runtime.toolServers.policies(),
  toolPolicyList: () => runtime.toolServers.policyList(),
  setToolPolicy: (toolName: string, policy: ToolPolicy | undefined) =>
    runtime.toolServers.setPolicy(toolName, policy),
  // Memory: what agents remember across sessions (workers/memory/memory.ts).
  listMemories: (offset?: number, limit?: number) => runtime.memory.list(offset, limit),
  addSessionToMemory: (sessionId: string) => runtime.memory.addSession(sessionId),
  deleteMemory: (sessionId: string, eventId: string) => runtime.memory.remove(sessionId, eventId),
  deleteSessionMemories: (sessionId: string) => runtime.memory.removeSession(sessionId),
  // The prompt library that `/` in the message box inserts from (workers/prompts/prompts.ts).
  listPrompts: () => runtime.prompts.list(),
  savePrompt: (input: PromptInput) => runtime.prompts.save(input),
  deletePrompt: (id: string) => runtime.prompts.remove(id),
  exportPrompts: () => runtime.prompts.exportFile(),
  importPrompts: (json: string) => runtime.prompts.importFile(json),
  /** Ctrl+K: sessions holding every word of `query`, with where (workers/search/search.ts). */
  search: (query: string, limit?: number) => search.search(query, limit),
  // The agent builder.
  listBuiltinTools: () => runtime.agentSpecs.tools(),
  listAgentSpecs: () => runtime.agentSpecs.list(),
  saveAgentSpec: (input: AgentSpecInput) => runtime.agentSpecs.save(input),
  deleteAgentSpec: (id: string) => runtime.agentSpecs.remove(id),
  exportAgentSpec: (id: string) => runtime.agentSpecs.exportFile(id),
  importAgentSpec: (json: string) => runtime.agentSpecs.importFile(json),
  settings: () => runtime.settings(),
  updateSettings: (patch: Partial<Settings>) => runtime.updateSettings(patch),
  /** Knowledge bases (workers/knowledge/knowledge.ts): `api.knowledge.list()` and the rest. */
  knowledge: proxy(knowledgeApi(runtime.knowledge)),
  /** Answers once the worker has started: the page measures its start-up with it. */
  ready: () => true,
};

export type RuntimeApi = typeof api;

expose(api);
