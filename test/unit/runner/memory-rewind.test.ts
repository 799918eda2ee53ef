// Rewinding a session removes what it added to memory past that point: a runner with a memory
// service takes the rewound events' memories out after it writes the rewind, whichever kind of
// rewind (before a turn, after an event, an edit, a switch of branch), on both kinds of services.

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  InMemoryMemoryService,
  InMemorySessionService,
  IndexedDbMemoryService,
  LlmAgent,
  Runner,
  ScriptedModel,
  type BaseMemoryService,
  type BaseSessionService,
  type Event,
} from '../../../src/index.ts';
import { collect, freshDbName, userMessage } from '../../support/helpers.ts';
import { inMemoryKind, openIndexedDb, type Services } from '../../support/service-kinds.ts';

const appName = 'app';
const userId = 'u';

/** A model that answers each message with `re: <message>`. */
const echo = () =>
  new ScriptedModel((request) => {
    const last = request.contents.at(-1)?.parts[0]?.text ?? '';
    return `re: ${last}`;
  });

const kinds = [
  {
    name: 'in memory',
    open: () => ({ services: inMemoryKind.open(), memory: new InMemoryMemoryService() }),
  },
  {
    name: 'IndexedDB',
    open: () => {
      const dbName = freshDbName();
      const memory = new IndexedDbMemoryService({ dbName });
      const services = openIndexedDb(dbName);
      const close = services.close;
      services.close = async () => {
        await close();
        await memory.close();
      };
      return { services, memory };
    },
  },
];

const opened: Services[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((services) => services.close()));
  vi.restoreAllMocks();
});

describe.each(kinds)('a rewind forgets what the rewound events added to memory ($name)', (kind) => {
  async function conversation(...messages: string[]) {
    const { services, memory } = kind.open();
    opened.push(services);
    const runner = new Runner({
      appName,
      agent: new LlmAgent({ name: 'echo', model: echo() }),
      ...services,
      memoryService: memory,
    });
    const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
    const turns: Event[][] = [];
    for (const text of messages) {
      const stored: Event[] = [];
      const yielded = await collect(
        runner.runAsync({
          userId,
          sessionId,
          newMessage: userMessage(text),
          runConfig: { onMessageStored: (event) => stored.push(event) },
        }),
      );
      turns.push([...stored, ...yielded]);
    }
    const key = { appName, userId, sessionId };
    const remember = async () =>
      memory.addSessionToMemory((await runner.sessionService.getSession(key))!);
    const recalled = async (query = 'apples pears plums figs') =>
      (await memory.searchMemory({ appName, userId, query })).memories
        .map((m) => m.content.parts[0]!.text!)
        .sort();
    return { runner, memory, sessionId, key, turns, remember, recalled };
  }

  it('before a turn: that turn and every later one are forgotten', async () => {
    const { runner, sessionId, turns, remember, recalled } = await conversation(
      'apples',
      'pears',
      'plums',
    );
    await remember();
    expect(await recalled()).toEqual(
      ['apples', 'pears', 'plums', 're: apples', 're: pears', 're: plums'].sort(),
    );
    await runner.rewindAsync({
      userId,
      sessionId,
      rewindBeforeInvocationId: turns[1]![0]!.invocationId,
    });
    expect(await recalled()).toEqual(['apples', 're: apples']);
  });

  it('after an event: what followed it is forgotten, the event stays', async () => {
    const { runner, sessionId, turns, remember, recalled } = await conversation('apples', 'pears');
    await remember();
    await runner.rewindAsync({ userId, sessionId, rewindAfterEventId: turns[1]![0]!.id });
    expect(await recalled()).toEqual(['apples', 'pears', 're: apples']);
  });

  it('an edit forgets the turn it replaces; adding the session again remembers the new one', async () => {
    const { runner, sessionId, turns, remember, recalled } = await conversation('apples', 'pears');
    await remember();
    await collect(
      runner.editMessageAsync({
        userId,
        sessionId,
        invocationId: turns[1]![0]!.invocationId,
        newMessage: userMessage('figs'),
      }),
    );
    expect(await recalled()).toEqual(['apples', 're: apples']);
    await remember();
    expect(await recalled()).toEqual(['apples', 'figs', 're: apples', 're: figs']);
  });

  it('switching back to a branch does not bring its memories back until it is added again', async () => {
    const { runner, sessionId, turns, remember, recalled } = await conversation('apples', 'pears');
    await remember();
    const marker = await runner.rewindAsync({
      userId,
      sessionId,
      rewindBeforeInvocationId: turns[1]![0]!.invocationId,
    });
    await collect(runner.runAsync({ userId, sessionId, newMessage: userMessage('plums') }));
    await remember();
    expect(await recalled()).toEqual(['apples', 'plums', 're: apples', 're: plums']);
    // Undo the rewind: the pears branch is active again, the plums one is not.
    await runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: marker.invocationId });
    expect(await recalled()).toEqual(['apples', 're: apples']);
    await remember();
    expect(await recalled()).toEqual(['apples', 'pears', 're: apples', 're: pears']);
  });

  it("leaves other sessions' memories alone", async () => {
    const first = await conversation('apples', 'pears');
    await first.remember();
    const other = await first.runner.sessionService.createSession({ appName, userId });
    await collect(
      first.runner.runAsync({ userId, sessionId: other.id, newMessage: userMessage('figs') }),
    );
    await first.memory.addSessionToMemory(
      (await first.runner.sessionService.getSession({ appName, userId, sessionId: other.id }))!,
    );
    await first.runner.rewindAsync({
      userId,
      sessionId: first.sessionId,
      rewindBeforeInvocationId: first.turns[0]![0]!.invocationId,
    });
    expect(await first.recalled()).toEqual(['figs', 're: figs']);
  });
});

