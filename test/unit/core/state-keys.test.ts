// State keys that are names of Object.prototype's members (`__proto__`, `constructor`, `valueOf`,
// …) are keys like any other, through the whole path: a tool sets and reads them, the stores keep
// them over a reload, rewind and fork carry them, a session file exports and imports them, and
// instructions, flow templates and the State panel read them (issue 19).

import { describe, expect, it } from 'vitest';
import { renderInstruction } from '../../../src/agents/instructions.ts';
import {
  applyDelta,
  diffState,
  mergeScopes,
  sameValue,
  splitDelta,
  withoutTemp,
} from '../../../src/core/state.ts';
import { createStateKeeper } from '../../../src/demos/state-keeper.ts';
import { resolvePath, renderTemplate } from '../../../src/flows/templates.ts';
import {
  LlmAgent,
  Runner,
  ScriptedModel,
  parseSessionFile,
  textOf,
  toSessionFile,
  type Event,
  type Session,
} from '../../../src/index.ts';
import type { InvocationContext } from '../../../src/runner/invocation-context.ts';
import { stateGroups } from '../../../src/ui/state/state-model.ts';
import { collect, userMessage } from '../../support/helpers.ts';
import { appName, userId } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const KEYS = ['__proto__', 'constructor', 'valueOf', 'toString', 'hasOwnProperty'] as const;

/** A state record holding `entries` as own keys, as JSON.parse makes one. */
const record = (entries: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(entries)) as Record<string, unknown>;

/** The own entries of a state, sorted: what it holds, whatever its keys are called. */
const ownEntries = (state: object) => Object.entries(state).sort(([a], [b]) => (a < b ? -1 : 1));

const values = Object.fromEntries(KEYS.map((key, i) => [key, `v${i}`]));
// `{ __proto__: 'v0' }` in a literal would set the prototype: build it as JSON does.
const allSet = record(Object.fromEntries([['__proto__', 'v0'], ...Object.entries(values)]));

describe('core state functions, with built-in object names as keys', () => {
  it('applies, splits, diffs and compares them as own keys', () => {
    const delta = record({ ...values, 'temp:__proto__': 't', 'user:constructor': 'u' });
    Object.defineProperty(delta, '__proto__', { value: 'v0', enumerable: true });
    const state = applyDelta({}, delta);
    expect(ownEntries(state)).toEqual(
      ownEntries({ ...allSet, 'temp:__proto__': 't', 'user:constructor': 'u' }),
    );
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);

    const parts = splitDelta(delta);
    expect(Object.keys(parts.session).sort()).toEqual([...KEYS].sort());
    expect(parts.temp).toEqual(record({ 'temp:__proto__': 't' }));
    expect(Object.keys(withoutTemp(delta))).not.toContain('temp:__proto__');
    expect(Object.keys(withoutTemp(delta))).toContain('__proto__');

    // Removing one, and reading an absent one: never Object.prototype's member.
    const removed = applyDelta(
      state,
      JSON.parse('{"__proto__": null, "valueOf": null}') as Record<string, unknown>,
    );
    expect(Object.hasOwn(removed, '__proto__')).toBe(false);
    expect(Object.hasOwn(removed, 'valueOf')).toBe(false);
    expect(ownEntries(diffState(state, removed))).toEqual([
      ['__proto__', null],
      ['valueOf', null],
    ]);
    // `constructor` absent on one side is a difference, not Object's constructor.
    expect(diffState({}, record({ constructor: 'c' }))).toEqual(record({ constructor: 'c' }));
    expect(ownEntries(diffState(record({ constructor: 'c' }), {}))).toEqual([
      ['constructor', null],
    ]);
    expect(sameValue({}, record({ constructor: 'c' }))).toBe(false);
    expect(sameValue(record({ a: 1 }), record({ constructor: 1 }))).toBe(false);
    expect(ownEntries(mergeScopes({}, {}, allSet))).toEqual(ownEntries(allSet));
  });

  it('are read by instruction placeholders, flow templates and the State panel', async () => {
    const ctx = {
      session: { appName, userId, id: 's', state: allSet },
      agent: { name: 'a' },
    } as unknown as InvocationContext;
    expect(await renderInstruction('{__proto__} {constructor} {valueOf} {toString}', ctx)).toBe(
      'v0 v1 v2 v3',
    );
    const empty = { ...ctx, session: { ...ctx.session, state: {} } } as InvocationContext;
    await expect(renderInstruction('{constructor}', empty)).rejects.toThrow(/not set/);
    expect(await renderInstruction('[{valueOf?}]', empty)).toBe('[]');

    expect(resolvePath('state.__proto__', { state: allSet })).toBe('v0');
    expect(renderTemplate('{{state.constructor}}', { state: allSet })).toBe('v1');
    expect(renderTemplate('[{{state.constructor}}]', { state: {} })).toBe('[]');

    const session = stateGroups(allSet).find((group) => group.scope === 'session')!;
    expect(session.entries.map(({ key, value, preview }) => [key, value, preview.text])).toEqual(
      [...KEYS].sort().map((key) => [key, allSet[key], allSet[key]]),
    );
  });
});

