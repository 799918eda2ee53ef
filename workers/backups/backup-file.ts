// The backup file: its format, and the check of one before any of it is written. What is checked:
// its size and nesting (as session files are, a level up), its version, every part's shape and
// ids, every span and flow; what it must not carry is taken out (a provider's key, a tool
// server's header values); its settings are only those a restore takes, each against its
// schema (settings-schema.ts), and a tool it would always allow is left to ask (a file may not
// grant a permission); its knowledge bases are checked by backup-knowledge.ts. A problem refuses
// the file whole.

import { InvalidRequestError } from '../../src/core/errors.ts';
import { jsonTextProblem, jsonTreeProblem, type JsonLimits } from '../../src/core/json-limits.ts';
import { setOwn } from '../../src/core/state.ts';
import { validateFlow } from '../../src/flows/validate.ts';
import { PROVIDER_KINDS, type ProviderKind } from '../../src/models/provider-spec.ts';
import { contextWindowProblem } from '../../src/models/context-windows.ts';
import type { AgentSpecRecord, FlowRecord, ProviderRecord } from '../../src/store/app-store.ts';
import type { ToolPolicy } from '../../src/tools/tool-policy.ts';
import type { SpanRecord } from '../../src/tracing/span.ts';
import { spanProblem } from '../../src/tracing/span-check.ts';
import type { ToolServerRecord } from '../tool-servers/tool-server-record.ts';
import { settingLabel, settingProblem } from '../settings-schema.ts';
import { FOLDER_CHARS } from '../sessions/organise-protocol.ts';
import { checkedKnowledge, type BackupKnowledgeBase } from './backup-knowledge.ts';

export const BACKUP_FORMAT = 'trellis-backup';
/** 2 added each session's `lastUpdateTime` and `spans`; 3 added `knowledge` (its bases). */
export const BACKUP_VERSION = 3;
const READABLE_VERSIONS: readonly unknown[] = [1, 2, 3];
const MB = 1024 * 1024;

/** A backup holds whole session files as strings: its limits are theirs, a level up. */
const BACKUP_LIMITS: JsonLimits = {
  maxChars: 512 * MB,
  maxDepth: 100,
  maxString: 64 * MB,
  maxKey: 1024,
};

/** Settings copied as they are (none holds a secret); `toolServers` is copied without values. */
export const PLAIN_SETTINGS = [
  'settings',
  'toolPolicies',
  'adkServers',
  'adkRemoteSessions',
  // The prompt library: merged prompt by prompt (workers/prompts/prompts.ts's restorePrompts).
  'prompts',
];
export const TOOL_SERVERS = 'toolServers';

export interface BackupSession {
  id: string;
  title: string;
  agentId: string;
  createdAt: number;
  /** When it last changed (ms), as the session list shows it; absent in version 1. */
  lastUpdateTime?: number;
  /** The session's file, as Export writes it. */
  file: string;
  /** Its traces' spans (their session key left out: they go under the session restored); absent in version 1. */
  spans?: SpanRecord[];
  /** The ids of its events that memory holds (memory is made of them); absent: none. */
  memory?: string[];
  /** How the user organised it (workers/sessions/organise.ts); absent: not so. */
  pinned?: boolean;
  archived?: boolean;
  folder?: string;
}

/** A backup as checked: its settings are only those a restore takes, each as it must be. */
export interface CheckedBackup extends BackupFile {
  /** What the file held and a restore leaves out, with why. */
  ignored: string[];
}

export interface BackupFile {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: number;
  sessions: BackupSession[];
  flows: FlowRecord[];
  agents: AgentSpecRecord[];
  providers: ProviderRecord[];
  toolServers: ToolServerRecord[];
  settings: Record<string, unknown>;
  /** Knowledge bases and their documents (backup-knowledge.ts); absent before version 3. */
  knowledge?: BackupKnowledgeBase[];
}

