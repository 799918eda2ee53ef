// Plugins across a run's life on Trellis alone (what ADK has no counterpart to compare with): a
// plugin that fails, bad plugins, rewind, Stop and resume, workflows resumed after a plugin gave
// a node's output, and the two plugins ADK ships.

import { afterEach, describe, expect, it } from 'vitest';
import {
  BasePlugin,
  FunctionTool,
  GlobalInstructionPlugin,
  InMemoryRunner,
  LlmAgent,
  LoggingPlugin,
  PluginError,
  Runner,
  ScriptedModel,
  Workflow,
  TokenBasedContextCompactor,
  isCompactionEvent,
  type CallbackContext,
  type Content,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import { callingModel, said } from '../../support/callback-agents.ts';
import { compactingAgent, countingSummarizer } from '../../support/compaction.ts';
import { collect, rejectionOf, userMessage } from '../../support/helpers.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

let services: Services | undefined;
afterEach(() => services?.close());

const noop = () =>
  new FunctionTool({ name: 'noop', description: 'Nothing', execute: () => ({ ok: true }) });

function helper() {
  return new LlmAgent({ name: 'helper', model: callingModel('noop'), tools: [noop()] });
}

/** Counts what it sees in state; answers nothing. */
class Counter extends BasePlugin {
  constructor() {
    super('counter');
  }
  override beforeModelCallback({ callbackContext }: { callbackContext: CallbackContext }) {
    const calls = (callbackContext.state.get('model_calls') as number | undefined) ?? 0;
    callbackContext.state.set('model_calls', calls + 1);
    return undefined;
  }
}

const texts = (events: readonly Event[]) =>
  events.flatMap((e) => (e.content?.parts ?? []).flatMap((p) => (p.text ? [p.text] : [])));

describe.each(serviceKinds)('plugins across a run ($name)', (kind) => {
  it('a rewind takes back what a plugin wrote to state', async () => {
    services = kind.open();
    const session = await openRunnerSession(services, helper(), { plugins: [new Counter()] });
    await session.run('first');
    const second = await session.run('second');
    expect((await session.read()).state).toEqual({ model_calls: 4 });
    await session.rewind(second[0]!.invocationId);
    expect((await session.read()).state).toEqual({ model_calls: 2 });
  });

  it('a plugin that throws fails the run with a PluginError naming it; what came before stays', async () => {
    class Broken extends BasePlugin {
      override afterToolCallback(): undefined {
        throw new Error('disk on fire');
      }
    }
    services = kind.open();
    const session = await openRunnerSession(services, helper(), {
      plugins: [new Broken('broken')],
    });
    const error = await rejectionOf(session.run('go'));
    expect(error).toBeInstanceOf(PluginError);
    expect(error.message).toBe(
      "Error in plugin 'broken' during 'afterToolCallback' callback: disk on fire",
    );
    const stored = (await session.read()).events;
    // The call, then the agent's error event (as for an agent's own callback that throws).
    expect(stored.map((e) => e.author)).toEqual(['user', 'helper', 'helper']);
    expect(stored.at(-1)!.errorMessage).toMatch(/plugin 'broken'/);
  });

  it('an onEventCallback that throws stops the run before that event is stored', async () => {
    class Picky extends BasePlugin {
      override onEventCallback({ event }: { event: Event }): undefined {
        if (event.content?.parts[0]?.functionCall) throw new Error('no calls');
        return undefined;
      }
    }
    services = kind.open();
    const session = await openRunnerSession(services, helper(), { plugins: [new Picky('picky')] });
    await expect(session.run('go')).rejects.toThrow(/plugin 'picky' during 'onEventCallback'/);
    expect((await session.read()).events.map((e) => e.author)).toEqual(['user']);
  });
});

describe('plugins and the runner', () => {
  it('refuses two plugins of one name, and what is not a plugin', () => {
    const agent = helper();
    expect(() => new InMemoryRunner({ agent, plugins: [new Counter(), new Counter()] })).toThrow(
      "A plugin named 'counter' is already registered",
    );
    expect(
      () => new InMemoryRunner({ agent, plugins: [{ name: 'fake' } as unknown as BasePlugin] }),
    ).toThrow('A plugin must be an instance of a BasePlugin subclass');
    expect(() => new InMemoryRunner({ agent, plugins: [new Counter2('')] })).toThrow(
      'A plugin needs a name',
    );
  });

  it('Stop: afterRunCallback does not run, and nothing is stored past the stop', async () => {
    const seen: string[] = [];
    class Watch extends BasePlugin {
      override beforeRunCallback(): undefined {
        seen.push('before');
        return undefined;
      }
      override afterRunCallback() {
        seen.push('after');
      }
    }
    const controller = new AbortController();
    const agent = new LlmAgent({
      name: 'helper',
      model: new ScriptedModel(() => {
        controller.abort();
        return 'never stored';
      }),
    });
    const runner = new InMemoryRunner({ agent, plugins: [new Watch('watch')] });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: session.id,
        newMessage: userMessage('hi'),
        runConfig: { signal: controller.signal },
      }),
    );
    expect(seen).toEqual(['before']);
    const stored = await runner.sessionService.getSession({
      appName: runner.appName,
      userId: 'u',
      sessionId: session.id,
    });
    expect(texts(stored!.events)).toEqual(['hi']);
  });

  it('a resumed run runs beforeRunCallback again, and not the agent callbacks of a started agent', async () => {
    const seen: string[] = [];
    class Watch extends BasePlugin {
      override beforeRunCallback(): undefined {
        seen.push('run');
        return undefined;
      }
      override beforeAgentCallback(): undefined {
        seen.push('agent');
        return undefined;
      }
    }
    let calls = 0;
    const agent = new LlmAgent({
      name: 'helper',
      tools: [noop()],
      model: new ScriptedModel((request: LlmRequest) => {
        calls++;
        if (calls === 2) throw Object.assign(new Error('gone'), { name: 'ModelUnreachableError' });
        return request.contents.at(-1)!.parts[0]?.functionResponse
          ? 'done'
          : { content: { role: 'model', parts: [{ functionCall: { name: 'noop', args: {} } }] } };
      }),
    });
    const runner = new InMemoryRunner({
      agent,
      plugins: [new Watch('watch')],
      resumabilityConfig: { isResumable: true },
    });
    const { id: sessionId } = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    const first = await collect(
      runner.runAsync({ userId: 'u', sessionId, newMessage: userMessage('go') }),
    ).catch(() => undefined);
    expect(first).toBeUndefined();
    const [cut] = await runner.listInterruptedInvocations({ userId: 'u' });
    await collect(runner.runAsync({ userId: 'u', sessionId, invocationId: cut!.invocationId }));
    expect(seen).toEqual(['run', 'agent', 'run']);
    const stored = await runner.sessionService.getSession({
      appName: runner.appName,
      userId: 'u',
      sessionId,
    });
    expect(texts(stored!.events)).toEqual(['go', 'done']);
  });

  it('a node output a plugin gave is read back on resume: the node does not run again', async () => {
    const ran: string[] = [];
    let wait = true;
    const flow = () =>
      new Workflow({
        name: 'flow',
        edges: [
          [
            'START',
            function first() {
              ran.push('first');
              return 'real';
            },
            function second(_ctx: unknown, input: unknown) {
              ran.push(`second(${String(input)})`);
              if (wait) throw Object.assign(new Error('later'), { name: 'ModelUnreachableError' });
              return `second got ${String(input)}`;
            },
          ],
        ],
      });
    class Give extends BasePlugin {
      override beforeNodeCallback({ node }: { node: { name: string } }) {
        return node.name === 'first' && ran.length === 0 ? 'given' : undefined;
      }
    }
    const runner = new InMemoryRunner({
      agent: flow(),
      plugins: [new Give('give')],
      resumabilityConfig: { isResumable: true },
    });
    const { id: sessionId } = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    await collect(runner.runAsync({ userId: 'u', sessionId, newMessage: userMessage('go') })).catch(
      () => undefined,
    );
    wait = false;
    const [cut] = await runner.listInterruptedInvocations({ userId: 'u' });
    await collect(runner.runAsync({ userId: 'u', sessionId, invocationId: cut!.invocationId }));
    // `first` never ran: its output was the plugin's, and the resume read it from the log.
    expect(ran).toEqual(['second(given)', 'second(given)']);
  });
});

