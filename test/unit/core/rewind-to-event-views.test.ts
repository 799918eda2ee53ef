// The views of a log with markers of both kinds (rewind before an invocation, rewind to just
// after an event): the active events against their recursive definition, the memo of a live
// session, the walk a store makes, and the branch tree, on hand-made and on random logs.

import { describe, expect, it } from 'vitest';
import {
  activeEvents,
  branchTree,
  isRewindMarker,
  createUserContent,
  type Event,
  type EventActions,
} from '../../../src/index.ts';
import {
  ActiveEventsView,
  activeEventsAfter,
  indexOfTarget,
  logPositions,
  type LogReader,
} from '../../../src/core/active-events.ts';

/** Events written by hand: id, invocation, and (for a turn's first event) a message. */
function ev(id: string, invocationId: string, init: Partial<Event> = {}): Event {
  return {
    id,
    invocationId,
    author: 'agent',
    timestamp: 0,
    actions: { stateDelta: {}, artifactDelta: {} },
    ...init,
  };
}
const turn = (id: string, invocationId: string) =>
  ev(id, invocationId, { author: 'user', content: createUserContent(id) });
const marker = (id: string, target: Partial<EventActions>) =>
  ev(id, `m-${id}`, { author: 'user', actions: { stateDelta: {}, artifactDelta: {}, ...target } });
const ids = (events: readonly Event[]) => events.map((e) => e.id);

/** The recursive definition of the active events (core/active-events), written out literally. */
function definition(log: readonly Event[]): Event[] {
  if (log.length === 0) return [];
  const rest = log.slice(0, -1);
  const last = log.at(-1)!;
  const { rewindBeforeInvocationId: before, rewindAfterEventId: after } = last.actions;
  if (before !== undefined) {
    const first = rest.findIndex((e) => e.invocationId === before);
    return definition(first < 0 ? rest : rest.slice(0, first));
  }
  if (after !== undefined) {
    const at = rest.findIndex((e) => e.id === after);
    return definition(at < 0 ? rest : rest.slice(0, at + 1));
  }
  return [...definition(rest), last];
}

/** A store's view of an in-memory log, read one event at a time. */
function readerOf(log: readonly Event[]): LogReader {
  const positions = logPositions(log);
  return {
    length: log.length,
    eventAt: async (index) => log[index]!,
    indexOfTarget: async (target) => indexOfTarget(target, positions),
  };
}

describe('activeEvents with markers to just after an event', () => {
  const log = [
    turn('a1', 'A'),
    ev('a2', 'A'),
    turn('b1', 'B'),
    ev('b2', 'B'),
    ev('b3', 'B'),
    marker('x', { rewindAfterEventId: 'b2' }),
  ];

  it.each([
    ['keeps the log up to and including the event', log, ['a1', 'a2', 'b1', 'b2']],
    [
      'nests: a later marker to an earlier event goes further back',
      [...log, ev('b4', 'B'), marker('y', { rewindAfterEventId: 'a2' })],
      ['a1', 'a2'],
    ],
    [
      'goes back into a span a rewind hid',
      [...log, marker('y', { rewindAfterEventId: 'b3' })],
      ['a1', 'a2', 'b1', 'b2', 'b3'],
    ],
    [
      'is undone by rewinding before the marker',
      [...log, ev('b4', 'B'), marker('y', { rewindBeforeInvocationId: 'm-x' })],
      ['a1', 'a2', 'b1', 'b2', 'b3'],
    ],
    [
      'hides nothing but itself when the event is unknown',
      [turn('a1', 'A'), marker('x', { rewindAfterEventId: 'ghost' })],
      ['a1'],
    ],
    [
      'hides nothing but itself when the event comes after it',
      [turn('a1', 'A'), marker('x', { rewindAfterEventId: 'a2' }), ev('a2', 'A')],
      ['a1', 'a2'],
    ],
  ])('%s', (_, events, expected) => {
    expect(ids(activeEvents(events))).toEqual(expected);
    expect(ids(definition(events))).toEqual(expected);
  });

  it('counts as a marker everywhere: isRewindMarker and the memo of a growing log', () => {
    expect(isRewindMarker(log.at(-1)!)).toBe(true);
    const growing: Event[] = log.slice(0, -1);
    const view = new ActiveEventsView(growing);
    expect(ids(view.get())).toEqual(['a1', 'a2', 'b1', 'b2', 'b3']);
    growing.push(log.at(-1)!);
    expect(ids(view.get())).toEqual(['a1', 'a2', 'b1', 'b2']);
    growing.push(ev('b4', 'B'));
    expect(ids(view.get())).toEqual(['a1', 'a2', 'b1', 'b2', 'b4']);
  });

  it('puts the tip back to the event’s turn in the branch tree, which records the marker', () => {
    const tree = branchTree([...log, turn('c1', 'C'), marker('y', { rewindAfterEventId: 'a2' })]);
    expect(tree.activePath).toEqual(['A']);
    expect(tree.byId.get('B')!.childIds).toEqual(['C']);
    expect(tree.markers).toEqual([
      { invocationId: 'm-x', rewindAfterEventId: 'b2', abandonedTipId: 'B', restoredTipId: 'B' },
      { invocationId: 'm-y', rewindAfterEventId: 'a2', abandonedTipId: 'C', restoredTipId: 'A' },
    ]);
    for (const abandoned of ['B', 'C']) {
      expect(tree.byId.get(abandoned)!.operations.switchToBranch).toEqual({
        rewindBeforeInvocationId: 'm-y',
      });
    }
  });
});

