// What each setting the app stores may hold (the `settings` store of IndexedDB: name → value),
// written with zod, the schema library the MCP SDK already brings. Every read and write of a
// setting goes through it (IndexedDbAppStore's `checkSetting`), and so does every setting a
// backup brings:
// - a stored value that does not fit (a bug of an old version, a hand-edited database, a backup
//   restored before this check existed) reads as absent, so the app opens on the default, and is
//   reported once, by name, with what is wrong (`settingProblems`);
// - a value that does not fit is never written;
// - a name that is not below is not a setting (`usage:<session>` is a cache of counts, derived
//   from the session, not something to restore).

import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { MAX_PROMPTS, PROMPT_NAME_CHARS, PROMPT_TEXT_CHARS } from './prompts/prompt-protocol.ts';

z.config(en());

const text = (max: number) => z.string().check(z.maxLength(max));
const id = text(200);
const time = z.number().check(z.gte(0));
const count = z.number().check(z.int(), z.gte(0));

/** A secret as stored: plain, or sealed by the key vault (workers/keys/key-vault.ts). */
const secret = z.union([
  text(16_384),
  z.object({ sealed: z.literal('AES-GCM'), iv: text(64), data: text(32_768) }),
]);

const toolServer = z.object({
  id,
  name: text(200),
  url: text(2048),
  headers: z.array(z.object({ name: text(200), value: secret })).check(z.maxLength(50)),
  disabledTools: z.array(text(200)).check(z.maxLength(1000)),
  tools: z.optional(
    z.array(z.object({ name: text(200), description: text(1000) })).check(z.maxLength(1000)),
  ),
  updatedAt: time,
});

/** A workflow's graph as an ADK server described it (src/remote/app-graph.ts). */
const workflowGraph = z.object({
  name: text(200),
  nodes: z
    .array(
      z.object({
        id: text(200),
        type: text(200),
        label: text(200),
        rules: z.optional(z.array(z.object({ output: text(200) })).check(z.maxLength(500))),
      }),
    )
    .check(z.maxLength(500)),
  edges: z
    .array(z.object({ from: text(200), to: text(200), when: z.optional(text(200)) }))
    .check(z.maxLength(5000)),
});

const adkServer = z.object({
  id,
  url: text(2048),
  userId: text(200),
  apps: z.array(text(200)).check(z.maxLength(1000)),
  graphs: z.optional(z.record(text(200), workflowGraph)),
});

const remoteSession = z.object({
  id: text(1000),
  serverId: id,
  appName: text(200),
  sessionId: text(400),
  title: text(1000),
  createdAt: time,
  lastUpdateTime: time,
  rewoundFrom: z.optional(z.object({ sessionId: text(400), title: text(1000), note: text(2000) })),
});

const SCHEMAS = {
  settings: z.object({
    autoResume: z.optional(z.boolean()),
    demoPace: z.optional(z.enum(['visible', 'instant'])),
    theme: z.optional(z.enum(['system', 'light', 'dark'])),
    modelTitles: z.optional(z.boolean()),
  }),
  toolServers: z.array(toolServer).check(z.maxLength(200)),
  toolPolicies: z.record(text(600), z.enum(['ask', 'always', 'never'])),
  adkServers: z.array(adkServer).check(z.maxLength(200)),
  adkRemoteSessions: z.array(remoteSession).check(z.maxLength(100_000)),
  lastBackupAt: time,
  /** The prompt library (workers/prompts/prompts.ts): one list, so no schema change was needed. */
  prompts: z
    .array(
      z.object({
        id,
        name: text(PROMPT_NAME_CHARS),
        text: text(PROMPT_TEXT_CHARS),
        updatedAt: time,
      }),
    )
    .check(z.maxLength(MAX_PROMPTS)),
  keyProtection: z.object({
    version: z.literal(1),
    kdf: z.literal('PBKDF2-SHA256'),
    iterations: count,
    salt: text(64),
    check: z.object({ sealed: z.literal('AES-GCM'), iv: text(64), data: text(256) }),
  }),
} as const;

export type SettingName = keyof typeof SCHEMAS;

export const SETTING_NAMES = Object.keys(SCHEMAS) as SettingName[];

/** The settings of a session, by its id: its usage counts (a cache). */
const USAGE_SETTING = /^usage:.{1,400}$/s;

const usage = z.object({
  calls: count,
  promptTokens: count,
  outputTokens: count,
  modelMs: time,
  throughSeq: count,
});

/** What a setting's description says in a message: the user's words for it. */
const LABELS: Record<SettingName, string> = {
  settings: 'preferences (resume, demo pace, theme, titles)',
  toolServers: 'tool servers',
  toolPolicies: 'tool approval policies',
  adkServers: 'ADK servers',
  adkRemoteSessions: 'sessions opened on ADK servers',
  lastBackupAt: 'date of the last backup',
  prompts: 'saved prompts',
  keyProtection: 'passphrase record',
};

export const isSettingName = (name: string): name is SettingName => Object.hasOwn(SCHEMAS, name);

/** What a setting is called in a message to the user. */
export const settingLabel = (name: string) =>
  isSettingName(name) ? LABELS[name] : `setting “${name.slice(0, 80)}”`;

/**
 * What is wrong with a value for a setting: a sentence naming the places that do not fit, or
 * undefined when it fits. A name that is not a setting is wrong whatever its value.
 */
export function settingProblem(name: string, value: unknown): string | undefined {
  const schema = isSettingName(name) ? SCHEMAS[name] : USAGE_SETTING.test(name) ? usage : undefined;
  if (!schema) return `“${name.slice(0, 80)}” is not a setting Trellis keeps`;
  const checked = schema.safeParse(value);
  if (checked.success) return undefined;
  const issues = checked.error.issues.slice(0, 3).map((issue) => {
    const at = issue.path.map(String).join('.');
    return at ? `${at}: ${issue.message}` : issue.message;
  });
  const more = checked.error.issues.length - issues.length;
  return `${issues.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}
