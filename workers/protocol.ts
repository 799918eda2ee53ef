// The data that crosses between the page and the runtime worker (and between tabs). Plain,
// structured-clonable shapes only: no classes, no functions.

import type { Event, InterruptedInvocation } from '../src/index.ts';

/** The BroadcastChannel on which every tab's worker says what it changed. */
export const BROADCAST_CHANNEL = 'trellis';

export type RuntimeBroadcast =
  | { type: 'sessions-changed' }
  | { type: 'session-changed'; sessionId: string }
  | { type: 'busy-changed'; sessionId: string; busy: boolean };

export interface AgentInfo {
  id: string;
  name: string;
  description: string;
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
