// ADK's agent callbacks on Trellis, side by side with @google/adk 2.0: the same agents, the same
// scripted model logic and the same callbacks run on each library, and what each session holds
// at the end (texts, function calls and responses, authors, state deltas, the state) must be the
// same. Each test also pins what that is, so that both doing nothing would not pass. Lists of
// callbacks, where state writes land and workflow nodes: callbacks-parity-lists.test.ts.

import { describe, expect, it } from 'vitest';
import {
  lastUserText,
  modelContent,
  sideBySide,
  text,
  weatherAgent,
  weatherScript,
  type Content,
  type Ctx,
  type Lib,
  type Request,
  type Response,
} from '../../support/callback-parity.ts';

describe('model callbacks, side by side with @google/adk 2.0', () => {
  it('a guardrail in beforeModelCallback answers instead of the model', async () => {
    const build = (lib: Lib) =>
      weatherAgent(lib, {
        beforeModelCallback: ({ context, request }: { context: Ctx; request: never }) => {
          if (!lastUserText(request).includes('password')) return undefined;
          context.state.set('blocked', true);
          return text('I cannot help with passwords.');
        },
      });
    const session = await sideBySide(build, ['hello', 'what is the password?']);
    expect(session.events).toEqual([
      { author: 'user', text: 'hello' },
      { author: 'forecaster', text: 'heard: hello' },
      { author: 'user', text: 'what is the password?' },
      {
        author: 'forecaster',
        text: 'I cannot help with passwords.',
        stateDelta: { blocked: true },
      },
    ]);
    expect(session.state).toEqual({ blocked: true });
  });

  it('a beforeModelCallback may change the request the model gets, not the session', async () => {
    const build = (lib: Lib) =>
      weatherAgent(lib, {
        beforeModelCallback: ({ request }: { request: { contents: Content[] } }) => {
          const part = request.contents.at(-1)?.parts?.[0];
          if (part?.text !== undefined) part.text = 'weather in Oslo';
          return undefined;
        },
      });
    const session = await sideBySide(build, ['anything']);
    expect(session.events.map((e) => e.text ?? e.calls ?? e.responses)).toEqual([
      'anything',
      ['get_weather({"city":"Oslo"})'],
      ['get_weather → {"city":"Oslo","sky":"sunny"}'],
      'get_weather says {"city":"Oslo","sky":"sunny"}',
    ]);
  });

  it('afterModelCallback rewrites the model’s text, and what it writes goes with the answer', async () => {
    const build = (lib: Lib) =>
      weatherAgent(lib, {
        afterModelCallback: ({ context, response }: { context: Ctx; response: Response }) => {
          const said = response.content?.parts?.[0]?.text;
          if (said === undefined) return undefined;
          context.state.set('rewritten', ((context.state.get('rewritten') as number) ?? 0) + 1);
          return text(said.toUpperCase());
        },
      });
    const session = await sideBySide(build, ['hello', 'weather in Paris']);
    expect(session.events.map((e) => e.text ?? e.calls ?? e.responses)).toEqual([
      'hello',
      'HEARD: HELLO',
      'weather in Paris',
      ['get_weather({"city":"Paris"})'],
      ['get_weather → {"city":"Paris","sky":"sunny"}'],
      'GET_WEATHER SAYS {"CITY":"PARIS","SKY":"SUNNY"}',
    ]);
    expect(session.events[1]!.stateDelta).toEqual({ rewritten: 1 });
    expect(session.state).toEqual({ rewritten: 2 });
  });

  it('afterModelCallback on a streamed answer: the stored answer is the rewritten final one', async () => {
    const streamed = (request: Request): Response[] => {
      const [first, ...rest] = `heard: ${lastUserText(request)}`.split(' ');
      return [
        { content: { role: 'model', parts: [{ text: `${first} ` }] }, partial: true },
        { content: { role: 'model', parts: [{ text: rest.join(' ') }] }, partial: true },
        text(`${first} ${rest.join(' ')}`),
      ];
    };
    const build = (lib: Lib) =>
      new lib.LlmAgent({
        name: 'echo',
        model: lib.model(streamed),
        afterModelCallback: ({ response }: { response: Response }) =>
          response.partial ? undefined : text(`[${response.content?.parts?.[0]?.text}]`),
      });
    const session = await sideBySide(build, ['hi there'], { streaming: true });
    expect(session.events.at(-1)).toEqual({ author: 'echo', text: '[heard: hi there]' });
  });
});

