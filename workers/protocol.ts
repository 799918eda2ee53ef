// The data that crosses between the page and the runtime worker (and between tabs). Plain,
// structured-clonable shapes only: no classes, no functions.

import type { AgentSpec } from '../src/agents/agent-spec.ts';
import type { Flow, FlowProblem } from '../src/flows/flow.ts';
import type { AttachmentPolicy } from '../src/models/attachments.ts';
import type { LocalModelMemory } from '../src/models/local/local-memory.ts';
import type { ProviderKind } from '../src/models/provider-spec.ts';
import type { ToolPolicy } from '../src/tools/tool-policy.ts';
import type { Event, InterruptedInvocation } from '../src/index.ts';
import type { Preview } from '../src/core/value-preview.ts';
import type {
  GetSessionSummaryRequest,
  SessionSummary as StoreSessionSummary,
} from '../src/store/session-service.ts';
import type { WorkflowGraph } from '../src/workflow/graph-view.ts';
import type { KnowledgeProgress } from './knowledge/knowledge-protocol.ts';
import type { RemoteSessionInfo } from './remote/remote-protocol.ts';

export type { LogEntry, LogPage, TurnSummary } from '../src/store/session-service.ts';
// Rooms' own shapes, kept in their folders: the page imports them from here only.
export * from './memory/memory-protocol.ts';
export * from './prompts/prompt-protocol.ts';
export * from './remote/remote-protocol.ts';
export * from './search/search-protocol.ts';
export * from './agents/chat-settings.ts';
export * from './sessions/organise-protocol.ts';
export * from './sessions/export-protocol.ts';
export * from './knowledge/knowledge-protocol.ts';

/** The BroadcastChannel on which every tab's worker says what it changed. */
export const BROADCAST_CHANNEL = 'trellis';

export type RuntimeBroadcast =
  | { type: 'sessions-changed' }
  | { type: 'session-changed'; sessionId: string }
  | { type: 'busy-changed'; sessionId: string; busy: boolean }
  | { type: 'flows-changed' }
  /** Says only that something changed: never a provider's fields, let alone its key. */
  | { type: 'providers-changed' }
  | { type: 'agents-changed' }
  /** The passphrase protecting stored keys was set, changed or removed, or a tab (un)locked. */
  | { type: 'keys-changed' }
  /** What memory holds changed (workers/memory/memory.ts): a turn, *Add to memory*, a delete. */
  | { type: 'memory-changed' }
  /** The prompt library changed (workers/prompts/prompts.ts). */
  | { type: 'prompts-changed' }
  /** Add a local model by URL: how much of the file has come (total from Content-Length). */
  | { type: 'local-download'; url: string; received: number; total?: number }
  /** Knowledge bases changed: a base or a document added, changed or removed. */
  | { type: 'knowledge-changed' }
  /** How a base's job (adding, re-indexing, embedding) goes (workers/knowledge/knowledge.ts). */
  | { type: 'knowledge-progress'; progress: KnowledgeProgress };

/**
 * A provider's model with the chat's own settings (agents/chat-settings.ts), a demo agent, an
 * example flow (read-only), the user's flow or built agent, an ADK server's.
 */
export type AgentKind = 'model' | 'demo' | 'example' | 'flow' | 'agent' | 'remote';

export interface AgentInfo {
  /** `state-keeper`…, `example:<name>`, `flow:<id>`, `agent:<id>`, `adk:<server>:<app>`. */
  id: string;
  name: string;
  description: string;
  kind: AgentKind;
  /** The graph of a flow agent, or of an ADK 2.0 Workflow agent (to draw). */
  flow?: Flow;
  workflow?: WorkflowGraph;
  /**
   * The names the user gave the agents whose events this one writes, by their identifiers (the
   * events' author): `trip_planner` → `Trip planner`. Only those that differ. A flow's nodes
   * are named by their labels, from `flow`.
   */
  authors?: Record<string, string>;
  /** The files a message to it can carry (the composer refuses others before sending). */
  attachments: AttachmentPolicy;
}

/** A flow as the Flows view lists it. */
export interface FlowInfo {
  /** Its agent id: `example:<name>` or `flow:<id>`. */
  id: string;
  name: string;
  description: string;
  /** The built-in examples: duplicate one to edit it. */
  readOnly: boolean;
  flow: Flow;
  updatedAt?: number;
}

/** Where JSON text stopped parsing (1-based). */
export interface JsonError {
  message: string;
  line: number;
  column: number;
}

/** What is wrong with a flow file, checked as the user types. */
export interface FlowCheck {
  /** The parsed JSON (whatever it holds) when it parses: the graph is drawn from it. */
  flow?: unknown;
  /** Every problem; [] when the flow can be saved. A parse error is the only one then. */
  problems: FlowProblem[];
  parseError?: JsonError;
}

