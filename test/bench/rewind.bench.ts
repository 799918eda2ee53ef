// Rewind cost against the length of the log: with per-invocation checkpoints it reads the
// target's checkpoint and the current state, so it should not grow with the log.

import 'fake-indexeddb/auto';
import { expect, it } from 'vitest';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  InMemoryArtifactService,
  InMemorySessionService,
  createEvent,
  type BaseArtifactService,
  type BaseSessionService,
} from '../../src/index.ts';
import { formatTable, measure, type Figure } from './measure.ts';

const appName = 'bench';
const userId = 'u';
const LENGTHS = [100, 10_000, 100_000];
const EVENTS_PER_TURN = 4;

/** A session of `length` events: turns of a user message and three agent events with state. */
async function buildSession(sessions: BaseSessionService, length: number) {
  const session = await sessions.createSession({ appName, userId, state: { topic: 'bench' } });
  const turns: string[] = [];
  for (let i = 0; i < length; i++) {
    const turn = Math.floor(i / EVENTS_PER_TURN);
    const invocationId = `e-${turn}`;
    if (i % EVENTS_PER_TURN === 0) turns.push(invocationId);
    const first = i % EVENTS_PER_TURN === 0;
    await sessions.appendEvent({
      session,
      event: createEvent({
        invocationId,
        author: first ? 'user' : 'agent',
        content: { role: first ? 'user' : 'model', parts: [{ text: `message ${i}` }] },
        actions: { stateDelta: { [`k${turn % 50}`]: i, counter: i } },
      }),
    });
  }
  return { session, turns };
}

async function rewindFigures(
  label: string,
  open: () => { sessions: BaseSessionService; artifacts: BaseArtifactService },
) {
  const figures: Figure[] = [];
  for (const length of LENGTHS) {
    const { sessions, artifacts } = open();
    const { session, turns } = await buildSession(sessions, length);
    const key = { appName, userId, sessionId: session.id };
    const rewind = (target: string) => () =>
      sessions.rewindSession({
        ...key,
        rewindBeforeInvocationId: target,
        artifactService: artifacts,
      });
    figures.push(
      await measure(
        `${label} rewind before the last turn, ${length} events`,
        rewind(turns.at(-1)!),
      ),
    );
    figures.push(
      await measure(`${label} rewind before the first turn, ${length} events`, rewind(turns[0]!)),
    );
  }
  return figures;
}

it('rewind cost does not grow with the log', { timeout: 600_000 }, async () => {
  let n = 0;
  const figures = [
    ...(await rewindFigures('in-memory', () => ({
      sessions: new InMemorySessionService(),
      artifacts: new InMemoryArtifactService(),
    }))),
    ...(await rewindFigures('IndexedDB (fake-indexeddb)', () => {
      const dbName = `bench-${n++}`;
      return {
        sessions: new IndexedDbSessionService({ dbName }),
        artifacts: new IndexedDbArtifactService({ dbName }),
      };
    })),
  ];
  console.log(
    formatTable([
      ['benchmark', 'median ms', 'min', 'max'],
      ...figures.map((f) => [f.name, f.median, f.min, f.max]),
    ]),
  );
  expect(figures.length).toBe(LENGTHS.length * 4);
});
