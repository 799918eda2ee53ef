// ADK's plugins on Trellis, side by side with @google/adk 2.0: the same agents, the same scripted
// model logic and the same plugins (each built on its library's own BasePlugin) run on each
// library's InMemoryRunner, and what the sessions hold at the end (texts, calls, responses,
// authors, state deltas, the state) must be the same. Each test also pins what that is.

import { LogLevel, setLogLevel } from '@google/adk';
import { describe, expect, it } from 'vitest';
import {
  ADK,
  TRELLIS,
  runOn,
  lastUserText,
  modelContent,
  sideBySide,
  systemOf,
  text,
  weatherAgent,
  weatherScript,
  type Content,
  type Ctx,
  type Lib,
  type Request,
  type Response,
  type Session,
} from '../../support/callback-parity.ts';

// ADK logs each plugin it registers, and warns of its experimental callbacks.
setLogLevel(LogLevel.ERROR);

type PluginClass = new (name: string) => object;
/** A plugin class of `lib`'s, with the callbacks given (ADK's names). */
function pluginOf(lib: Lib, callbacks: Record<string, (params: never) => unknown>): PluginClass {
  const Base = lib.BasePlugin as unknown as PluginClass;
  const Plugin = class extends Base {};
  for (const [name, callback] of Object.entries(callbacks))
    Object.defineProperty(Plugin.prototype, name, {
      value: async function (params: never) {
        return callback(params);
      },
    });
  return Plugin;
}

/**
 * The texts of a session: a plugin's node output is recorded by Trellis as an event of its own
 * (so a resume sees it); ADK 2.0 keeps it on the node's context only.
 */
const texts = (session: Session) =>
  session.events.flatMap((e) => (e.text ? [[e.author, e.text]] : []));

const said = (e: { text?: string; calls?: string[]; responses?: string[] }) =>
  e.text ?? e.calls ?? e.responses;