class Counter2 extends BasePlugin {}

describe('plugins and context compaction', () => {
  it('hear of each compaction before and after, with what set it off', async () => {
    const heard: string[] = [];
    class Listen extends BasePlugin {
      override beforeContextCompaction({ trigger }: { trigger: string }) {
        heard.push(`before ${trigger}`);
      }
      override afterContextCompaction({ trigger }: { trigger: string }) {
        heard.push(`after ${trigger}`);
      }
    }
    const { summarizer } = countingSummarizer();
    const agent = compactingAgent([
      new TokenBasedContextCompactor({ tokenThreshold: 60, eventRetentionSize: 2, summarizer }),
    ]);
    const runner = new InMemoryRunner({ agent, plugins: [new Listen('listen')] });
    const { id: sessionId } = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    for (const text of ['one', 'two', 'three'])
      await collect(runner.runAsync({ userId: 'u', sessionId, newMessage: userMessage(text) }));
    const stored = await runner.sessionService.getSession({
      appName: runner.appName,
      userId: 'u',
      sessionId,
    });
    const compactions = stored!.events.filter(isCompactionEvent).length;
    expect(compactions).toBeGreaterThan(0);
    expect(heard).toEqual(
      Array.from({ length: compactions }, () => ['before Auto', 'after Auto']).flat(),
    );
  });
});

