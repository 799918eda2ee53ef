// The turn summary that opening a session reads agrees with the whole log's active events and
// branch tree, on both session services, whatever rewinds made of the log.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  activeEvents,
  createEvent,
  InMemorySessionService,
  rewindTargetOf,
  type BaseSessionService,
  type Event,
  type Session,
} from '../../../src/index.ts';
import { branchTree, type Turn } from '../../../src/core/branch-tree.ts';
import type {
  LogEntry,
  LogPage,
  SessionSummary,
  TurnSummary,
} from '../../../src/store/session-service.ts';
import { replayTurns } from '../../../src/store/turn-log.ts';
import { readSessionSummary } from '../../../src/store/turn-summary.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'app';
const userId = 'ada';

/** A small deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

function turnSummaryOf(turn: Turn, log: readonly Event[]): TurnSummary {
  return {
    invocationId: turn.invocationId,
    parentId: turn.parentId,
    text: turn.text,
    firstSeq: log.indexOf(turn.firstEvent),
    editable: turn.operations.edit !== undefined,
  };
}

/** What the summary must say, computed from the whole log. */
function expectedSummary(
  log: readonly Event[],
  numActiveEvents: number,
  numTurns: number,
): Omit<SessionSummary, 'session'> {
  const active = activeEvents(log);
  const tree = branchTree(log);
  const path = tree.activePath.slice(-numTurns);
  const pathComplete = path.length === tree.activePath.length;
  const summaries = (ids: readonly string[]) =>
    ids.map((id) => turnSummaryOf(tree.byId.get(id)!, log));
  return {
    eventCount: log.length,
    activeTail: active.slice(-numActiveEvents).map((event) => ({
      seq: log.indexOf(event),
      event,
    })),
    activeComplete: active.length <= numActiveEvents,
    activePath: path.map((id) => {
      const turn = tree.byId.get(id)!;
      return {
        ...turnSummaryOf(turn, log),
        childCount: turn.childIds.length,
        ...(turn.childIds.length > 1 || (id === tree.activePath.at(-1) && turn.childIds.length > 0)
          ? { children: summaries(turn.childIds) }
          : {}),
      };
    }),
    pathComplete,
    ...(pathComplete ? { roots: summaries(tree.rootIds) } : {}),
  };
}

/** What a page of the log must say, computed from the whole log. */
function expectedPage(log: readonly Event[], fromSeq: number, limit: number): LogPage {
  const activeIds = new Set(activeEvents(log).map((event) => event.id));
  const entries = log.slice(fromSeq, fromSeq + limit).map((event, i): LogEntry => {
    const seq = fromSeq + i;
    const target = rewindTargetOf(event);
    const at =
      target &&
      (target.type === 'beforeInvocation'
        ? log.findIndex((other) => other.invocationId === target.invocationId)
        : log.findIndex((other) => other.id === target.eventId));
    return {
      seq,
      event,
      active: activeIds.has(event.id),
      ...(at !== undefined && at >= 0 && at < seq ? { target: log[at]! } : {}),
    };
  });
  return { eventCount: log.length, entries };
}

const userText = (text: string) => ({ role: 'user' as const, parts: [{ text }] });
const modelText = (text: string) => ({ role: 'model' as const, parts: [{ text }] });
const confirmationCall = {
  functionCall: {
    id: 'confirm-1',
    name: 'adk_request_confirmation',
    args: { originalFunctionCall: { id: 'call-1', name: 'send_coins', args: { amount: 5 } } },
  },
};
const confirmationAnswer = {
  role: 'user' as const,
  parts: [
    {
      functionResponse: {
        id: 'confirm-1',
        name: 'adk_request_confirmation',
        response: { confirmed: true },
      },
    },
  ],
};