describe('a rewind and memory', () => {
  /** Counts reads of whole sessions: a rewind must not read the log for memory it has not. */
  class CountingSessions extends InMemorySessionService {
    reads = 0;
    override getSession(...args: Parameters<BaseSessionService['getSession']>) {
      this.reads++;
      return super.getSession(...args);
    }
  }

  async function setUp(memory: BaseMemoryService) {
    const sessionService = new CountingSessions();
    const runner = new Runner({
      appName,
      agent: new LlmAgent({ name: 'echo', model: echo() }),
      sessionService,
      memoryService: memory,
    });
    const { id: sessionId } = await sessionService.createSession({ appName, userId });
    const events = await collect(
      runner.runAsync({ userId, sessionId, newMessage: userMessage('apples') }),
    );
    await collect(runner.runAsync({ userId, sessionId, newMessage: userMessage('pears') }));
    return { runner, sessionService, sessionId, invocationId: events[0]!.invocationId };
  }

  it('reads nothing of the log for a session that has nothing in memory', async () => {
    const { runner, sessionService, sessionId, invocationId } = await setUp(
      new InMemoryMemoryService(),
    );
    sessionService.reads = 0;
    await runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: invocationId });
    expect(sessionService.reads).toBe(0);
  });

  it('stands when memory fails, and says so', async () => {
    const memory = new InMemoryMemoryService();
    const { runner, sessionService, sessionId, invocationId } = await setUp(memory);
    await memory.addSessionToMemory(
      (await sessionService.getSession({ appName, userId, sessionId }))!,
    );
    vi.spyOn(memory, 'removeEventsFromMemory').mockRejectedValue(new Error('disk on fire'));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const marker = await runner.rewindAsync({
      userId,
      sessionId,
      rewindBeforeInvocationId: invocationId,
    });
    expect(marker.actions.rewindBeforeInvocationId).toBe(invocationId);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/could not remove/),
      expect.objectContaining({ message: 'disk on fire' }),
    );
    const session = await sessionService.getSession({ appName, userId, sessionId });
    expect(session!.events.at(-1)!.id).toBe(marker.id);
  });

  it('leaves a branch a rewind had left out when a session is added to memory', async () => {
    const memory = new InMemoryMemoryService();
    const { runner, sessionService, sessionId, invocationId } = await setUp(memory);
    await runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: invocationId });
    await collect(runner.runAsync({ userId, sessionId, newMessage: userMessage('figs') }));
    await memory.addSessionToMemory(
      (await sessionService.getSession({ appName, userId, sessionId }))!,
    );
    const { memories } = await memory.searchMemory({ appName, userId, query: 'apples figs' });
    expect(memories.map((m) => m.content.parts[0]!.text)).toEqual(['figs', 're: figs']);
  });
});
