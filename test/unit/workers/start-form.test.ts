// A flow's start form through the worker's send path (Node over fake-indexeddb): the values go
// with the user's message as its state delta, typed; bad ones are refused with nothing written;
// an edited form turn's values are read back from its text, Regenerate keeps them, and a rewind
// brings back the earlier ones.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { textOf, type Event } from '../../../src/index.ts';
import type { AppRuntime } from '../../../workers/app.ts';
import { appRuntime } from '../../support/app-runtime.ts';
import { rejectionOf } from '../../support/helpers.ts';

const SIGN_UP = {
  name: 'sign-up',
  nodes: [
    {
      id: 'start',
      type: 'start',
      form: {
        title: 'Sign up',
        fields: [
          { name: 'name', label: 'Name', type: 'string' },
          { name: 'age', label: 'Age', type: 'number' },
          { name: 'vip', label: 'VIP', type: 'boolean' },
          { name: 'plan', label: 'Plan', type: 'options', options: ['Basic', 'Pro'] },
        ],
      },
    },
    { id: 'hello', type: 'reply', message: 'Hello {{form.name}}, {{form.age}} {{form.plan}}' },
  ],
  edges: [{ from: 'start', to: 'hello' }],
};

const ADA = { name: 'Ada', age: 36, vip: true, plan: 'Pro' };
const ADA_TEXT = 'Name: Ada\nAge: 36\nVIP: yes\nPlan: Pro';

async function signUpSession(): Promise<{ runtime: AppRuntime; sessionId: string }> {
  const runtime = appRuntime();
  const { saved, problems } = await runtime.flows.save(JSON.stringify(SIGN_UP));
  expect(problems).toEqual([]);
  const { id } = await runtime.createSession(saved!.id);
  return { runtime, sessionId: id };
}

const ignore = () => undefined;

/** The flow's replies, oldest first, rewound ones too. */
async function replies(runtime: AppRuntime, sessionId: string): Promise<string[]> {
  const { events } = await runtime.openSession(sessionId);
  return events.filter((event) => event.author === 'hello').map((event) => textOf(event.content));
}

/** The session's user messages (their text and state delta), oldest first, rewound ones too. */
async function userTurns(runtime: AppRuntime, sessionId: string) {
  const { events } = await runtime.openSession(sessionId);
  return events
    .filter((event: Event) => event.author === 'user' && event.content)
    .map((event) => ({ text: textOf(event.content), stateDelta: event.actions.stateDelta }));
}

