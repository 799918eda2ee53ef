// The data that crosses between the page and the runtime worker (and between tabs). Plain,
// structured-clonable shapes only: no classes, no functions.

import type { Flow, FlowProblem } from '../src/flows/flow.ts';
import type { Event, InterruptedInvocation } from '../src/index.ts';

/** The BroadcastChannel on which every tab's worker says what it changed. */
export const BROADCAST_CHANNEL = 'trellis';

export type RuntimeBroadcast =
  | { type: 'sessions-changed' }
  | { type: 'session-changed'; sessionId: string }
  | { type: 'busy-changed'; sessionId: string; busy: boolean }
  | { type: 'flows-changed' };

/** A built-in demo agent, a built-in example flow (read-only), or one of the user's flows. */
export type AgentKind = 'demo' | 'example' | 'flow';

export interface AgentInfo {
  /** `state-keeper`…, `example:<name>`, `flow:<id>`. */
  id: string;
  name: string;
  description: string;
  kind: AgentKind;
  /** The graph of a flow agent. */
  flow?: Flow;
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

export interface SessionSummary {
  id: string;
  title: string;
  agentId: string;
  createdAt: number;
  lastUpdateTime: number;
}

export interface ArtifactInfo {
  filename: string;
  versions: number[];
  scope: 'session' | 'user';
}

/** What the page needs to show a session. */
export interface SessionSnapshot {
  summary: SessionSummary;
  /** Session, `user:` and `app:` keys. */
  state: Record<string, unknown>;
  /** The raw log, rewind markers included (from the position asked for). */
  events: Event[];
  artifacts: ArtifactInfo[];
}

export interface InterruptedRun extends InterruptedInvocation {
  sessionTitle: string;
}

export interface Settings {
  /** Resume interrupted runs on load without asking. */
  autoResume: boolean;
}

export const DEFAULT_SETTINGS: Settings = { autoResume: false };