/** A small seeded random generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A random log as runs and rewinds write it: new turns, more events of an invocation that is
 * still active (a resume), and markers of both kinds to anything earlier (hidden events, markers
 * and unknown targets included).
 */
function randomLog(seed: number, steps = 30): Event[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const log: Event[] = [];
  let n = 0;
  for (let step = 0; step < steps; step++) {
    const roll = next();
    const id = `e${n++}`;
    const turnIds = [...new Set(log.filter((e) => e.content).map((e) => e.invocationId))];
    const activeTurns = new Set(activeEvents(log).map((e) => e.invocationId));
    const resumable = turnIds.filter((t) => activeTurns.has(t));
    if (roll < 0.35 || log.length === 0) {
      log.push(turn(id, `i${n}`));
    } else if (roll < 0.6 && resumable.length > 0) {
      log.push(ev(id, pick(resumable)));
    } else if (roll < 0.8) {
      const target = next() < 0.1 ? 'ghost' : pick(log).id;
      log.push(marker(id, { rewindAfterEventId: target }));
    } else {
      const target = next() < 0.1 ? 'ghost' : pick(log).invocationId;
      log.push(marker(id, { rewindBeforeInvocationId: target }));
    }
  }
  return log;
}

describe('on random logs with markers of both kinds', () => {
  const seeds = Array.from({ length: 200 }, (_, i) => i + 1);

  it('activeEvents follows its recursive definition', () => {
    for (const seed of seeds) {
      const log = randomLog(seed);
      expect(ids(activeEvents(log)), `seed ${seed}`).toEqual(ids(definition(log)));
    }
  });

  it('the walk a store makes finds the active events after an event, or that it was hidden', async () => {
    const seen = { hidden: 0, last: 0, followed: 0 };
    for (const seed of seeds) {
      const log = randomLog(seed);
      const active = activeEvents(log);
      for (const [index, event] of log.entries()) {
        if (isRewindMarker(event)) continue;
        const at = active.indexOf(event);
        const expected = at < 0 ? undefined : ids(active.slice(at + 1));
        const after = await activeEventsAfter(readerOf(log), index);
        expect(after && ids(after), `seed ${seed}, event ${event.id}`).toEqual(expected);
        seen[!after ? 'hidden' : after.length === 0 ? 'last' : 'followed']++;
      }
    }
    // The logs are varied enough to test something.
    expect(Math.min(seen.hidden, seen.last, seen.followed)).toBeGreaterThan(50);
  });

  it('the branch tree’s active path is the turns of the active events', () => {
    for (const seed of seeds) {
      const log = randomLog(seed);
      const turnIds = new Set(
        log.filter((e) => e.content && !isRewindMarker(e)).map((e) => e.invocationId),
      );
      const activeTurns = [
        ...new Set(
          activeEvents(log)
            .map((e) => e.invocationId)
            .filter((id) => turnIds.has(id)),
        ),
      ];
      expect(branchTree(log).activePath, `seed ${seed}`).toEqual(activeTurns);
    }
  });
});
