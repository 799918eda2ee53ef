// Settings → Back up / Restore: the whole workspace in one file, and that file merged into this
// browser (an empty one, or one in use). Rules:
// - never a secret in the file: providers go without their keys, tool servers without their
//   header values (the names stay, so the form says what to fill in again);
// - a file that is malformed, or any part of it, is refused whole before anything is written;
// - ids are kept; something here already with the same id and the same content is left as it is,
//   with different content it is a conflict, named in the report and never overwritten;
// - sessions travel as their own session files (the Export format, artifacts' bytes included),
//   so restoring one goes through the same checks as importing it, with their dates (created,
//   last updated: the session list's) and their traces' spans;
// - what memory holds of a session travels as the ids of its events (memory is made of them),
//   and is made again from the restored events;
// - knowledge bases travel with their documents' text, files and chunks, not their vectors
//   (backup-knowledge.ts), read and written through the KnowledgeStorage contract;
// - a file of an older version still restores (version 1 had no spans and no last update: a
//   session is dated by its last event; before version 3 there were no knowledge bases).

import { InvalidRequestError } from '../../src/core/errors.ts';
import { parseSessionFile, type ParsedSessionFile } from '../../src/core/session-file.ts';
import type { IndexedDbAppStore, ProviderRecord } from '../../src/store/app-store.ts';
import type { BaseMemoryService } from '../../src/store/memory-service.ts';
import type { IndexedDbArtifactService } from '../../src/store/indexeddb-artifact-service.ts';
import type { IndexedDbSessionService } from '../../src/store/indexeddb-session-service.ts';
import type { IndexedDbTraceService } from '../../src/store/indexeddb-trace-service.ts';
import type { KnowledgeStorage } from '../../src/knowledge/knowledge-storage.ts';
import type { SpanRecord } from '../../src/tracing/span.ts';
import { spanUnder } from '../../src/tracing/span-check.ts';
import { exportSessionFile, forget } from '../sessions/session-files.ts';
import { APP_NAME, USER_ID, organisationOf } from '../sessions/sessions.ts';
import type { ToolServerRecord } from '../tool-servers/tool-server-record.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import { settingLabel } from '../settings-schema.ts';
import { PROMPTS_SETTING, restorePrompts } from '../prompts/prompts.ts';
import type { PromptRecord } from '../prompts/prompt-protocol.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  PLAIN_SETTINGS,
  TOOL_SERVERS,
  checkedBackup,
  type BackupFile,
  type BackupSession,
} from './backup-file.ts';
import { backupKnowledge, restoreKnowledge } from './backup-knowledge.ts';

export { BACKUP_FORMAT };

/** When the last backup was made (for the reminder); not itself backed up. */
export const LAST_BACKUP = 'lastBackupAt';

/** What a restore did: what it added, what was here already, and what it left for the user. */
export interface RestoreReport {
  restored: string[];
  unchanged: number;
  conflicts: string[];
  /** What the file held that a restore does not take, each with why. */
  ignored: string[];
}

export interface BackupDeps {
  sessions: IndexedDbSessionService;
  artifacts: IndexedDbArtifactService;
  traces: IndexedDbTraceService;
  memory: BaseMemoryService;
  store: IndexedDbAppStore;
  broadcast: (message: RuntimeBroadcast) => void;
  /** Where knowledge bases are kept; absent until the knowledge room is made (useKnowledge). */
  knowledge?: KnowledgeStorage;
}

export class AppBackup {
  constructor(private readonly deps: BackupDeps) {}

  /** The knowledge room's storage: its bases go in a backup and come back from one. */
  useKnowledge(knowledge: { readonly storage: KnowledgeStorage }): void {
    this.deps.knowledge = knowledge.storage;
  }

