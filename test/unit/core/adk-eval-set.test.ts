// ADK eval sets (`*.evalset.json`): each case imports as a session, with its session input's state;
// a session exports as a case of its turns, which imports back to the same conversation. A broken
// set imports nothing.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { activeEvents, textOf, type Event } from '../../../src/index.ts';
import { appRuntime } from '../../support/app-runtime.ts';
import { rejectionOf } from '../../support/helpers.ts';

/** An eval set as ADK Python writes it (`EvalSet.model_dump_json()`), by ADK's field names. */
const evalSet = {
  eval_set_id: 'weather_set',
  name: 'Weather',
  eval_cases: [
    {
      eval_id: 'paris',
      conversation: [
        {
          invocation_id: 'inv-1',
          user_content: { role: 'user', parts: [{ text: 'Weather in Paris?' }] },
          final_response: { role: 'model', parts: [{ text: 'Sunny, 20 °C.' }] },
          intermediate_data: {
            tool_uses: [{ name: 'get_weather', args: { city_name: 'Paris' } }],
            intermediate_responses: [['planner', [{ text: 'Looking it up.' }]]],
          },
          creation_timestamp: 1_795_000_000.5,
        },
        {
          invocation_id: 'inv-2',
          user_content: { role: 'user', parts: [{ text: 'And tomorrow?' }] },
          final_response: { role: 'model', parts: [{ text: 'Rain.' }] },
          intermediate_data: { tool_uses: [], intermediate_responses: [] },
          creation_timestamp: 1_795_000_010,
        },
      ],
      session_input: { app_name: 'weather_agent', user_id: 'ada', state: { units: 'metric' } },
      creation_timestamp: 1_795_000_000,
    },
    {
      eval_id: 'oslo',
      conversation: [
        {
          invocation_id: 'inv-9',
          user_content: { role: 'user', parts: [{ text: 'Weather in Oslo?' }] },
          final_response: { role: 'model', parts: [{ text: 'Snow.' }] },
        },
      ],
    },
  ],
  creation_timestamp: 1_795_000_000,
};

const texts = (events: readonly Event[]) =>
  activeEvents(events)
    .map((event) => textOf(event.content))
    .filter((text) => text !== '');

describe('ADK eval sets', () => {
  it('imports each case as a session, with its state, tools and answers', async () => {
    const app = appRuntime();
    const first = await app.importSession(JSON.stringify(evalSet));
    const titles = (await app.listSessions()).map((s) => s.title);
    expect(titles).toEqual(expect.arrayContaining(['Weather · paris', 'Weather · oslo']));
    expect(first.title).toBe('Weather · paris');
    const paris = await app.openSession(first.id);
    expect(paris.state).toMatchObject({ units: 'metric' });
    expect(texts(paris.events)).toEqual([
      'Weather in Paris?',
      'Looking it up.',
      'Sunny, 20 °C.',
      'And tomorrow?',
      'Rain.',
    ]);
    const call = paris.events.flatMap((e) => e.content?.parts ?? []).find((p) => p.functionCall);
    expect(call?.functionCall).toMatchObject({ name: 'get_weather', args: { city_name: 'Paris' } });
    expect(paris.events.find((e) => textOf(e.content) === 'Looking it up.')?.author).toBe(
      'planner',
    );
    expect(paris.events.find((e) => textOf(e.content) === 'Rain.')?.author).toBe('weather_agent');
  });

  it('exports a session as a case of its turns, which imports back to the same conversation', async () => {
    const app = appRuntime();
    const { id } = await app.createSession();
    for (const text of ['set color to red', 'set size to large', 'what is color'])
      await app.runs.send(id, text, () => {});
    const { filename, json } = await app.exportEvalSet(id);
    expect(filename).toMatch(/\.evalset\.json$/);
    const file = JSON.parse(json);
    expect(Object.keys(file).sort()).toEqual(
      ['creation_timestamp', 'description', 'eval_cases', 'eval_set_id', 'name'].sort(),
    );
    const conversation = file.eval_cases[0].conversation as {
      user_content: { parts: { text: string }[] };
      final_response: { parts: { text: string }[] } | null;
    }[];
    expect(conversation.map((turn) => turn.user_content.parts[0]!.text)).toEqual([
      'set color to red',
      'set size to large',
      'what is color',
    ]);
    expect(conversation.every((turn) => turn.final_response?.parts[0]?.text)).toBe(true);

    const back = await app.importSession(json);
    const original = await app.openSession(id);
    const copied = await app.openSession(back.id);
    expect(texts(copied.events)).toEqual(texts(original.events));
  });

  it('reads camelCase eval sets too', async () => {
    const app = appRuntime();
    const camel = {
      evalSetId: 'x',
      evalCases: [
        {
          evalId: 'one',
          conversation: [{ userContent: { role: 'user', parts: [{ text: 'hi' }] } }],
        },
      ],
    };
    const imported = await app.importSession(JSON.stringify(camel));
    expect(texts((await app.openSession(imported.id)).events)).toEqual(['hi']);
  });

  it('imports nothing of a set with a broken case, and says which', async () => {
    const app = appRuntime();
    const before = await app.listSessions();
    const broken = {
      ...evalSet,
      eval_cases: [
        evalSet.eval_cases[0],
        { eval_id: 'bad', conversation: [{ final_response: {} }] },
      ],
    };
    const error = await rejectionOf(app.importSession(JSON.stringify(broken)));
    expect(error.name).toBe('InvalidSessionFileError');
    expect(error.message).toMatch(/eval_cases\[1\]\.conversation\[0\]\.user_content is missing/);
    expect(await app.listSessions()).toEqual(before);
  });
});
