// The model's contents kept up to date with a growing session (agents/contents-cache) against
// buildContents over the whole session, on random logs: rewind markers of both kinds, parallel
// branches, other agents, late answers, repeated and early responses, confirmations, partial
// and empty events, and the memo handed from one invocation to the next.

import { describe, expect, it } from 'vitest';
import { REQUEST_CONFIRMATION_FUNCTION } from '../../../src/agents/confirmation.ts';
import { cachedContents } from '../../../src/agents/contents-cache.ts';
import { buildContents } from '../../../src/agents/contents.ts';
import {
  ActiveEventsView,
  activeEvents,
  keepActiveEventsView,
  takeActiveEventsView,
} from '../../../src/core/active-events.ts';
import type { Part } from '../../../src/core/content.ts';
import type { Event } from '../../../src/core/event.ts';
import {
  FunctionTool,
  LlmAgent,
  Runner,
  ScriptedModel,
  functionCallResponse,
  type LlmRequest,
} from '../../../src/index.ts';
import { collect, userMessage } from '../../support/helpers.ts';
import { serviceKinds } from '../../support/service-kinds.ts';

/** A small seeded random generator (mulberry32), so that a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const AGENTS = ['a', 'b'];
const BRANCHES = [undefined, 'p', 'p.a', 'p.b'];

/** Random events: mostly the shapes of real turns, with every odd case now and then. */
function generator(seed: number) {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chance = (p: number) => next() < p;
  let ids = 0;
  let invocation = 0;
  const callId = () => `c${Math.floor(next() * 12)}`; // a small pool: ids meet again

  function part(): Part {
    const roll = next();
    if (roll < 0.35) return { text: chance(0.1) ? '' : `t${ids}` };
    if (roll < 0.4) return { text: `thinking ${ids}`, thought: true };
    if (roll < 0.65) return { functionCall: { id: callId(), name: 'add', args: { a: ids } } };
    if (roll < 0.67) return { functionCall: { name: 'noId', args: {} } };
    if (roll < 0.93)
      return { functionResponse: { id: callId(), name: 'add', response: { sum: ids } } };
    if (roll < 0.96) return { inlineData: { mimeType: 'image/png', data: 'AA==' } };
    return chance(0.5)
      ? { functionCall: { id: callId(), name: REQUEST_CONFIRMATION_FUNCTION, args: {} } }
      : {
          functionResponse: {
            id: callId(),
            name: REQUEST_CONFIRMATION_FUNCTION,
            response: { confirmed: true },
          },
        };
  }

  function event(log: readonly Event[]): Event {
    const id = `e${ids++}`;
    if (chance(0.15)) invocation++;
    const base = {
      id,
      invocationId: `i${invocation}`,
      timestamp: ids,
      actions: { stateDelta: {}, artifactDelta: {} },
    };
    if (log.length > 0 && chance(0.06)) {
      const target = pick(log);
      return {
        ...base,
        invocationId: `m${ids}`,
        author: 'user',
        actions: {
          ...base.actions,
          ...(chance(0.5)
            ? { rewindBeforeInvocationId: target.invocationId }
            : { rewindAfterEventId: target.id }),
        },
      };
    }
    const author = pick(['user', 'user', ...AGENTS, ...AGENTS, 'other']);
    const branch = pick(BRANCHES);
    const parts = Array.from({ length: chance(0.1) ? 0 : 1 + Math.floor(next() * 3) }, part);
    return {
      ...base,
      author,
      ...(branch ? { branch } : {}),
      ...(chance(0.05) ? {} : { content: { role: author === 'user' ? 'user' : 'model', parts } }),
      ...(chance(0.03) ? { partial: true } : {}),
    };
  }
  return { event, pick, chance };
}

/** The reference: the whole session rebuilt. */
const rebuilt = (log: readonly Event[], agent: string, branch: string | undefined, none: boolean) =>
  buildContents(activeEvents(log), agent, branch, none ? { includeContents: 'none' } : {});