  /** The workspace as one file (remote sessions stay on their ADK servers: their list is kept). */
  async backup(): Promise<{ filename: string; json: string }> {
    const { store, traces } = this.deps;
    const metas = await store.listSessionMeta(APP_NAME, USER_ID);
    const listed = await this.deps.sessions.listSessions({ appName: APP_NAME, userId: USER_ID });
    const updated = new Map(listed.sessions.map((s) => [s.id, s.lastUpdateTime]));
    const sessions: BackupSession[] = [];
    for (const meta of metas) {
      if (meta.sessionId.startsWith('adk:')) continue;
      const { json } = await exportSessionFile(this.sessionDeps(), meta);
      const key = { appName: APP_NAME, userId: USER_ID, sessionId: meta.sessionId };
      const spans = (await traces.listSpans(key)).map(
        ({ appName: _app, userId: _user, sessionId: _session, ...span }) => span as SpanRecord,
      );
      const memory = await this.deps.memory.listMemoryEventIds(key);
      sessions.push({
        id: meta.sessionId,
        title: meta.title,
        agentId: meta.agentId,
        createdAt: meta.createdAt,
        ...organisationOf(meta),
        ...(updated.has(meta.sessionId) ? { lastUpdateTime: updated.get(meta.sessionId)! } : {}),
        file: json,
        spans,
        ...(memory.length > 0 ? { memory } : {}),
      });
    }
    const settings: Record<string, unknown> = {};
    for (const name of PLAIN_SETTINGS) {
      const value = await store.getSetting(name);
      if (value !== undefined) settings[name] = value;
    }
    const createdAt = Date.now();
    const file: BackupFile = {
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      createdAt,
      sessions,
      flows: await store.listFlows(),
      agents: await store.listAgentSpecs(),
      providers: (await store.listProviders()).map(withoutKey),
      toolServers: ((await store.getSetting<ToolServerRecord[]>(TOOL_SERVERS)) ?? []).map(
        withoutHeaderValues,
      ),
      settings,
      knowledge: this.deps.knowledge ? await backupKnowledge(this.deps.knowledge) : [],
    };
    await store.putSetting(LAST_BACKUP, createdAt);
    const day = new Date(createdAt).toISOString().slice(0, 10);
    return { filename: `trellis-backup-${day}.json`, json: JSON.stringify(file) };
  }

  /** Merges a backup into this browser; a bad file is refused whole, with what is wrong. */
  async restore(json: string): Promise<RestoreReport> {
    const file = checkedBackup(json);
    // Every session file is checked before anything is written.
    const parsed = new Map<string, ParsedSessionFile>();
    for (const session of file.sessions) {
      try {
        parsed.set(session.id, parseSessionFile(session.file));
      } catch (error) {
        throw new InvalidRequestError(
          `Not restored: the session "${session.title}" in it is not valid (${(error as Error).message})`,
        );
      }
    }
    const { store } = this.deps;
    const report: RestoreReport = {
      restored: [],
      unchanged: 0,
      conflicts: [],
      ignored: [...file.ignored],
    };
    const merge = async <T extends { id: string }>(
      kind: string,
      incoming: readonly T[],
      here: readonly T[],
      nameOf: (item: T) => string,
      comparable: (item: T) => unknown,
      put: (item: T) => Promise<void>,
    ) => {
      const byId = new Map(here.map((item) => [item.id, item]));
      for (const item of incoming) {
        const existing = byId.get(item.id);
        if (!existing) {
          await put(item);
          report.restored.push(`${kind} ${nameOf(item)}`);
        } else if (same(comparable(existing), comparable(item))) report.unchanged++;
        else
          report.conflicts.push(
            `The ${kind} "${nameOf(existing)}" here differs from the backup's "${nameOf(item)}" (same id ${item.id}): yours is kept`,
          );
      }
    };
    await merge(
      'provider',
      file.providers,
      await store.listProviders(),
      (p) => p.name,
      withoutKey,
      (p) => store.putProvider(p),
    );
    const servers = (await store.getSetting<ToolServerRecord[]>(TOOL_SERVERS)) ?? [];
    const addedServers: ToolServerRecord[] = [];
    await merge(
      'tool server',
      file.toolServers,
      servers,
      (s) => s.name,
      (s) => ({ ...withoutHeaderValues(s), tools: undefined, updatedAt: undefined }),
      async (s) => void addedServers.push(s),
    );
    if (addedServers.length > 0)
      await store.putSetting(TOOL_SERVERS, [...servers, ...addedServers]);
    for (const [name, value] of Object.entries(file.settings)) {
      if (name === PROMPTS_SETTING) {
        await restorePrompts(store, value as PromptRecord[], report);
        continue;
      }
      if ((await store.getSetting(name)) === undefined) {
        await store.putSetting(name, value);
        report.restored.push(`your ${settingLabel(name)}`);
      } else if (same(await store.getSetting(name), value)) report.unchanged++;
      else
        report.conflicts.push(
          `Your ${settingLabel(name)} here differ from the backup's: yours are kept`,
        );
    }
    await merge(
      'flow',
      file.flows,
      await store.listFlows(),
      (f) => f.flow.name,
      (f) => f.flow,
      (f) => store.putFlow(f),
    );
    await merge(
      'agent',
      file.agents,
      await store.listAgentSpecs(),
      (a) => a.name,
      (a) => ({ ...a, updatedAt: undefined }),
      (a) => store.putAgentSpecs([a]),
    );
    await this.restoreSessions(file.sessions, parsed, report);
    if (this.deps.knowledge && file.knowledge?.length)
      await restoreKnowledge(this.deps.knowledge, file.knowledge, report);
    else if (file.knowledge?.length)
      report.ignored.push('knowledge bases: this browser cannot keep them');
    for (const type of [
      'sessions-changed',
      'flows-changed',
      'providers-changed',
      'agents-changed',
      'memory-changed',
      'knowledge-changed',
      'prompts-changed',
    ] as const)
      this.deps.broadcast({ type });
    return report;
  }