describe('tool callbacks, side by side with @google/adk 2.0', () => {
  it('beforeToolCallback answers from a cache: the tool never runs', async () => {
    const ran: string[] = [];
    const cache: Record<string, Record<string, unknown>> = {
      Paris: { city: 'Paris', sky: 'grey' },
    };
    const build = (lib: Lib) =>
      weatherAgent(
        lib,
        {
          beforeToolCallback: ({ args, context }: { args: { city: string }; context: Ctx }) => {
            const hit = cache[args.city];
            if (hit) context.state.set('cache_hits', 1);
            return hit;
          },
        },
        ran,
      );
    const session = await sideBySide(build, ['weather in Paris', 'weather in Rome']);
    expect(ran).toEqual(['Rome', 'Rome']); // once per library: Paris came from the cache
    expect(session.events.flatMap((e) => e.responses ?? [])).toEqual([
      'get_weather → {"city":"Paris","sky":"grey"}',
      'get_weather → {"city":"Rome","sky":"sunny"}',
    ]);
    expect(session.events[2]).toMatchObject({ stateDelta: { cache_hits: 1 } });
    expect(session.state).toEqual({ cache_hits: 1 });
  });

  it('afterToolCallback rewrites the result the model sees', async () => {
    const build = (lib: Lib) =>
      weatherAgent(lib, {
        afterToolCallback: ({
          tool,
          response,
          context,
        }: {
          tool: { name: string };
          response: Record<string, unknown>;
          context: Ctx;
        }) => {
          context.state.set('last_tool', tool.name);
          return { ...response, sky: `${response.sky as string}, 21°C` };
        },
      });
    const session = await sideBySide(build, ['weather in Lyon']);
    expect(session.events.slice(2)).toEqual([
      {
        author: 'forecaster',
        responses: ['get_weather → {"city":"Lyon","sky":"sunny, 21°C"}'],
        stateDelta: { last_tool: 'get_weather' },
      },
      { author: 'forecaster', text: 'get_weather says {"city":"Lyon","sky":"sunny, 21°C"}' },
    ]);
  });
});

describe('agent callbacks, side by side with @google/adk 2.0', () => {
  it('beforeAgentCallback skips the agent: its content is the agent’s answer, the next agent runs', async () => {
    const build = (lib: Lib) =>
      new lib.SequentialAgent({
        name: 'pipeline',
        subAgents: [
          new lib.LlmAgent({
            name: 'greeter',
            model: lib.model(() => text('the greeter’s model was called')),
            beforeAgentCallback: (context: Ctx) => {
              context.state.set('greeted', context.agentName);
              return modelContent('Hello (from the callback).');
            },
          }),
          new lib.LlmAgent({ name: 'writer', model: lib.model(weatherScript) }),
        ],
      });
    const session = await sideBySide(build, ['hi']);
    expect(session.events).toEqual([
      { author: 'user', text: 'hi' },
      {
        author: 'greeter',
        text: 'Hello (from the callback).',
        stateDelta: { greeted: 'greeter' },
      },
      { author: 'writer', text: 'heard: For context:[greeter] said: Hello (from the callback).' },
    ]);
  });

  it('afterAgentCallback adds a closing event; one that only writes state adds an event of state', async () => {
    const build = (lib: Lib) =>
      new lib.SequentialAgent({
        name: 'pipeline',
        subAgents: [
          new lib.LlmAgent({
            name: 'answerer',
            model: lib.model(weatherScript),
            afterAgentCallback: (context: Ctx) => {
              context.state.set('answered', true);
              return modelContent('Anything else?');
            },
          }),
          new lib.LlmAgent({
            name: 'noter',
            model: lib.model(() => text('noted')),
            afterAgentCallback: (context: Ctx) => {
              context.state.set('noted_at', context.invocationId.length > 0);
              return undefined;
            },
          }),
        ],
      });
    const session = await sideBySide(build, ['hi']);
    expect(session.events).toEqual([
      { author: 'user', text: 'hi' },
      { author: 'answerer', text: 'heard: hi' },
      { author: 'answerer', text: 'Anything else?', stateDelta: { answered: true } },
      { author: 'noter', text: 'noted' },
      { author: 'noter', stateDelta: { noted_at: true } },
    ]);
  });

  it('a beforeAgentCallback that only writes state adds that event before the agent runs', async () => {
    const build = (lib: Lib) =>
      new lib.LlmAgent({
        name: 'greeter',
        // ADK keeps the system instruction in `config`, Trellis on the request.
        model: lib.model((request) =>
          text(JSON.stringify(request).includes('Greet Ada.') ? 'told to greet Ada' : 'no one'),
        ),
        instruction: 'Greet {visitor}.',
        beforeAgentCallback: (context: Ctx) => {
          context.state.set('visitor', 'Ada');
          return undefined;
        },
      });
    const session = await sideBySide(build, ['hi']);
    expect(session.events.slice(1, 2)).toEqual([
      { author: 'greeter', stateDelta: { visitor: 'Ada' } },
    ]);
    expect(session.events[2]!.text).toBe('told to greet Ada');
  });
});
