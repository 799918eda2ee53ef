// The turn bookkeeping of a log held in memory: the in-memory session service keeps one per
// session, and the upgrade to schema 6 replays each stored log through one.

import { indexOfTarget } from '../core/active-events.ts';
import { rewindTargetOf, type Event } from '../core/event.ts';
import type { RewindReader } from './rewind-point.ts';
import {
  NO_TURN,
  invocationTurn,
  withTip,
  type InvocationTurn,
  type SessionRecord,
} from './session-log.ts';
import type { InvocationCheckpoint } from './session-service.ts';
import { tipRestoredBy, type StoredTurn, type TurnReader } from './turn-summary.ts';

/** A log in memory: its events, where each is, and each invocation's checkpoint. */
export interface LogInMemory {
  events: readonly Event[];
  eventSeqs: ReadonlyMap<string, number>;
  checkpoints: ReadonlyMap<string, InvocationCheckpoint>;
}

export class TurnLog {
  private readonly turns = new Map<string, StoredTurn>();
  private readonly children = new Map<string, string[]>();
  private readonly markers: string[] = [];

  /** Records the bookkeeping of an invocation whose first event is at `firstSeq`. */
  add(invocationId: string, firstSeq: number, turn: InvocationTurn): void {
    if (this.turns.has(invocationId)) return;
    this.turns.set(invocationId, { invocationId, firstSeq, turn });
    if (turn.turn) {
      const siblings = this.children.get(turn.turn.parentId);
      if (siblings) siblings.push(invocationId);
      else this.children.set(turn.turn.parentId, [invocationId]);
    }
    if (turn.marker) this.markers.push(invocationId);
  }

  get(invocationId: string): StoredTurn | undefined {
    return this.turns.get(invocationId);
  }

  /** The reads of a rewind and of a turn summary over `log`. */
  reader(log: LogInMemory): TurnReader {
    const rewind = memoryRewindReader(log);
    const byId = (ids: readonly string[] | undefined) =>
      (ids ?? []).map((id) => this.turns.get(id)!);
    return {
      ...rewind,
      invocationTurn: async (invocationId) => this.turns.get(invocationId),
      childCount: async (parentId) => this.children.get(parentId)?.length ?? 0,
      children: async (parentId) => byId(this.children.get(parentId)),
      markers: async () => byId(this.markers),
    };
  }
}

/** The reads a rewind makes, over a log in memory. */
export function memoryRewindReader(log: LogInMemory): RewindReader {
  const { events, eventSeqs, checkpoints } = log;
  return {
    length: events.length,
    eventAt: async (index) => events[index]!,
    indexOfTarget: async (target) =>
      indexOfTarget(target, {
        firstIndexOf: (invocationId) => checkpoints.get(invocationId)?.firstSeq,
        indexOfEvent: (eventId) => eventSeqs.get(eventId),
      }),
    checkpoint: async (invocationId) => checkpoints.get(invocationId),
    findEvent: async (eventId) => {
      const index = eventSeqs.get(eventId);
      return index === undefined ? undefined : { index, event: events[index]! };
    },
    span: async (from, to) => events.slice(from, to + 1),
  };
}

/**
 * Replays a whole stored log through the append bookkeeping: the session's tip, and each
 * invocation's turn bookkeeping, exactly as appending the log event by event records them.
 */
export async function replayTurns(
  events: readonly Event[],
): Promise<{ tip: string; turns: TurnLog }> {
  const turns = new TurnLog();
  const eventSeqs = new Map<string, number>();
  const checkpoints = new Map<string, InvocationCheckpoint>();
  let record = { tip: NO_TURN } as SessionRecord;
  for (let seq = 0; seq < events.length; seq++) {
    const event = events[seq]!;
    // Markers are rare: the copy of the log before one costs less than a reader that stops early.
    const target = rewindTargetOf(event);
    const restored = target
      ? await tipRestoredBy(
          turns.reader({ events: events.slice(0, seq), eventSeqs, checkpoints }),
          target,
          event.invocationId,
        )
      : undefined;
    const starts = !checkpoints.has(event.invocationId);
    if (starts) {
      turns.add(event.invocationId, seq, invocationTurn(record, event, restored));
      checkpoints.set(event.invocationId, {
        invocationId: event.invocationId,
        firstSeq: seq,
        state: {},
        artifacts: {},
      });
    }
    record = withTip(record, event, starts, restored);
    eventSeqs.set(event.id, seq);
  }
  return { tip: record.tip ?? NO_TURN, turns };
}