describe.each(serviceKinds)('session summary ($name)', (kind) => {
  let services: Services;
  let service: BaseSessionService;

  beforeEach(() => {
    services = kind.open();
    service = services.sessionService;
  });
  afterEach(() => services.close());

  const key = (session: Session) => ({ appName, userId, sessionId: session.id });

  async function check(session: Session, numActiveEvents: number, numTurns: number) {
    const log = (await service.getSession(key(session)))!.events;
    const summary = await service.getSessionSummary({
      ...key(session),
      numActiveEvents,
      numTurns,
    });
    const { session: summarized, ...rest } = summary!;
    expect(summarized.events).toEqual([]);
    expect(rest).toEqual(expectedSummary(log, numActiveEvents, numTurns));
  }

  /**
   * The switch marker of every turn off the active path is the one `branchTree` of the whole log
   * gives; a turn on the path, or an invocation that is no turn, has none.
   */
  async function checkSwitchMarkers(session: Session) {
    const log = (await service.getSession(key(session)))!.events;
    const tree = branchTree(log);
    for (const turn of tree.turns) {
      const marker = service.getSwitchMarker({ ...key(session), invocationId: turn.invocationId });
      if (turn.active) {
        await expect(marker).rejects.toMatchObject({ name: 'InvalidRequestError' });
      } else {
        expect(await marker).toBe(turn.operations.switchToBranch!.rewindBeforeInvocationId);
      }
    }
    for (const { invocationId } of tree.markers) {
      await expect(
        service.getSwitchMarker({ ...key(session), invocationId }),
      ).rejects.toMatchObject({ name: 'InvalidRequestError' });
    }
  }

  /** Turns, state-only invocations, rewinds of both kinds and late events of old invocations. */
  async function randomSession(seed: number, steps: number): Promise<Session> {
    const next = random(seed);
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const session = await service.createSession({ appName, userId, state: { start: seed } });
    const invocations: string[] = [];
    let n = 0;
    // Odd seeds rewind often (short paths, many branches), even ones seldom (long paths).
    const calm = seed % 2 === 0;
    for (let step = 0; step < steps; step++) {
      const roll = calm && next() < 0.7 ? next() * 0.5 : next();
      const log = (await service.getSession(key(session)))!.events;
      const active = activeEvents(log);
      if (roll < 0.5 || invocations.length === 0) {
        const invocationId = `turn-${n++}`;
        invocations.push(invocationId);
        const fromUser = next() < 0.8;
        // Now and then the user's answer to a call, in an invocation of its own: no turn.
        const answers = fromUser && next() < 0.15;
        await service.appendEvent({
          session,
          event: createEvent({
            invocationId,
            author: fromUser ? 'user' : 'agent',
            content: answers
              ? confirmationAnswer
              : { role: fromUser ? 'user' : 'model', parts: [{ text: `message ${n}` }] },
          }),
        });
        for (let i = Math.floor(next() * 3); i > 0; i--) {
          await service.appendEvent({
            session,
            event: createEvent({
              invocationId,
              author: 'agent',
              content: { role: 'model', parts: [{ text: `answer ${n}.${i}` }] },
              actions: { stateDelta: { [`k${n}`]: i } },
            }),
          });
        }
      } else if (roll < 0.6) {
        const invocationId = `quiet-${n++}`;
        invocations.push(invocationId);
        await service.appendEvent({
          session,
          event: createEvent({ invocationId, author: 'agent', actions: { stateDelta: { q: n } } }),
        });
      } else if (roll < 0.65) {
        // A late event of an older invocation (a resumed run).
        await service.appendEvent({
          session,
          event: createEvent({
            invocationId: pick(invocations),
            author: 'agent',
            content: { role: 'model', parts: [{ text: `late ${n++}` }] },
          }),
        });
      } else if (roll < 0.85) {
        const marker = await service.rewindSession({
          ...key(session),
          rewindBeforeInvocationId: pick(invocations),
        });
        invocations.push(marker.invocationId);
      } else if (active.length > 1) {
        const target = pick(active.slice(0, -1));
        const marker = await service.rewindSession({
          ...key(session),
          rewindAfterEventId: target.id,
        });
        invocations.push(marker.invocationId);
      }
    }
    return session;
  }

  it('describes an empty session', async () => {
    const session = await service.createSession({ appName, userId });
    await check(session, 50, 50);
  });

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'agrees with the whole log after random turns and rewinds (seed %i)',
    async (seed) => {
      const session = await randomSession(seed, 80);
      await check(session, 50, 50);
      await check(session, 4, 3);
      await check(session, 1000, 1000);
      await checkSwitchMarkers(session);
    },
  );

  it.runIf(kind.persistent)('reads the same summary after a restart', async () => {
    const session = await randomSession(11, 40);
    const before = await service.getSessionSummary({ ...key(session), numTurns: 5 });
    services = await services.restart();
    service = services.sessionService;
    expect(await service.getSessionSummary({ ...key(session), numTurns: 5 })).toEqual(before);
  });

  it.each([1, 2, 3, 4])(
    'pages through the raw log, saying which events are active (seed %i)',
    async (seed) => {
      const session = await randomSession(seed, 80);
      const log = (await service.getSession(key(session)))!.events;
      for (const [fromSeq, limit] of [
        [0, 1000],
        [0, 7],
        [Math.max(0, log.length - 10), 10],
        [Math.floor(log.length / 2), 13],
        [log.length, 5],
      ] as const) {
        expect(await service.listEvents({ ...key(session), fromSeq, limit })).toEqual(
          expectedPage(log, fromSeq, limit),
        );
      }
    },
  );

  it('lists children of the tip after a rewind to just after it, to switch back to', async () => {
    const session = await service.createSession({ appName, userId });
    const say = (invocationId: string, text: string) =>
      service.appendEvent({
        session,
        event: createEvent({
          invocationId,
          author: 'user',
          content: { role: 'user', parts: [{ text }] },
        }),
      });
    await say('a', 'first');
    await say('b', 'second');
    const marker = await service.rewindSession({ ...key(session), rewindBeforeInvocationId: 'b' });
    const summary = await service.getSessionSummary(key(session));
    expect(summary!.activePath).toEqual([
      expect.objectContaining({
        invocationId: 'a',
        childCount: 1,
        children: [
          { invocationId: 'b', parentId: 'a', text: 'second', firstSeq: 1, editable: true },
        ],
      }),
    ]);
    expect(await service.getSwitchMarker({ ...key(session), invocationId: 'b' })).toBe(
      marker.invocationId,
    );
  });

  it('puts the user’s answer to an approval on the turn that asked, not in a turn of its own', async () => {
    // As an ADK server (or ADK Python's log) has it: the answer starts an invocation of its own.
    const session = await service.createSession({ appName, userId });
    const append = (event: Parameters<typeof createEvent>[0]) =>
      service.appendEvent({ session, event: createEvent(event) });
    await append({ invocationId: 'a', author: 'user', content: userText('send 5') });
    await append({
      invocationId: 'a',
      author: 'agent',
      content: { role: 'model', parts: [confirmationCall] },
      longRunningToolIds: ['confirm-1'],
    });
    await append({ invocationId: 'answer', author: 'user', content: confirmationAnswer });
    await append({ invocationId: 'answer', author: 'agent', content: modelText('Done') });
    await append({ invocationId: 'c', author: 'user', content: userText('thanks') });
    const summary = await service.getSessionSummary(key(session));
    expect(summary!.activePath.map((turn) => [turn.invocationId, turn.text])).toEqual([
      ['a', 'send 5'],
      ['c', 'thanks'],
    ]);
    await check(session, 50, 50);
    // Rewinding before the turn that asked takes its answer away too; switching brings both back.
    const marker = await service.rewindSession({ ...key(session), rewindBeforeInvocationId: 'a' });
    expect((await service.getSessionSummary(key(session)))!.activePath).toEqual([]);
    await check(session, 50, 50);
    await checkSwitchMarkers(session);
    expect(await service.getSwitchMarker({ ...key(session), invocationId: 'c' })).toBe(
      marker.invocationId,
    );
    await service.rewindSession({ ...key(session), rewindBeforeInvocationId: marker.invocationId });
    await check(session, 50, 50);
    const log = (await service.getSession(key(session)))!.events;
    expect(activeEvents(log).map((event) => event.invocationId)).toEqual([
      'a',
      'a',
      'answer',
      'answer',
      'c',
    ]);
  });

  it('agrees for an imported log', async () => {
    const source = await randomSession(21, 50);
    const { events } = (await service.getSession(key(source)))!;
    const imported = await service.importSession({ appName, userId, events });
    await check(imported, 50, 50);
    await check(imported, 3, 2);
  });

  it('is undefined for an unknown session', async () => {
    expect(await service.getSessionSummary({ appName, userId, sessionId: 'nope' })).toBeUndefined();
    expect(await service.listEvents({ appName, userId, sessionId: 'nope' })).toBeUndefined();
  });

  it('finds no switch marker in an unknown session or for an unknown invocation', async () => {
    const session = await randomSession(3, 20);
    await expect(
      service.getSwitchMarker({ appName, userId, sessionId: 'nope', invocationId: 'turn-0' }),
    ).rejects.toMatchObject({ name: 'SessionNotFoundError' });
    await expect(
      service.getSwitchMarker({ ...key(session), invocationId: 'nope' }),
    ).rejects.toMatchObject({ name: 'InvocationNotFoundError' });
  });
});