describe('a start form sent with a message', () => {
  it('stores its typed values as the user event’s state delta, and in the state', async () => {
    const { runtime, sessionId } = await signUpSession();
    await runtime.runs.send(sessionId, ADA_TEXT, ignore, [], ADA);
    expect(await userTurns(runtime, sessionId)).toEqual([
      { text: ADA_TEXT, stateDelta: { form: ADA } },
    ]);
    const { state, summary } = await runtime.openSession(sessionId);
    expect(state.form).toEqual(ADA);
    // The nodes read them as {{form.x}}.
    expect(await replies(runtime, sessionId)).toEqual(['Hello Ada, 36 Pro']);
    // The title is the message on one line.
    expect(summary.title).toBe('Name: Ada Age: 36 VIP: yes Plan: Pro');
  });

  it('takes a boolean left out as false', async () => {
    const { runtime, sessionId } = await signUpSession();
    const { vip: _, ...rest } = ADA;
    await runtime.runs.send(sessionId, 'Name: Ada', ignore, [], rest);
    expect((await runtime.openSession(sessionId)).state.form).toEqual({ ...ADA, vip: false });
  });

  it.each([
    [
      'a field the form does not have',
      { ...ADA, email: 'a@b.c' },
      /“email” is not one of its fields \(name, age, vip, plan\)/,
    ],
    ['a number as text', { ...ADA, age: '36' }, /Age must be a number/],
    ['a number that is not finite', { ...ADA, age: Number.NaN }, /Age must be a number/],
    ['a boolean as text', { ...ADA, vip: 'yes' }, /VIP must be true or false/],
    ['a choice it does not offer', { ...ADA, plan: 'Gold' }, /Plan must be one of: Basic, Pro/],
    ['a missing text', { age: 36, vip: true, plan: 'Pro' }, /Name is missing/],
    ['a blank text', { ...ADA, name: '  ' }, /Name is missing/],
    ['a text of two lines', { ...ADA, name: 'Ada\nLovelace' }, /Name must be one line/],
    [
      'a text over the flow limits’ size',
      { ...ADA, name: 'x'.repeat(50_001) },
      /Name is longer than 50000 characters/,
    ],
    ['values that are not an object', ['Ada'], /its values must be an object/],
  ])('refuses %s, writing nothing', async (_, values, message) => {
    const { runtime, sessionId } = await signUpSession();
    const error = await rejectionOf(
      runtime.runs.send(sessionId, ADA_TEXT, ignore, [], values as Record<string, unknown>),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toMatch(/^The start form was not sent: /);
    expect(error.message).toMatch(message);
    const { events, summary } = await runtime.openSession(sessionId);
    expect(events).toEqual([]);
    expect(summary.title).toBe('New session');
  });

  it('refuses a form for an agent that has none, and a form with files', async () => {
    const { runtime, sessionId } = await signUpSession();
    const { id } = await runtime.createSession();
    const noForm = await rejectionOf(runtime.runs.send(id, ADA_TEXT, ignore, [], ADA));
    expect(noForm.message).toMatch(/takes no start form: send a message instead/);
    const file = { name: 'a.txt', mimeType: 'text/plain', bytes: new Uint8Array([104, 105]) };
    const withFile = await rejectionOf(runtime.runs.send(sessionId, 'hi', ignore, [file], ADA));
    expect(withFile.message).toBe('A start form is sent without files');
    expect((await runtime.openSession(id)).events).toEqual([]);
    expect((await runtime.openSession(sessionId)).events).toEqual([]);
  });

  it('leaves a message typed instead of the form as a message', async () => {
    const { runtime, sessionId } = await signUpSession();
    await runtime.runs.send(sessionId, 'What plans are there?', ignore);
    expect(await userTurns(runtime, sessionId)).toEqual([
      { text: 'What plans are there?', stateDelta: {} },
    ]);
  });
});

describe('a form turn run again', () => {
  async function sentOnce() {
    const { runtime, sessionId } = await signUpSession();
    await runtime.runs.send(sessionId, ADA_TEXT, ignore, [], ADA);
    const { events } = await runtime.openSession(sessionId);
    return { runtime, sessionId, invocationId: events[0]!.invocationId };
  }

  it('reads an edited turn’s values back from its text', async () => {
    const { runtime, sessionId, invocationId } = await sentOnce();
    const edited = 'Name: Ada\nAge: 37\nVIP: no\nPlan: Basic';
    await runtime.runs.edit(sessionId, invocationId, edited, ignore);
    const { state } = await runtime.openSession(sessionId);
    expect(state.form).toEqual({ name: 'Ada', age: 37, vip: false, plan: 'Basic' });
    expect(await replies(runtime, sessionId)).toEqual(['Hello Ada, 36 Pro', 'Hello Ada, 37 Basic']);
    expect((await userTurns(runtime, sessionId)).at(-1)).toEqual({
      text: edited,
      stateDelta: { form: { name: 'Ada', age: 37, vip: false, plan: 'Basic' } },
    });
  });

  it.each([
    ['Name: Ada\nAge: old\nVIP: yes\nPlan: Pro', /Age must be a number/],
    ['Name: Ada\nAge: 36\nVIP: maybe\nPlan: Pro', /VIP must be yes or no/],
    ['Name: Ada\nAge: 36\nPlan: Pro\nPlan: Basic', /Plan is written twice/],
    ['Name: Ada\nAge: 36\nVIP: yes', /Plan is missing/],
    ['Hello there', /“Hello there” is not a line of its fields/],
  ])(
    'refuses an edit that does not read as the form (%j), writing nothing',
    async (text, message) => {
      const { runtime, sessionId, invocationId } = await sentOnce();
      const before = (await runtime.openSession(sessionId)).events.length;
      const error = await rejectionOf(runtime.runs.edit(sessionId, invocationId, text, ignore));
      expect(error.name).toBe('InvalidRequestError');
      expect(error.message).toMatch(/^The edited form turn was not run: /);
      expect(error.message).toMatch(message);
      const { events, state } = await runtime.openSession(sessionId);
      expect(events).toHaveLength(before);
      expect(state.form).toEqual(ADA);
    },
  );

  it('regenerates with the values it began with', async () => {
    const { runtime, sessionId, invocationId } = await sentOnce();
    const second = { name: 'Bob', age: 7, vip: false, plan: 'Basic' };
    await runtime.runs.send(sessionId, 'Name: Bob', ignore, [], second);
    await runtime.runs.regenerate(sessionId, invocationId, ignore);
    expect((await runtime.openSession(sessionId)).state.form).toEqual(ADA);
    expect((await replies(runtime, sessionId)).at(-1)).toBe('Hello Ada, 36 Pro');
    expect((await userTurns(runtime, sessionId)).at(-1)).toEqual({
      text: ADA_TEXT,
      stateDelta: { form: ADA },
    });
  });

  it('is re-run after a state edit with the values it began with', async () => {
    const { runtime, sessionId, invocationId } = await sentOnce();
    const second = { name: 'Bob', age: 7, vip: false, plan: 'Basic' };
    await runtime.runs.send(sessionId, 'Name: Bob', ignore, [], second);
    await runtime.stateEdits.editStateAndRerun(sessionId, invocationId, {}, ignore);
    expect((await runtime.openSession(sessionId)).state.form).toEqual(ADA);
    expect((await replies(runtime, sessionId)).at(-1)).toBe('Hello Ada, 36 Pro');
  });

  it('is rewound with its values: the earlier turn’s come back', async () => {
    const { runtime, sessionId } = await sentOnce();
    const second = { name: 'Bob', age: 7, vip: false, plan: 'Basic' };
    await runtime.runs.send(sessionId, 'Name: Bob', ignore, [], second);
    expect((await runtime.openSession(sessionId)).state.form).toEqual(second);
    const { events } = await runtime.openSession(sessionId);
    const bobs = events.findLast((event) => event.author === 'user')!.invocationId;
    await runtime.rewinds.rewind(sessionId, bobs);
    expect((await runtime.openSession(sessionId)).state.form).toEqual(ADA);
  });
});