describe('a callback’s context and memory', () => {
  it('searchMemory finds what another session left in memory (ADK’s Context.searchMemory)', async () => {
    const found: string[] = [];
    class Recall extends BasePlugin {
      override async beforeModelCallback({
        callbackContext,
      }: {
        callbackContext: CallbackContext;
      }) {
        const { memories } = await callbackContext.searchMemory('violet');
        found.push(...memories.map((m) => m.content.parts[0]?.text ?? ''));
        return undefined;
      }
    }
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'echo', model: new ScriptedModel(() => 'ok') }),
      plugins: [new Recall('recall')],
    });
    const appName = runner.appName;
    const past = await runner.sessionService.createSession({ appName, userId: 'u' });
    await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: past.id,
        newMessage: userMessage('I like violet'),
      }),
    );
    const stored = await runner.sessionService.getSession({
      appName,
      userId: 'u',
      sessionId: past.id,
    });
    await runner.memoryService!.addSessionToMemory(stored!);
    found.length = 0;
    const now = await runner.sessionService.createSession({ appName, userId: 'u' });
    await collect(
      runner.runAsync({ userId: 'u', sessionId: now.id, newMessage: userMessage('hi') }),
    );
    expect(found).toEqual(['I like violet']);
    // Without a memory service: a clear error.
    const bare = new Runner({
      appName,
      agent: new LlmAgent({ name: 'echo', model: new ScriptedModel(() => 'ok') }),
      sessionService: runner.sessionService,
      plugins: [new Recall('recall')],
    });
    await expect(
      collect(bare.runAsync({ userId: 'u', sessionId: now.id, newMessage: userMessage('hi') })),
    ).rejects.toThrow(
      "Error in plugin 'recall' during 'beforeModelCallback' callback: This runner has no memory service",
    );
  });
});

describe('the plugins ADK ships', () => {
  it('LoggingPlugin logs each step of a run and changes nothing in it', async () => {
    const lines: string[] = [];
    const run = async (plugins: BasePlugin[]) => {
      const runner = new InMemoryRunner({ agent: helper(), plugins });
      const { id: sessionId } = await runner.sessionService.createSession({
        appName: runner.appName,
        userId: 'u',
      });
      await collect(runner.runAsync({ userId: 'u', sessionId, newMessage: userMessage('go') }));
      const stored = await runner.sessionService.getSession({
        appName: runner.appName,
        userId: 'u',
        sessionId,
      });
      return stored!.events.map((e) => [
        e.author,
        e.content?.parts.map((p) => p.text ?? p.functionCall?.name ?? p.functionResponse?.response),
      ]);
    };
    const logged = await run([new LoggingPlugin('log', { log: (line) => lines.push(line) })]);
    expect(logged).toEqual(await run([]));
    const headings = lines.filter((line) => !line.startsWith('[log]    '));
    expect(headings).toEqual([
      '[log] USER MESSAGE RECEIVED',
      '[log] INVOCATION STARTING',
      '[log] AGENT STARTING',
      '[log] LLM REQUEST',
      '[log] LLM RESPONSE',
      '[log] EVENT YIELDED',
      '[log] TOOL STARTING',
      '[log] TOOL COMPLETED',
      '[log] EVENT YIELDED',
      '[log] LLM REQUEST',
      '[log] LLM RESPONSE',
      '[log] EVENT YIELDED',
      '[log] AGENT COMPLETED',
      '[log] INVOCATION COMPLETED',
    ]);
    expect(lines).toContain('[log]    Function Calls: noop');
    expect(lines).toContain('[log]    Result: {"ok":true}');
  });

  it('GlobalInstructionPlugin fills state placeholders, and says so when a key is missing', async () => {
    const seen: (string | undefined)[] = [];
    const agent = new LlmAgent({
      name: 'echo',
      model: new ScriptedModel((request: LlmRequest) => {
        seen.push(request.systemInstruction);
        return 'ok';
      }),
    });
    const runner = new Runner({
      appName: 'app',
      agent,
      sessionService: new InMemoryRunner({ agent: helper() }).sessionService,
      plugins: [new GlobalInstructionPlugin('Answer in {language}.')],
    });
    const { id: sessionId } = await runner.sessionService.createSession({
      appName: 'app',
      userId: 'u',
      state: { language: 'French' },
    });
    await collect(runner.runAsync({ userId: 'u', sessionId, newMessage: userMessage('hi') }));
    expect(seen[0]).toMatch(/^Answer in French\.\n\n/);
    const other = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
    await expect(
      collect(runner.runAsync({ userId: 'u', sessionId: other.id, newMessage: userMessage('hi') })),
    ).rejects.toThrow(/plugin 'global_instruction'.*state key language, which is not set/);
  });

  it('a plugin may answer in place of a whole run of any agent (a content filter)', async () => {
    class Closed extends BasePlugin {
      override onUserMessageCallback({ userMessage: m }: { userMessage: Content }) {
        return m.parts[0]?.text === 'secret' ? said('[redacted]') : undefined;
      }
    }
    const runner = new InMemoryRunner({ agent: helper(), plugins: [new Closed('closed')] });
    const { id: sessionId } = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    const events = await collect(
      runner.runAsync({ userId: 'u', sessionId, newMessage: userMessage('secret') }),
    );
    const stored = await runner.sessionService.getSession({
      appName: runner.appName,
      userId: 'u',
      sessionId,
    });
    expect(texts(stored!.events)[0]).toBe('[redacted]');
    expect(stored!.events[0]!.content!.role).toBe('user');
    expect(events.length).toBeGreaterThan(0);
  });
});