/** A save: `saved` when it was valid, else the problems and nothing written. */
export interface SaveFlowResult extends FlowCheck {
  saved?: FlowInfo;
}

/**
 * A model provider as the page sees it: everything but the key, of which only a masked form
 * ("••••1234") ever leaves the worker.
 */
export interface ProviderInfo {
  id: string;
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  defaultModel: string;
  /** The masked key, when the provider has one. */
  keyHint?: string;
  /** A local model's file: its name and size (the bytes stay in the worker's storage). */
  localFile?: { name: string; size: number };
  /** The context window the user set (a local model's: the context it is loaded with). */
  contextTokens?: number;
  updatedAt: number;
}

/**
 * A provider as the Settings form sends it: a new one without `id`. `apiKey` is a new key (the
 * page may send one, never read one back); absent or empty keeps the stored key, and
 * `removeKey` drops it.
 */
export interface ProviderInput {
  id?: string;
  kind: ProviderKind;
  name: string;
  baseUrl: string;
  defaultModel: string;
  apiKey?: string;
  removeKey?: boolean;
  /** The context window; absent: the model's known one (a local model's: its own, capped). */
  contextTokens?: number;
}

/**
 * A local model in this tab's runtime worker (each tab loads its own): not loaded (`note` says
 * why, when it was unloaded or failed to load), loading (bytes of its file read so far, since
 * when), or loaded (threads, the memory it holds, since when and how long loading took).
 */
export type LocalModelStatus =
  | { state: 'unloaded'; note?: string }
  | { state: 'loading'; read: number; total: number; since: number }
  | {
      state: 'loaded';
      threads: number;
      memory?: LocalModelMemory;
      /** The tokens a request may fill, and the context the model was trained for. */
      context?: { tokens: number; own?: number };
      since: number;
      loadSeconds: number;
    };

/**
 * A local model being loaded in this tab's runtime worker now: what the chat shows while a turn
 * waits for it (a model loads on an agent's first message).
 */
export interface LocalModelLoad {
  providerId: string;
  name: string;
  read: number;
  total: number;
  since: number;
}

/** What "Test connection" (or fetching the model list) found. */
export type ConnectionTest = { ok: true; models: string[] } | { ok: false; message: string };

/** An agent of the agent builder, as its view lists it. */
export interface AgentSpecInfo extends AgentSpec {
  /** Its id in the Agent select: `agent:<id>`. */
  agentId: string;
  /** The name of its provider (absent if the provider was deleted). */
  providerName?: string;
  updatedAt: number;
}

/** A built-in tool an agent of the builder can use. */
export interface BuiltinToolInfo {
  name: string;
  description: string;
}

/** A spec as the builder's form sends it: a new one without `id`. */
export type AgentSpecInput = Omit<AgentSpec, 'id'> & { id?: string };

/** An MCP server of Settings → Tool servers, as the page sees it (header values masked). */
export interface ToolServerInfo {
  id: string;
  name: string;
  url: string;
  /** Each header by name, with only a hint of its value (`••••1234`). */
  headers: { name: string; hint: string }[];
  /** Tools switched off: agents are not offered them. */
  disabledTools: string[];
  /** The tools the server had when its connection was last tested (for the forms' choices). */
  tools: ToolInfo[];
  updatedAt: number;
}

/** A tool server's tool as a listing shows it. */
export interface ToolInfo {
  name: string;
  description: string;
}

/** A tool server as the form sends it: a header without a value keeps the stored one. */
export interface ToolServerInput {
  id?: string;
  name: string;
  url: string;
  headers?: { name: string; value?: string }[];
  disabledTools?: string[];
  /** What the form's last Test connection listed; absent keeps the stored listing. */
  tools?: ToolInfo[];
}

/**
 * Every tool an approval policy can be set for (Settings → Tool servers), before any call of it:
 * the tool servers' (from each one's last listing), the built-in tools of built agents, and the
 * flows' tools; one row per name, as a policy is set by name.
 */
export interface ToolPolicyList {
  tools: ToolPolicyRow[];
  /** Servers never listed (not tested since added): their tools are not known yet. */
  unlistedServers: string[];
}

export interface ToolPolicyRow {
  name: string;
  description: string;
  /** Where it comes from: tool servers by name, `built-in` (built agents), `flows`. */
  sources: string[];
  /** With no policy set, it asks before each call (a tool server's) or runs (the others). */
  asks: boolean;
  policy?: ToolPolicy;
}

/** Test connection: the server's tools, or what went wrong. */
export type ToolServerTest = { ok: true; tools: ToolInfo[] } | { ok: false; message: string };

