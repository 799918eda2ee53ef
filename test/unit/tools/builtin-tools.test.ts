// The built-in tools of the agent builder, called by a scripted model in a real run: what they
// answer, and what they change (logged in the events, so that rewind can undo it).

import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  ScriptedModel,
  createUserContent,
  type Event,
} from '../../../src/index.ts';
import { evaluateArithmetic } from '../../../src/tools/arithmetic.ts';
import { BUILTIN_TOOL_NAMES, builtinTools } from '../../../src/tools/builtin-tools.ts';
import { collect } from '../../support/helpers.ts';

/** Runs one turn in which the model makes `calls` (one response each), then says "done". */
async function callTools(calls: { name: string; args?: Record<string, unknown>; id?: string }[]) {
  const model = new ScriptedModel([
    ...calls.map((call) => ({
      content: { role: 'model' as const, parts: [{ functionCall: { args: {}, ...call } }] },
    })),
    'done',
  ]);
  const agent = new LlmAgent({ name: 'helper', model, tools: builtinTools(BUILTIN_TOOL_NAMES) });
  const runner = new InMemoryRunner({ agent });
  const session = await runner.sessionService.createSession({
    appName: runner.appName,
    userId: 'u',
  });
  const events = await collect(
    runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: createUserContent('go') }),
  );
  const after = await runner.sessionService.getSession({
    appName: runner.appName,
    userId: 'u',
    sessionId: session.id,
  });
  return { events, responses: responsesOf(events), state: after!.state, runner, session };
}

function responsesOf(events: Event[]): Record<string, unknown>[] {
  return events.flatMap(
    (event) =>
      event.content?.parts.flatMap((part) =>
        part.functionResponse ? [part.functionResponse.response] : [],
      ) ?? [],
  );
}

describe('built-in tools', () => {
  it('lists every tool in the builder’s order', () => {
    expect(BUILTIN_TOOL_NAMES).toEqual([
      'get_state',
      'set_state',
      'save_artifact',
      'load_artifact',
      'list_artifacts',
      'calculator',
      'current_time',
      'ask_user',
    ]);
    expect(() => builtinTools(['nope'])).toThrow(/no built-in tool nope/);
  });

  it('sets and reads session state, logging the change in the event', async () => {
    const { events, responses, state } = await callTools([
      { name: 'set_state', args: { key: 'color', value: 'red' } },
      { name: 'get_state', args: { key: 'color' } },
      { name: 'get_state', args: { key: 'size' } },
      { name: 'set_state', args: { key: 'color', value: '' } },
    ]);
    expect(responses).toEqual([
      { key: 'color', value: 'red' },
      { key: 'color', value: 'red' },
      { key: 'size', found: false, keys: ['color'] },
      { key: 'color', removed: true },
    ]);
    const deltas = events.map((e) => e.actions.stateDelta).filter((d) => Object.keys(d).length);
    expect(deltas).toEqual([{ color: 'red' }, { color: null }]);
    expect(state).toEqual({});
  });

  it('refuses an empty state key with an answer the model can act on', async () => {
    const { responses } = await callTools([{ name: 'set_state', args: { key: ' ', value: 'x' } }]);
    expect(responses).toEqual([{ error: expect.stringMatching(/key is empty/) }]);
  });

  it('saves, loads and lists artifacts, versioned, and says what exists when a file does not', async () => {
    const { responses, events } = await callTools([
      { name: 'save_artifact', args: { filename: 'notes.md', text: 'one' } },
      { name: 'save_artifact', args: { filename: 'notes.md', text: 'two' } },
      { name: 'load_artifact', args: { filename: 'notes.md' } },
      { name: 'load_artifact', args: { filename: 'notes.md', version: 0 } },
      { name: 'list_artifacts' },
      { name: 'load_artifact', args: { filename: 'todo.txt' } },
    ]);
    expect(responses).toEqual([
      { filename: 'notes.md', version: 0 },
      { filename: 'notes.md', version: 1 },
      { filename: 'notes.md', text: 'two' },
      { filename: 'notes.md', text: 'one' },
      { files: ['notes.md'] },
      { error: 'There is no artifact todo.txt.', files: ['notes.md'] },
    ]);
    const deltas = events.map((e) => e.actions.artifactDelta).filter((d) => Object.keys(d).length);
    expect(deltas).toEqual([{ 'notes.md': 0 }, { 'notes.md': 1 }]);
  });

  it('calculates exactly, and answers a bad expression with an error instead of failing the run', async () => {
    const { responses, events } = await callTools([
      { name: 'calculator', args: { expression: '(2 + 3) * 4 - 6 / 3' } },
      { name: 'calculator', args: { expression: '2 + alert(1)' } },
    ]);
    expect(responses).toEqual([
      { expression: '(2 + 3) * 4 - 6 / 3', value: 18 },
      { expression: '2 + alert(1)', error: 'Not arithmetic: 2 + alert(1)' },
    ]);
    expect(events.some((e) => e.errorCode)).toBe(false);
  });

  it('tells the time', async () => {
    const { responses } = await callTools([{ name: 'current_time' }]);
    expect(responses[0]).toEqual({
      now: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      timeZone: expect.any(String),
    });
  });

  it('asks the user (ask_user): the run pauses, and the reply resumes it for the model to read', async () => {
    const { events, runner, session, state } = await callTools([
      { name: 'ask_user', args: { question: 'Which colour?' }, id: 'ask-1' },
    ]);
    // Paused: no response for the call, and the model was not asked again.
    expect(events.at(-1)?.longRunningToolIds).toEqual(['ask-1']);
    expect(responsesOf(events)).toEqual([]);
    expect(state).toEqual({});

    const resumed = await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: session.id,
        newMessage: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'ask-1',
                name: 'ask_user',
                response: { result: 'blue' },
              },
            },
          ],
        },
      }),
    );
    // The run goes on, and the model reads the reply as the call's response.
    expect(resumed.at(-1)?.content?.parts[0]?.text).toBe('done');
    const model = (runner.agent as LlmAgent).model as ScriptedModel;
    const seen = model.requests.at(-1)!.contents.flatMap((content) => content.parts);
    expect(seen).toContainEqual({
      functionResponse: { id: 'ask-1', name: 'ask_user', response: { result: 'blue' } },
    });
  });

  it.each([
    ['1 + 2 * 3', 7],
    ['-(4 - 10) / 4', 1.5],
    ['0.1 * 10', 1],
  ])('evaluates %s', (expression, value) => {
    expect(evaluateArithmetic(expression)).toBe(value);
  });
});