describe('contents kept up to date with the session', () => {
  it.each(Array.from({ length: 300 }, (_, seed) => seed))(
    'equal a full rebuild at every request (random log %i)',
    (seed) => {
      const { event, pick, chance } = generator(seed);
      let log: Event[] = [];
      let view = new ActiveEventsView(log);
      for (let step = 0; step < 120; step++) {
        log.push(event(log));
        if (chance(0.05)) {
          // The next invocation: a new working copy of the log, the memo carried over.
          keepActiveEventsView(view);
          log = [...log];
          view = takeActiveEventsView(log);
        }
        if (!chance(0.6)) continue;
        const agent = pick([...AGENTS, 'other']);
        const branch = pick(BRANCHES);
        const none = chance(0.05);
        const options = none ? { includeContents: 'none' as const } : {};
        expect(cachedContents(view, agent, branch, options), `step ${step}`).toEqual(
          rebuilt(log, agent, branch, none),
        );
      }
    },
  );

  it('never changes contents it handed out: it appends, or starts a new list after a rewind', () => {
    const log: Event[] = [];
    const view = new ActiveEventsView(log);
    log.push(message('u1', 'user', 'hello', 'i1'), message('a1', 'a', 'hi', 'i1'));
    const first = cachedContents(view, 'a', undefined);
    // What a request lends (see lent-contents.ts): the first `length` of the list, not a copy.
    const lent = [...first];
    log.push(message('u2', 'user', 'again', 'i2'));
    const grown = cachedContents(view, 'a', undefined);
    log.push(rewindBefore('i2'), message('u3', 'user', 'instead', 'i3'));
    const rewound = cachedContents(view, 'a', undefined);
    expect(grown).toHaveLength(3);
    expect(rewound.map((c) => c.parts[0]!.text)).toEqual(['hello', 'hi', 'instead']);
    for (const list of [first, grown]) lent.forEach((c, i) => expect(list[i]).toBe(c));
    expect(lent.every((c) => Object.isFrozen(c) && Object.isFrozen(c.parts))).toBe(true);
  });

  it('forgets a rewound turn, and a turn written after the rewind shows', () => {
    const log: Event[] = [message('u1', 'user', 'one', 'i1'), message('a1', 'a', 'ok 1', 'i1')];
    const view = new ActiveEventsView(log);
    const texts = () => cachedContents(view, 'a', undefined).map((c) => c.parts[0]!.text);
    log.push(message('u2', 'user', 'two', 'i2'), message('a2', 'a', 'ok 2', 'i2'));
    expect(texts()).toEqual(['one', 'ok 1', 'two', 'ok 2']);
    log.push(rewindBefore('i2'), message('u3', 'user', 'three', 'i3'));
    expect(texts()).toEqual(['one', 'ok 1', 'three']);
  });

  it('places a later answer to a call where the call is, replacing the earlier one', () => {
    const log: Event[] = [message('u1', 'user', 'go')];
    const view = new ActiveEventsView(log);
    const call = { functionCall: { id: 'c1', name: 'add', args: {} } };
    const answer = (sum: number) => ({
      functionResponse: { id: 'c1', name: 'add', response: { sum } },
    });
    log.push(withParts('a1', 'a', [call]));
    // No answer yet: the call is left out.
    expect(cachedContents(view, 'a', undefined)).toHaveLength(1);
    log.push(withParts('r1', 'user', [answer(1)]), message('a2', 'a', 'one'));
    const responses = () =>
      cachedContents(view, 'a', undefined).flatMap((c) =>
        c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.response] : [])),
      );
    expect(responses()).toEqual([{ sum: 1 }]);
    log.push(withParts('r2', 'user', [answer(2)]), message('a3', 'a', 'two'));
    expect(responses()).toEqual([{ sum: 2 }]);
    expect(cachedContents(view, 'a', undefined)).toEqual(rebuilt(log, 'a', undefined, false));
  });
});

function message(id: string, author: string, text: string, invocationId = 'i1'): Event {
  return withParts(id, author, [{ text }], invocationId);
}

function withParts(id: string, author: string, parts: Part[], invocationId = 'i1'): Event {
  return {
    id,
    invocationId,
    author,
    timestamp: 0,
    actions: { stateDelta: {}, artifactDelta: {} },
    content: { role: author === 'user' ? 'user' : 'model', parts },
  };
}

function rewindBefore(invocationId: string): Event {
  return {
    id: `m-${invocationId}`,
    invocationId: `m-${invocationId}`,
    author: 'user',
    timestamp: 0,
    actions: { stateDelta: {}, artifactDelta: {}, rewindBeforeInvocationId: invocationId },
  };
}