/** A save: `saved` when it was valid, else the problems and nothing written. */
export interface SaveAgentResult {
  saved?: AgentSpecInfo;
  problems: string[];
}

/** An imported agent file: the agents saved (the one the file is about first). */
export interface AgentImportResult {
  imported: AgentSpecInfo[];
  /** Providers the file named that this browser did not have, added without a key. */
  addedProviders: string[];
}

/** A file the user attached to a message: it goes to the model and is kept as an artifact. */
export interface OutgoingAttachment {
  name: string;
  mimeType: string;
  bytes: Uint8Array;
}

export interface SessionSummary {
  id: string;
  title: string;
  agentId: string;
  createdAt: number;
  lastUpdateTime: number;
  /** A session that lives on an ADK server (Settings → ADK servers), not in this browser. */
  remote?: RemoteSessionInfo;
  /** How the user organised it (workers/sessions/organise.ts); absent: not so. */
  pinned?: boolean;
  archived?: boolean;
  folder?: string;
}

export interface ArtifactInfo {
  filename: string;
  versions: number[];
  scope: 'session' | 'user';
}

/** A session with its whole log (tests read it; the page reads a SessionOpening). */
export interface SessionSnapshot {
  summary: SessionSummary;
  /** Session, `user:` and `app:` keys. */
  state: Record<string, unknown>;
  /** The raw log, rewind markers included. */
  events: Event[];
  artifacts: ArtifactInfo[];
}

/**
 * What the page needs to draw a session, without its whole log (issue 8): its state, the end of
 * its conversation and of its branch tree; the rest is asked for when the user wants it.
 */
export interface SessionOpening extends Omit<StoreSessionSummary, 'session'> {
  summary: SessionSummary;
  /** Session, `user:` and `app:` keys, but for those of `longState`. */
  state: Record<string, unknown>;
  /** The keys whose values are long (LONG_STATE_CHARS), each with its preview instead. */
  longState?: LongState;
  /**
   * The first turn of the active path that begins in `activeTail`: its first event's position and
   * the session state just before it (where the Checkpoints panel starts), long values apart.
   */
  tailStart?: { seq: number; state: Record<string, unknown>; longState?: LongState };
  artifacts: ArtifactInfo[];
}

/**
 * State values too long to send with every opening (read again after every run: issue 19), by
 * key: each one's preview. The page reads one whole (`stateValue`) only for Show all, Download,
 * Edit.
 */
export type LongState = Record<string, Preview>;

/** Characters of a value's text (a string as it is, anything else as JSON) sent whole at most. */
export const LONG_STATE_CHARS = 2000;

/** How much of a session an opening reads: the last active events, the last turns. */
export type OpeningLimits = Pick<GetSessionSummaryRequest, 'numActiveEvents' | 'numTurns'>;

/** How much of a session the app reads when it opens one (issue 8 measures this open). */
export const OPENING: Required<OpeningLimits> = { numActiveEvents: 50, numTurns: 50 };

export interface InterruptedRun extends InterruptedInvocation {
  sessionTitle: string;
  /** The message that began the cut-off turn ('' when there is none). */
  turnText: string;
  cause: RunCause;
}

/**
 * Why a run stopped: `cut-off` (a reload, a crash or a closed tab), `stopped` (Stop), `failed`
 * (see its error: a model that could not be reached, a full disk), `rewound` (a rewind to a
 * checkpoint), `waiting` (a paused run, waiting for an answer).
 */
export type RunCause = 'cut-off' | 'stopped' | 'failed' | 'rewound' | 'waiting';

export interface Settings {
  /** Resume interrupted runs on load without asking. */
  autoResume: boolean;
  /**
   * `visible`: the offline demo agents take a visible moment per step, so that a reload in the
   * middle of a run is easy to try; `instant`: they answer at once.
   */
  demoPace: DemoPace;
  /** Light or dark, or as the system says (`prefers-color-scheme`). */
  theme: Theme;
  /** After a first answer, its model titles the session (a provider's; sessions/model-titles.ts). */
  modelTitles: boolean;
}

export type DemoPace = 'visible' | 'instant';

export type Theme = 'system' | 'light' | 'dark';

export const DEFAULT_SETTINGS: Settings = {
  autoResume: false,
  demoPace: 'visible',
  theme: 'system',
  modelTitles: true,
};

/** "Write a title" (sessions/model-titles.ts): the title written, and the one before (its Undo). */
export interface WrittenTitle {
  title: string;
  before: string;
}

/**
 * Keys at rest (keys/key-vault.ts): whether a passphrase protects the stored secrets, and whether
 * this tab holds the key (always, when none does).
 */
export interface KeyStatus {
  protected: boolean;
  unlocked: boolean;
}