it('summarizes a session without reading its rewind markers (their number grows with rewinds)', async () => {
  const service = new InMemorySessionService();
  const session = await service.createSession({ appName, userId });
  const key = { appName, userId, sessionId: session.id };
  const say = (invocationId: string) =>
    service.appendEvent({
      session,
      event: createEvent({
        invocationId,
        author: 'user',
        content: { role: 'user', parts: [{ text: invocationId }] },
      }),
    });
  // Branches both among the roots (x, a) and under a fork of the active path (b, c under a).
  await say('x');
  await service.rewindSession({ ...key, rewindBeforeInvocationId: 'x' });
  await say('a');
  await say('b');
  await service.rewindSession({ ...key, rewindBeforeInvocationId: 'b' });
  await say('c');

  const log = (await service.getSession(key))!.events;
  const { tip, turns } = await replayTurns(log);
  const eventSeqs = new Map(log.map((event, seq) => [event.id, seq]));
  const checkpoints = new Map(
    log.map((event) => {
      const firstSeq = turns.get(event.invocationId)!.firstSeq;
      return [
        event.invocationId,
        { invocationId: event.invocationId, firstSeq, state: {}, artifacts: {} },
      ];
    }),
  );
  const reader = {
    ...turns.reader({ events: log, eventSeqs, checkpoints }),
    markers: () => Promise.reject(new Error('read every marker of the session')),
  };
  const { session: summarized, ...summary } = (await service.getSessionSummary(key))!;
  expect(summary.roots?.map((turn) => turn.invocationId)).toEqual(['x', 'a']);
  expect(summary.activePath[0]!.children?.map((turn) => turn.invocationId)).toEqual(['b', 'c']);
  expect(await readSessionSummary(reader, summarized, tip)).toEqual({
    session: summarized,
    ...summary,
  });
});
