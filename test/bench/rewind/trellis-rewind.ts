// Trellis's rewind on a session of a given number of events, in memory or on IndexedDB: the
// session is written straight to the session service (a turn is a user message and three agent
// events, each with a state delta), then `runner.rewindAsync` goes back before a turn.

import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  InMemoryRunner,
  LlmAgent,
  Runner,
  ScriptedModel,
  createEvent,
} from '../../../src/index.ts';

const appName = 'bench';
const userId = 'u';
export const EVENTS_PER_TURN = 4;

export interface RewindableSession {
  /** Rewinds to just before the last turn. */
  beforeLastTurn(): Promise<unknown>;
  /** Rewinds to just before the first turn. */
  beforeFirstTurn(): Promise<unknown>;
}

export interface TrellisBackend {
  name: string;
  runner(): Runner;
}

// The agent never runs: the runner is here for its rewindAsync.
const agent = () => new LlmAgent({ name: 'agent', model: new ScriptedModel([]) });

export const inMemory: TrellisBackend = {
  name: 'Trellis InMemoryRunner',
  runner: () => new InMemoryRunner({ agent: agent(), appName }),
};

let databases = 0;

/** Needs `fake-indexeddb/auto` (or a real IndexedDB) loaded first. */
export const indexedDb: TrellisBackend = {
  name: 'Trellis IndexedDB (fake-indexeddb)',
  runner() {
    const dbName = `bench-rewind-${databases++}`;
    return new Runner({
      appName,
      agent: agent(),
      sessionService: new IndexedDbSessionService({ dbName }),
      artifactService: new IndexedDbArtifactService({ dbName }),
    });
  },
};

export async function buildSession(
  backend: TrellisBackend,
  length: number,
): Promise<RewindableSession> {
  const runner = backend.runner();
  const sessions = runner.sessionService;
  const session = await sessions.createSession({ appName, userId, state: { topic: 'bench' } });
  const turns: string[] = [];
  for (let i = 0; i < length; i++) {
    const turn = Math.floor(i / EVENTS_PER_TURN);
    const invocationId = `e-${turn}`;
    const first = i % EVENTS_PER_TURN === 0;
    if (first) turns.push(invocationId);
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
  const rewind = (invocationId: string) =>
    runner.rewindAsync({ userId, sessionId: session.id, rewindBeforeInvocationId: invocationId });
  return {
    beforeLastTurn: () => rewind(turns.at(-1)!),
    beforeFirstTurn: () => rewind(turns[0]!),
  };
}