/** The backup's text, checked: its shape, its limits, every part's own checks but sessions'. */
export function checkedBackup(json: string): CheckedBackup {
  const refuse = (problem: string): never => {
    throw new InvalidRequestError(`Not restored: ${problem}. Nothing was changed.`);
  };
  const tooBig = jsonTextProblem(json, BACKUP_LIMITS, 'the file');
  if (tooBig) refuse(tooBig);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    refuse(`it is not JSON (${(error as Error).message})`);
  }
  const hostile = jsonTreeProblem(value, BACKUP_LIMITS);
  if (hostile) refuse(hostile);
  if (!isRecord(value) || value.format !== BACKUP_FORMAT)
    refuse('it is not a Trellis backup (Settings → Back up makes one)');
  const file = value as Record<string, unknown>;
  if (!READABLE_VERSIONS.includes(file.version))
    refuse(
      `it is a backup of version ${String(file.version)}; this Trellis reads versions ${READABLE_VERSIONS.join(', ')}`,
    );
  for (const part of ['sessions', 'flows', 'agents', 'providers', 'toolServers'])
    if (!Array.isArray(file[part])) refuse(`its "${part}" is not a list`);
  if (!isRecord(file.settings)) refuse('its "settings" is not an object');
  const ids = (part: string) =>
    (file[part] as unknown[]).map((item) => (item as { id?: unknown }).id);
  for (const part of ['sessions', 'flows', 'agents', 'providers', 'toolServers']) {
    const list = ids(part);
    if (list.some((id) => typeof id !== 'string' || !id || id.length > 200))
      refuse(`an item of "${part}" has no id`);
    if (new Set(list).size !== list.length) refuse(`"${part}" has an id twice`);
  }
  (file.sessions as unknown[]).forEach((item, index) => {
    const session = item as Record<string, unknown>;
    if (typeof session.file !== 'string' || typeof session.title !== 'string')
      refuse(`session #${index + 1} has no file or title`);
    if (typeof session.agentId !== 'string') refuse(`session #${index + 1} has no agent`);
    if (!isTime(session.createdAt)) session.createdAt = Date.now();
    if (session.lastUpdateTime !== undefined && !isTime(session.lastUpdateTime))
      refuse(`session #${index + 1} has a last update that is not a time`);
    session.title = String(session.title).slice(0, 200);
    // How it was organised is not worth refusing a backup over: what does not fit is left out.
    for (const flag of ['pinned', 'archived']) if (session[flag] !== true) delete session[flag];
    if (typeof session.folder !== 'string' || !session.folder.trim()) delete session.folder;
    else session.folder = session.folder.trim().slice(0, FOLDER_CHARS);
    const memory = session.memory;
    if (
      memory !== undefined &&
      (!Array.isArray(memory) ||
        memory.some((id: unknown) => typeof id !== 'string' || !id || id.length > 200))
    )
      refuse(`the memory of session #${index + 1} is not a list of its events' ids`);
    if (session.spans === undefined) return;
    if (!Array.isArray(session.spans)) refuse(`the spans of session #${index + 1} are not a list`);
    (session.spans as unknown[]).forEach((span, at) => {
      const problem = spanProblem(span);
      if (problem) refuse(`span #${at + 1} of session #${index + 1} is not valid: ${problem}`);
    });
  });
  for (const record of file.flows as Record<string, unknown>[]) {
    const problems = validateFlow(record.flow);
    if (problems.length > 0)
      refuse(`the flow ${String(record.id)} is not valid (${problems[0]!.message})`);
  }
  for (const agent of file.agents as Record<string, unknown>[])
    if (typeof agent.name !== 'string' || typeof agent.providerId !== 'string')
      refuse(`the agent ${String(agent.id)} has no name or provider`);
  for (const provider of file.providers as Record<string, unknown>[]) {
    if (!(PROVIDER_KINDS as readonly unknown[]).includes(provider.kind))
      refuse(`the provider ${String(provider.id)} is of an unknown kind`);
    if (typeof provider.name !== 'string' || typeof provider.baseUrl !== 'string')
      refuse(`the provider ${String(provider.id)} has no name or address`);
    const window = contextWindowProblem(provider.kind as ProviderKind, provider.contextTokens);
    if (window) refuse(`the provider ${String(provider.id)}: ${window}`);
    // A key never travels in a backup; one that does is not taken.
    delete provider.apiKey;
  }
  for (const server of file.toolServers as Record<string, unknown>[]) {
    if (typeof server.name !== 'string' || typeof server.url !== 'string')
      refuse(`the tool server ${String(server.id)} has no name or address`);
    // A header's value (a token) never travels in a backup; one that does is not taken.
    if (Array.isArray(server.headers))
      server.headers = server.headers.map((header: unknown) => ({
        name: (header as { name?: unknown } | null)?.name,
        value: '',
      }));
  }
  const servers = settingProblem(TOOL_SERVERS, file.toolServers);
  if (servers) refuse(`its tool servers are not valid (${servers})`);
  const knowledge = checkedKnowledge(file.knowledge, refuse);
  return {
    ...(file as unknown as BackupFile),
    knowledge,
    ...checkedSettings(file.settings as Record<string, unknown>, refuse),
  };
}

/**
 * The settings a restore takes, checked against their schemas (one that does not fit refuses
 * the file); any other name (another kind of setting, `__proto__`, a session's usage counts) is
 * left out and said. A tool the file would always allow is left to ask: a file may not grant a
 * permission (set it again in Settings → Tool servers).
 */
function checkedSettings(
  settings: Record<string, unknown>,
  refuse: (problem: string) => never,
): Pick<CheckedBackup, 'settings' | 'ignored'> {
  const taken: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const name of Object.keys(settings)) {
    const value = settings[name];
    if (!PLAIN_SETTINGS.includes(name)) {
      ignored.push(`the setting “${name.slice(0, 80)}”: not something a backup restores`);
      continue;
    }
    const problem = settingProblem(name, value);
    if (problem) refuse(`its ${settingLabel(name)} are not valid (${problem})`);
    if (name !== 'toolPolicies') {
      setOwn(taken, name, value);
      continue;
    }
    const policies: Record<string, ToolPolicy> = {};
    for (const [tool, policy] of Object.entries(value as Record<string, ToolPolicy>)) {
      if (policy === 'always')
        ignored.push(`Always allow for the tool ${tool}: a file cannot grant it; set it again`);
      else setOwn(policies, tool, policy);
    }
    if (Object.keys(policies).length > 0) setOwn(taken, name, policies);
  }
  return { settings: taken, ignored };
}

export function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