  /** When the last backup was made, if ever. */
  async lastBackupAt(): Promise<number | undefined> {
    return this.deps.store.getSetting<number>(LAST_BACKUP);
  }

  private async restoreSessions(
    sessions: readonly BackupSession[],
    parsed: ReadonlyMap<string, ParsedSessionFile>,
    report: RestoreReport,
  ): Promise<void> {
    const { store, sessions: service, artifacts, traces } = this.deps;
    for (const session of sessions) {
      const key = { appName: APP_NAME, userId: USER_ID, sessionId: session.id };
      const events = parsed.get(session.id)!.events;
      const here = await service.getSession(key);
      if (here) {
        const last = (list: readonly { id: string }[]) => list.at(-1)?.id;
        if (here.events.length === events.length && last(here.events) === last(events))
          report.unchanged++;
        else
          report.conflicts.push(
            `The session "${session.title}" here differs from the backup's (same id ${session.id}): yours is kept`,
          );
        continue;
      }
      // A version 1 file has no last update: the session's last event is the best guess.
      const lastUpdateTime =
        session.lastUpdateTime ??
        events.reduce((latest, event) => Math.max(latest, event.timestamp), session.createdAt);
      await service.importSession({ ...key, events, artifactService: artifacts, lastUpdateTime });
      try {
        await traces.putSpans((session.spans ?? []).map((span) => spanUnder(key, span)));
        await store.putSessionMeta({
          ...key,
          title: session.title,
          agentId: session.agentId,
          createdAt: session.createdAt,
          ...organisationOf(session),
        });
        if (session.memory?.length) {
          const remembered = new Set(session.memory);
          const kept = events.filter((event) => remembered.has(event.id));
          await this.deps.memory.addEventsToMemory({ ...key, events: kept });
        }
      } catch (error) {
        // Half a session is not restored: take it back, so that the next restore of the same
        // file finds it missing and restores it whole.
        await this.deps.memory.removeSessionFromMemory(key);
        await forget(this.sessionDeps(), session.id);
        throw error;
      }
      report.restored.push(`session ${session.title}`);
    }
  }

  private sessionDeps() {
    const { sessions, artifacts, store } = this.deps;
    // Export needs no agents (it names the session's agent by id).
    return { sessions, artifacts, store, agents: undefined as never };
  }
}

function withoutKey(provider: ProviderRecord): ProviderRecord {
  const { apiKey: _key, ...rest } = provider;
  return { ...rest, updatedAt: provider.updatedAt };
}

function withoutHeaderValues(server: ToolServerRecord): ToolServerRecord {
  return {
    ...server,
    headers: (server.headers ?? []).map((header) => ({ name: header.name, value: '' })),
  };
}

/** The same content (updatedAt aside: comparable() leaves it out where it may differ). */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