describe('plugins, side by side with @google/adk 2.0', () => {
  it('a plugin’s beforeModelCallback answers for every agent, before the agent’s own', async () => {
    const ownRan: string[] = [];
    const build = (lib: Lib) =>
      weatherAgent(lib, {
        beforeModelCallback: () => void ownRan.push(lib.name),
      });
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        beforeModelCallback: ({
          callbackContext,
          llmRequest,
        }: {
          callbackContext: Ctx;
          llmRequest: Request;
        }) => {
          if (!lastUserText(llmRequest).includes('password')) return undefined;
          callbackContext.state.set('guarded', true);
          return text('Not here.');
        },
      }))('guard'),
    ];
    const session = await sideBySide(build, ['hello', 'the password?'], { plugins });
    expect(session.events).toEqual([
      { author: 'user', text: 'hello' },
      { author: 'forecaster', text: 'heard: hello' },
      { author: 'user', text: 'the password?' },
      { author: 'forecaster', text: 'Not here.', stateDelta: { guarded: true } },
    ]);
    // The agent's own callback ran for the first call only, in each library.
    expect(ownRan).toEqual(['adk', 'trellis']);
  });

  it('after-model and tool callbacks: a cache answers the tool, the answer is rewritten', async () => {
    const ran: string[] = [];
    const build = (lib: Lib) => weatherAgent(lib, {}, ran);
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        beforeToolCallback: ({ toolArgs }: { toolArgs: { city: string } }) =>
          toolArgs.city === 'Oslo' ? { city: 'Oslo', sky: 'cached' } : undefined,
        afterToolCallback: ({
          result,
          toolContext,
        }: {
          result: Record<string, unknown>;
          toolContext: Ctx;
        }) => {
          toolContext.state.set('tools', ((toolContext.state.get('tools') as number) ?? 0) + 1);
          return { ...result, checked: true };
        },
        afterModelCallback: ({ llmResponse }: { llmResponse: Response }) => {
          const t = llmResponse.content?.parts?.[0]?.text;
          return t === undefined ? undefined : text(`${t}.`);
        },
      }))('cache'),
    ];
    const session = await sideBySide(build, ['weather in Oslo', 'weather in Rome'], { plugins });
    expect(session.events.map(said)).toEqual([
      'weather in Oslo',
      ['get_weather({"city":"Oslo"})'],
      ['get_weather → {"city":"Oslo","sky":"cached","checked":true}'],
      'get_weather says {"city":"Oslo","sky":"cached","checked":true}.',
      'weather in Rome',
      ['get_weather({"city":"Rome"})'],
      ['get_weather → {"city":"Rome","sky":"sunny","checked":true}'],
      'get_weather says {"city":"Rome","sky":"sunny","checked":true}.',
    ]);
    expect(session.state).toEqual({ tools: 2 });
    // The cached call never reached the tool (in either library).
    expect(ran).toEqual(['Rome', 'Rome']);
  });

  it('onToolErrorCallback gives a failing tool’s call a result', async () => {
    const build = (lib: Lib) =>
      new lib.LlmAgent({
        name: 'forecaster',
        model: lib.model(weatherScript),
        tools: [
          lib.cityTool('get_weather', () => {
            throw new Error('station down');
          }),
        ],
      });
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        onToolErrorCallback: ({ error }: { error: Error }) => ({
          fallback: /station down/.test(error.message),
        }),
      }))('fallback'),
    ];
    const session = await sideBySide(build, ['weather in Oslo'], { plugins });
    expect(session.events.map(said)).toEqual([
      'weather in Oslo',
      ['get_weather({"city":"Oslo"})'],
      ['get_weather → {"fallback":true}'],
      'get_weather says {"fallback":true}',
    ]);
  });

  it('onModelErrorCallback stands in for a model that failed', async () => {
    const build = (lib: Lib) =>
      new lib.LlmAgent({
        name: 'forecaster',
        model: lib.model(() => {
          throw new Error('quota');
        }),
      });
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        onModelErrorCallback: ({ error }: { error: Error }) =>
          text(`Sorry, the model is away (${/quota/.test(error.message) ? 'quota' : '?'}).`),
      }))('apology'),
    ];
    // ADK 2.0.0 yields the plugin's LlmResponse as if it were an event, and then fails reading
    // its `actions` (TypeError in isFinalResponse); its docs say the response stands in for the
    // model's. Trellis does that: it is the agent's answer.
    await expect(runOn(ADK, build(ADK), ['hi'], { plugins })).rejects.toThrow(TypeError);
    const session = await runOn(TRELLIS, build(TRELLIS), ['hi'], { plugins });
    expect(session.events).toEqual([
      { author: 'user', text: 'hi' },
      { author: 'forecaster', text: 'Sorry, the model is away (quota).' },
    ]);
  });

  it('onUserMessageCallback replaces the message before it is stored', async () => {
    const build = (lib: Lib) => weatherAgent(lib, {});
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        onUserMessageCallback: ({ userMessage }: { userMessage: Content }) => ({
          role: 'user',
          parts: [{ text: (userMessage.parts?.[0]?.text ?? '').replace(/\d{4}-\d{4}/g, '[card]') }],
        }),
      }))('redact'),
    ];
    const session = await sideBySide(build, ['my card 1234-5678'], { plugins });
    expect(session.events.map(said)).toEqual(['my card [card]', 'heard: my card [card]']);
  });

  it('beforeRunCallback ends the run with its answer, authored model', async () => {
    const build = (lib: Lib) => weatherAgent(lib, {});
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        beforeRunCallback: () => modelContent('We are closed today.'),
      }))('closed'),
    ];
    const session = await sideBySide(build, ['weather in Oslo'], { plugins });
    expect(session.events).toEqual([
      { author: 'user', text: 'weather in Oslo' },
      { author: 'model', text: 'We are closed today.' },
    ]);
  });

  it('onEventCallback changes what is stored; afterRunCallback runs once per run', async () => {
    const runs: string[] = [];
    const build = (lib: Lib) => weatherAgent(lib, {});
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        onEventCallback: ({ event }: { event: { content?: Content; author: string } }) => {
          const t = event.content?.parts?.[0]?.text;
          return t === undefined || event.author === 'user'
            ? undefined
            : { ...event, content: modelContent(`[${t}]`) };
        },
        afterRunCallback: () => void runs.push(lib.name),
      }))('brackets'),
    ];
    const session = await sideBySide(build, ['hello', 'weather in Oslo'], { plugins });
    expect(session.events.map(said)).toEqual([
      'hello',
      '[heard: hello]',
      'weather in Oslo',
      ['get_weather({"city":"Oslo"})'],
      ['get_weather → {"city":"Oslo","sky":"sunny"}'],
      '[get_weather says {"city":"Oslo","sky":"sunny"}]',
    ]);
    expect(runs).toEqual(['adk', 'adk', 'trellis', 'trellis']);
  });

  it('plugins run in order: the first to answer wins, the later ones do not run', async () => {
    const ran: string[] = [];
    const build = (lib: Lib) => weatherAgent(lib, {});
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        beforeModelCallback: () => void ran.push(`${lib.name}:first`),
      }))('first'),
      new (pluginOf(lib, {
        beforeModelCallback: () => (ran.push(`${lib.name}:second`), text('second answers')),
      }))('second'),
      new (pluginOf(lib, {
        beforeModelCallback: () => (ran.push(`${lib.name}:third`), text('third answers')),
      }))('third'),
    ];
    const session = await sideBySide(build, ['hi'], { plugins });
    expect(session.events.map(said)).toEqual(['hi', 'second answers']);
    expect(ran).toEqual(['adk:first', 'adk:second', 'trellis:first', 'trellis:second']);
  });

  it('GlobalInstructionPlugin puts its instruction in front of every agent’s', async () => {
    const build = (lib: Lib) =>
      new lib.LlmAgent({
        name: 'echo',
        instruction: 'Answer briefly.',
        model: lib.model((request) => text(systemOf(request))),
      });
    const plugins = (lib: Lib) => [new lib.GlobalInstructionPlugin('Be kind.')];
    const session = await sideBySide(build, ['hi'], { plugins });
    expect(session.events[1]!.text).toMatch(/^Be kind\.\n\n[^]*Answer briefly\.$/);
  });

  it('a workflow node: beforeNodeCallback gives its output instead, afterNodeCallback replaces one', async () => {
    const build = (lib: Lib) =>
      new lib.Workflow({
        name: 'flow',
        edges: [
          [
            'START',
            function first() {
              return 'one';
            },
            function second(_c: unknown, input: unknown) {
              return `second got ${String(input)}`;
            },
            function third(_c: unknown, input: unknown) {
              return `third got ${String(input)}`;
            },
          ],
        ],
      });
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        beforeNodeCallback: ({ node }: { node: { name: string } }) =>
          node.name === 'first' ? 'given' : undefined,
        afterNodeCallback: ({ node, output }: { node: { name: string }; output: unknown }) =>
          node.name === 'second' ? `${String(output)}!` : undefined,
      }))('nodes'),
    ];
    const session = await sideBySide(build, ['go'], { plugins, compare: texts });
    expect(session.events.filter((e) => e.text).map((e) => e.text)).toEqual([
      'go',
      'second got given',
      'third got second got given!',
    ]);
  });

  it('a plugin’s beforeAgentCallback answers for the agent, which does not run (ADK’s documented rule)', async () => {
    // ADK 2.0.0 (TS) has BasePlugin.beforeAgentCallback and PluginManager.runBeforeAgentCallback
    // but never calls them (ADK Python and the plugin docs do: plugins first, and a Content
    // returned skips the agent and its own callbacks). Trellis follows the documented behaviour.
    const ownRan: string[] = [];
    const build = (lib: Lib) =>
      weatherAgent(lib, { beforeAgentCallback: () => void ownRan.push(lib.name) });
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        beforeAgentCallback: ({
          agent,
          callbackContext,
        }: {
          agent: { name: string };
          callbackContext: Ctx;
        }) => {
          callbackContext.state.set('gate', agent.name);
          return modelContent(`${agent.name} is off today.`);
        },
        afterAgentCallback: () => modelContent('never: the agent did not run'),
      }))('gate'),
    ];
    const ours = await runOn(TRELLIS, build(TRELLIS), ['hello'], { plugins });
    expect(ours.events).toEqual([
      { author: 'user', text: 'hello' },
      {
        author: 'forecaster',
        text: 'forecaster is off today.',
        stateDelta: { gate: 'forecaster' },
      },
    ]);
    expect(ownRan).toEqual([]);
    // ADK 2.0.0 runs the agent as if the plugin had no agent callbacks.
    const theirs = await runOn(ADK, build(ADK), ['hello'], { plugins });
    expect(theirs.events.map(said)).toEqual(['hello', 'heard: hello']);
  });

  it('a plugin’s afterAgentCallback adds the agent’s last event', async () => {
    const build = (lib: Lib) => weatherAgent(lib, {});
    const plugins = (lib: Lib) => [
      new (pluginOf(lib, {
        afterAgentCallback: ({ callbackContext }: { callbackContext: Ctx }) => {
          callbackContext.state.set('signed', true);
          return modelContent('— the forecaster');
        },
      }))('sign'),
    ];
    const ours = await runOn(TRELLIS, build(TRELLIS), ['hello'], { plugins });
    expect(ours.events).toEqual([
      { author: 'user', text: 'hello' },
      { author: 'forecaster', text: 'heard: hello' },
      { author: 'forecaster', text: '— the forecaster', stateDelta: { signed: true } },
    ]);
  });
});