describe('the memo of the active events, carried from one invocation to the next', () => {
  const texts = (events: readonly Event[]) => events.map((e) => e.id);

  it('hands out arrays from get() that never change, and peeks without a copy', () => {
    const log: Event[] = [message('u1', 'user', 'one')];
    const view = new ActiveEventsView(log);
    const held = view.get();
    log.push(message('a1', 'a', 'ok'));
    const peeked = view.peek();
    expect(texts(held)).toEqual(['u1']);
    expect(texts(peeked)).toEqual(['u1', 'a1']);
    log.push(message('u2', 'user', 'two'));
    expect(texts(view.peek())).toEqual(['u1', 'a1', 'u2']);
    expect(texts(held)).toEqual(['u1']);
  });

  it('is taken by the next invocation on the same log, and shares nothing with the old owner', () => {
    const log: Event[] = [message('u1', 'user', 'one'), message('a1', 'a', 'ok')];
    const first = new ActiveEventsView(log);
    const held = first.get();
    keepActiveEventsView(first);
    const copy = [...log];
    const next = takeActiveEventsView(copy);
    expect(next).not.toBe(first);
    copy.push(message('u2', 'user', 'two'));
    expect(texts(next.peek())).toEqual(['u1', 'a1', 'u2']);
    expect(texts(held)).toEqual(['u1', 'a1']);
    // The old owner reads its own log again.
    log.push(message('x', 'user', 'elsewhere'));
    expect(texts(first.get())).toEqual(['u1', 'a1', 'x']);
    // Taken once: a second invocation on the same log gets a view of its own.
    expect(takeActiveEventsView([...log.slice(0, 2)])).not.toBe(next);
  });

  it('starts over on a log that does not extend the one it saw', () => {
    const log: Event[] = [message('u1', 'user', 'one'), message('a1', 'a', 'ok')];
    const view = new ActiveEventsView(log);
    expect(texts(view.peek())).toEqual(['u1', 'a1']);
    const generation = view.generation;
    view.follow([message('u1', 'user', 'one'), message('b1', 'b', 'other')]);
    expect(texts(view.peek())).toEqual(['u1', 'b1']);
    expect(view.generation).not.toBe(generation);
  });
});

describe.each(serviceKinds)('contents through the runner, on $name sessions', (kind) => {
  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'equal a full rebuild at every model call, across rewinds, edits and forks (seed %i)',
    async (seed) => {
      const next = random(seed);
      const services = kind.open();
      const { sessionService } = services;
      const appName = 'app';
      const userId = 'ada';
      let sessionId = '';
      const mismatches: string[] = [];
      const sent: string[] = [];
      // Calls the tool for a message that asks for it, else answers; and checks every request.
      const model = new ScriptedModel(async (request: LlmRequest) => {
        sent.push(JSON.stringify(request.contents));
        const session = await sessionService.getSession({ appName, userId, sessionId });
        const expected = buildContents(activeEvents(session!.events), 'calc', undefined);
        if (JSON.stringify(request.contents) !== JSON.stringify(expected))
          mismatches.push(`request ${model.requests.length}`);
        const last = request.contents.at(-1)?.parts[0];
        return last?.text?.includes('tool') ? functionCallResponse(['add', { a: 1 }]) : 'done';
      });
      const tool = new FunctionTool({
        name: 'add',
        description: 'adds',
        execute: ({ a }: { a: number }) => ({ sum: a + 1 }),
      });
      const agent = new LlmAgent({ name: 'calc', model, tools: [tool] });
      const runner = new Runner({ appName, agent, ...services });
      sessionId = (await sessionService.createSession({ appName, userId })).id;
      const invocations = async () => {
        const session = await sessionService.getSession({ appName, userId, sessionId });
        return activeEvents(session!.events);
      };
      for (let step = 0; step < 24; step++) {
        const roll = next();
        const active = await invocations();
        const users = active.filter((event) => event.author === 'user' && event.content);
        const text = `${next() < 0.5 ? 'tool' : 'talk'} ${step}`;
        if (roll < 0.12 && users.length > 0) {
          const target = users[Math.floor(next() * users.length)]!;
          await runner.rewindAsync({
            userId,
            sessionId,
            rewindBeforeInvocationId: target.invocationId,
          });
        } else if (roll < 0.2 && active.length > 1) {
          // Often just before the end: the next turn makes the conversation longer than it was.
          const from = next() < 0.5 ? Math.max(0, active.length - 3) : 0;
          const target = active[from + Math.floor(next() * (active.length - 1 - from))]!;
          await runner.rewindAsync({ userId, sessionId, rewindAfterEventId: target.id });
        } else if (roll < 0.28 && users.length > 0) {
          const target = users[Math.floor(next() * users.length)]!;
          await collect(
            runner.editMessageAsync({
              userId,
              sessionId,
              invocationId: target.invocationId,
              newMessage: userMessage(text),
            }),
          );
        } else if (roll < 0.34 && users.length > 0) {
          const target = users[Math.floor(next() * users.length)]!;
          const fork = await runner.forkSessionAsync({
            userId,
            sessionId,
            atInvocationId: target.invocationId,
          });
          sessionId = fork.id;
        } else {
          await collect(runner.runAsync({ userId, sessionId, newMessage: userMessage(text) }));
        }
      }
      expect(model.requests.length).toBeGreaterThan(10);
      expect(mismatches).toEqual([]);
      // The requests ScriptedModel kept show what they were sent with, whatever came after.
      expect(model.requests.map((request) => JSON.stringify(request.contents))).toEqual(sent);
      await services.close();
    },
  );
});
