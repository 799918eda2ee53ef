// The shapes of Share and export (workers/sessions/session-exports.ts) that cross to the page:
// plain data. protocol.ts re-exports them.

import type { Event } from '../../src/core/event.ts';
import type { TurnRange } from '../../src/core/turn-range.ts';

export type { TurnRange } from '../../src/core/turn-range.ts';

/** What the page renders an export from (src/ui/export/): the session, whole. */
export interface ExportSource {
  sessionId: string;
  title: string;
  agentId: string;
  createdAt: number;
  lastUpdateTime: number;
  /** The title as the start of a file name (safe on every file system). */
  fileStem: string;
  /**
   * The whole raw log, oldest first: rewound branches and markers too, and on each event that
   * saved an artifact version, that version's bytes (customMetadata.trellis.artifacts).
   */
  events: readonly Event[];
}

/** A turn of the active conversation, as the range picker lists it. */
export interface ExportTurnChoice {
  invocationId: string;
  /** Its message, cut short. */
  text: string;
}

/** What the page asks to export: a format, and optionally a range of the active turns. */
export interface ExportRequest {
  format: 'html' | 'markdown' | 'json';
  range?: TurnRange;
}