/** A runner of the state keeper over `services`. */
function stateKeeper(services: Services): Runner {
  return new Runner({
    appName,
    agent: createStateKeeper({ chunkDelayMs: 0, thinkMs: 0 }),
    sessionService: services.sessionService,
    artifactService: services.artifactService,
  });
}

async function say(runner: Runner, sessionId: string, text: string): Promise<Event[]> {
  return collect(runner.runAsync({ userId, sessionId, newMessage: userMessage(text) }));
}

const answerOf = (events: Event[]) => textOf(events.at(-1)!.content);

async function read(services: Services, sessionId: string): Promise<Session> {
  return (await services.sessionService.getSession({ appName, userId, sessionId }))!;
}

describe.each(serviceKinds)('state keys named like built-ins ($name)', (kind) => {
  it('are set, read, reloaded, rewound, forked, exported and imported like any other', async () => {
    let services = kind.open();
    let runner = stateKeeper(services);
    const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
    // Not set yet: not Object.prototype's members.
    for (const key of KEYS)
      expect(answerOf(await say(runner, sessionId, `what is ${key}`))).toBe(`${key} is not set.`);
    const setTurns: string[] = [];
    for (const key of KEYS) {
      const events = await say(runner, sessionId, `set ${key} to ${values[key]}`);
      setTurns.push(events[0]!.invocationId);
    }
    for (const key of KEYS) {
      expect(answerOf(await say(runner, sessionId, `what is ${key}`))).toBe(
        `${key} is "${values[key]}".`,
      );
    }
    expect(ownEntries((await read(services, sessionId)).state)).toEqual(ownEntries(allSet));

    // A reload: new services on the same storage.
    services = await services.restart();
    runner = stateKeeper(services);
    const reloaded = await read(services, sessionId);
    expect(ownEntries(reloaded.state)).toEqual(ownEntries(allSet));
    expect(Object.getPrototypeOf(reloaded.state)).toBe(Object.prototype);
    expect(answerOf(await say(runner, sessionId, 'what is __proto__'))).toBe('__proto__ is "v0".');
    expect(answerOf(await say(runner, sessionId, 'unset constructor'))).toBe(
      'constructor is no longer set.',
    );
    expect(Object.hasOwn((await read(services, sessionId)).state, 'constructor')).toBe(false);

    // Rewind to before `valueOf` was set: it and the later keys are gone, the earlier ones stay.
    await runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: setTurns[2]! });
    const rewound = await read(services, sessionId);
    expect(ownEntries(rewound.state)).toEqual([
      ['__proto__', 'v0'],
      ['constructor', 'v1'],
    ]);
    expect(answerOf(await say(runner, sessionId, 'what is valueOf'))).toBe('valueOf is not set.');

    // Fork at the turn that set `constructor`.
    const fork = await runner.forkSessionAsync({
      userId,
      sessionId,
      atInvocationId: setTurns[1]!,
    });
    expect(ownEntries(fork.state)).toEqual([
      ['__proto__', 'v0'],
      ['constructor', 'v1'],
    ]);

    // Export and import: the file carries them, the imported session holds them.
    const file = toSessionFile(await read(services, sessionId));
    expect(file).toContain('"__proto__": "v0"');
    const imported = await services.sessionService.importSession({
      appName,
      userId,
      events: parseSessionFile(file).events,
    });
    expect(ownEntries(imported.state)).toEqual(ownEntries(rewound.state));
    services = await services.restart();
    expect(ownEntries((await read(services, imported.id)).state)).toEqual(
      ownEntries(rewound.state),
    );
    await services.close();
  });

  it('an LlmAgent instruction and output key use them', async () => {
    const services = kind.open();
    const runner = new Runner({
      appName,
      agent: new LlmAgent({
        name: 'echo',
        model: new ScriptedModel(
          (request) => `said: ${request.systemInstruction?.split('\n').at(-1) ?? ''}`,
        ),
        instruction: 'constructor={constructor?}',
        outputKey: '__proto__',
      }),
      sessionService: services.sessionService,
    });
    const { id } = await services.sessionService.createSession({
      appName,
      userId,
      state: record({ constructor: 'kept' }),
    });
    const events = await say(runner, id, 'hi');
    expect(answerOf(events)).toBe('said: constructor=kept');
    expect(ownEntries((await read(services, id)).state)).toEqual([
      ['__proto__', 'said: constructor=kept'],
      ['constructor', 'kept'],
    ]);
    await services.close();
  });
});
