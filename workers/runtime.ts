// The Web Worker that owns the runtime: runners and IndexedDB services live here, and the page
// reaches them through Comlink. Everything it takes and returns is plain data.

import { expose } from 'comlink';
import { createStateKeeper } from '../src/demos/state-keeper.ts';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  Runner,
  type Event,
  type Session,
} from '../src/index.ts';

const APP_NAME = 'trellis';
const USER_ID = 'local';

const sessionService = new IndexedDbSessionService();
const artifactService = new IndexedDbArtifactService();
const runner = new Runner({
  appName: APP_NAME,
  agent: createStateKeeper({ chunkDelayMs: 40 }),
  sessionService,
  artifactService,
});

const key = (sessionId: string) => ({ appName: APP_NAME, userId: USER_ID, sessionId });

const api = {
  async listSessions(): Promise<Session[]> {
    return (await sessionService.listSessions({ appName: APP_NAME, userId: USER_ID })).sessions;
  },

  createSession(): Promise<Session> {
    return sessionService.createSession({ appName: APP_NAME, userId: USER_ID });
  },

  getSession(sessionId: string): Promise<Session | undefined> {
    return sessionService.getSession(key(sessionId));
  },

  /** Runs one turn; each event (partial ones included) goes to `onEvent` as it comes. */
  async runTurn(sessionId: string, text: string, onEvent: (event: Event) => void): Promise<void> {
    const newMessage = { role: 'user' as const, parts: [{ text }] };
    const stream = runner.runAsync({
      userId: USER_ID,
      sessionId,
      newMessage,
      runConfig: { streamingMode: 'sse' },
    });
    for await (const event of stream) onEvent(event);
  },
};

export type RuntimeApi = typeof api;

expose(api);
