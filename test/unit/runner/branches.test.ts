// Rewind with real agents (what the model sees, who answers next), edit, fork and the branch tree.

import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  LlmAgent,
  Runner,
  ScriptedModel,
  activeEvents,
  branchTree,
  functionCallResponse,
  textOf,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { collect, rejectionOf, userMessage } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'app';
const userId = 'ada';

/** A model that answers "echo: <last user text>" and records what it saw. */
function echoModel() {
  return new ScriptedModel((request: LlmRequest) => `echo: ${textOf(request.contents.at(-1))}`);
}

const textsOf = (request: LlmRequest) => request.contents.map((content) => textOf(content));

describe.each(serviceKinds)('branches ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: LlmAgent, state?: Record<string, unknown>) {
    services = kind.open();
    const ctx = await openRunnerSession(services, agent, state ? { state } : {});
    return { ...ctx, say: ctx.run };
  }

  /** A state keeper: "set k v" stores k=v through a tool and saves a note artifact. */
  function keeper() {
    const set = new FunctionTool({
      name: 'set',
      description: 'Sets a key',
      execute: async ({ key, value }: { key: string; value: string }, ctx) => {
        ctx.state.set(key, value);
        await ctx.saveArtifact('note.txt', { text: `${key}=${value}` });
        return { ok: true };
      },
    });
    const model = new ScriptedModel((request: LlmRequest) => {
      const last = request.contents.at(-1)!;
      if (last.parts[0]!.functionResponse) return 'done';
      const [, key, value] = textOf(last).split(' ');
      return functionCallResponse(['set', { key: key!, value: value! }]);
    });
    return { agent: new LlmAgent({ name: 'keeper', model, tools: [set] }), model };
  }

  it('makes the model forget the rewound turns', async () => {
    const model = echoModel();
    const ctx = await setUp(new LlmAgent({ name: 'agent', model }));
    await ctx.say('one');
    const second = await ctx.say('two');
    await ctx.say('three');
    await ctx.rewind(second[0]!.invocationId);
    await ctx.say('four');
    expect(textsOf(model.requests.at(-1)!)).toEqual(['one', 'echo: one', 'four']);
  });

  it('lets the agent that answered last in the active conversation answer next (ADK bug #4169)', async () => {
    const billing = new LlmAgent({
      name: 'billing',
      model: new ScriptedModel(() => 'billing here'),
    });
    const rootModel = new ScriptedModel((request) =>
      textOf(request.contents.at(-1)) === 'invoice?'
        ? functionCallResponse(['transfer_to_agent', { agent_name: 'billing' }])
        : 'root here',
    );
    const ctx = await setUp(new LlmAgent({ name: 'root', model: rootModel, subAgents: [billing] }));
    await ctx.say('hello');
    const transferred = await ctx.say('invoice?');
    expect(transferred.at(-1)!.author).toBe('billing');
    await ctx.rewind(transferred[0]!.invocationId);
    const next = await ctx.say('something else');
    expect(next.map((e) => e.author)).toEqual(['root']);
  });

  it('edits a past message and runs it again, keeping the old turn on its own branch', async () => {
    const { agent, model } = keeper();
    const ctx = await setUp(agent);
    const first = await ctx.say('set color red');
    await ctx.say('set size large');
    const edited = await collect(
      ctx.runner.editMessageAsync({
        userId,
        sessionId: ctx.sessionId,
        invocationId: first[0]!.invocationId,
        newMessage: userMessage('set color blue'),
      }),
    );
    expect(edited.map((e) => e.author)).toEqual(['keeper', 'keeper', 'keeper']);
    const session = await ctx.read();
    expect(session.state).toEqual({ color: 'blue' });
    expect(textsOf(model.requests.at(-1)!)).toEqual(['set color blue', '', '']);
    const tree = branchTree(session.events);
    expect(tree.rootIds).toHaveLength(2);
    expect(tree.turns.map((t) => [t.text, t.active])).toEqual([
      ['set color red', false],
      ['set size large', false],
      ['set color blue', true],
    ]);
    expect(
      await services.artifactService.loadArtifact({
        appName,
        userId,
        sessionId: ctx.sessionId,
        filename: 'note.txt',
      }),
    ).toEqual({ text: 'color=blue' });
  });

  it('refuses to edit what is not a user turn, and writes nothing', async () => {
    const ctx = await setUp(new LlmAgent({ name: 'agent', model: echoModel() }));
    const answer = await ctx.say('hi');
    const marker = await ctx.rewind(answer[0]!.invocationId);
    const before = await ctx.read();
    const edit = (invocationId: string) =>
      rejectionOf(
        collect(
          ctx.runner.editMessageAsync({
            userId,
            sessionId: ctx.sessionId,
            invocationId,
            newMessage: userMessage('x'),
          }),
        ),
      );
    expect((await edit('e-unknown')).name).toBe('InvocationNotFoundError');
    expect((await edit(marker.invocationId)).name).toBe('InvalidRequestError');
    expect(await ctx.read()).toEqual(before);
  });

  it('forks a session at a turn: its conversation, state and artifacts, in a new session', async () => {
    const { agent } = keeper();
    const ctx = await setUp(agent, { lang: 'en', 'app:shared': 1 });
    const first = await ctx.say('set color red');
    await ctx.say('set size large');
    await services.sessionService.appendEvent({
      session: { appName, userId, id: ctx.sessionId },
      event: {
        ...first[0]!,
        id: 'later',
        invocationId: 'e-later',
        actions: { stateDelta: { 'app:shared': 2 }, artifactDelta: {} },
      },
    });

    const fork = await ctx.runner.forkSessionAsync({
      userId,
      sessionId: ctx.sessionId,
      atInvocationId: first[0]!.invocationId,
    });
    expect(fork.id).not.toBe(ctx.sessionId);
    expect(fork.state).toEqual({ lang: 'en', color: 'red', 'app:shared': 2 });
    expect(fork.events.map((e) => e.author)).toEqual([
      'user',
      'user',
      'keeper',
      'keeper',
      'keeper',
    ]);
    const forkKey = { appName, userId, sessionId: fork.id };
    expect(
      await services.artifactService.loadArtifact({ ...forkKey, filename: 'note.txt' }),
    ).toEqual({ text: 'color=red' });
    expect(
      await services.artifactService.listVersions({ ...forkKey, filename: 'note.txt' }),
    ).toEqual([0]);
    // The fork is a session like any other: it runs, and rewinds back to its initial state.
    await collect(
      ctx.runner.runAsync({ userId, sessionId: fork.id, newMessage: userMessage('set mood calm') }),
    );
    const userTurn = fork.events[1]!.invocationId;
    await ctx.runner.rewindAsync({
      userId,
      sessionId: fork.id,
      rewindBeforeInvocationId: userTurn,
    });
    expect((await services.sessionService.getSession(forkKey))!.state).toEqual({
      lang: 'en',
      'app:shared': 2,
    });
    // The source did not change.
    expect((await ctx.read()).state).toEqual({
      lang: 'en',
      color: 'red',
      size: 'large',
      'app:shared': 2,
    });
  });

  it('forks at a turn of an abandoned branch', async () => {
    const { agent } = keeper();
    const ctx = await setUp(agent);
    await ctx.say('set a 1');
    const abandoned = await ctx.say('set b 2');
    await ctx.rewind(abandoned[0]!.invocationId);
    await ctx.say('set c 3');
    const fork = await ctx.runner.forkSessionAsync({
      userId,
      sessionId: ctx.sessionId,
      atInvocationId: abandoned[0]!.invocationId,
    });
    expect(fork.state).toEqual({ a: '1', b: '2' });
    expect(activeEvents(fork.events)).toEqual(fork.events);
  });

  it('rejects a fork of an unknown session or turn, and creates nothing', async () => {
    const ctx = await setUp(new LlmAgent({ name: 'agent', model: echoModel() }));
    await ctx.say('hi');
    const unknownTurn = await rejectionOf(
      ctx.runner.forkSessionAsync({ userId, sessionId: ctx.sessionId, atInvocationId: 'e-nope' }),
    );
    expect(unknownTurn.name).toBe('InvocationNotFoundError');
    const unknownSession = await rejectionOf(
      ctx.runner.forkSessionAsync({ userId, sessionId: 'nope', atInvocationId: 'e-nope' }),
    );
    expect(unknownSession.name).toBe('SessionNotFoundError');
    expect((await services.sessionService.listSessions({ appName, userId })).sessions).toHaveLength(
      1,
    );
  });
});

describe('branchTree', () => {
  let services: Services;
  afterEach(() => services.close());

  it('derives the tree of turns, the active path, the forks and what each turn offers', async () => {
    services = serviceKinds[0]!.open();
    const runner = new Runner({
      appName,
      agent: new LlmAgent({ name: 'agent', model: echoModel() }),
      ...services,
    });
    const { id: sessionId } = await services.sessionService.createSession({
      appName,
      userId,
      state: { x: 1 },
    });
    const say = async (text: string) =>
      (await collect(runner.runAsync({ userId, sessionId, newMessage: userMessage(text) })))[0]!
        .invocationId;
    const rewind = (id: string) =>
      runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: id });

    const a = await say('A');
    const b = await say('B');
    const c = await say('C');
    const leaveC = await rewind(c); // A → B, with C abandoned
    const d = await say('D'); // A → B → D
    const leaveB = await rewind(b); // back to A
    const e = await say('E'); // A → E

    const log = (await services.sessionService.getSession({ appName, userId, sessionId }))!.events;
    const tree = branchTree(log);
    const t = (id: string) => tree.byId.get(id)!;
    expect(tree.turns.map((turn) => turn.text)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(tree.rootIds).toEqual([a]);
    expect(t(a).childIds).toEqual([b, e]);
    expect(t(b).childIds).toEqual([c, d]);
    expect(tree.forkIds).toEqual([a, b]);
    expect(tree.activePath).toEqual([a, e]);
    expect(tree.turns.map((turn) => turn.depth)).toEqual([0, 1, 2, 2, 1]);
    expect(t(c).events.map((event) => event.author)).toEqual(['user', 'agent']);
    expect(tree.markers.map((m) => [m.invocationId, m.abandonedTipId, m.restoredTipId])).toEqual([
      [leaveC.invocationId, c, b],
      [leaveB.invocationId, d, a],
    ]);

    // Operations: every turn can be rewound before, edited and forked; abandoned ones switched to.
    expect(t(e).operations).toEqual({
      rewindBefore: { rewindBeforeInvocationId: e },
      edit: { invocationId: e, text: 'E' },
      fork: { atInvocationId: e },
    });
    expect(t(d).operations.switchToBranch).toEqual({
      rewindBeforeInvocationId: leaveB.invocationId,
    });
    expect(t(b).operations.switchToBranch).toEqual({
      rewindBeforeInvocationId: leaveB.invocationId,
    });
    expect(t(c).operations.switchToBranch).toEqual({
      rewindBeforeInvocationId: leaveC.invocationId,
    });

    // Switching to C's branch makes A → B → C active again, and the tree agrees with the log.
    await rewind(t(c).operations.switchToBranch!.rewindBeforeInvocationId);
    const after = (await services.sessionService.getSession({ appName, userId, sessionId }))!;
    const switched = branchTree(after.events);
    expect(switched.activePath).toEqual([a, b, c]);
    const activeTurns = [
      ...new Set(
        activeEvents(after.events)
          .filter((ev) => ev.content)
          .map((ev) => ev.invocationId),
      ),
    ];
    expect(activeTurns).toEqual(switched.activePath);
  });

  it('ignores events that start no turn, and a marker whose target is unknown', () => {
    const event = (invocationId: string, init: Partial<Event> = {}): Event => ({
      id: crypto.randomUUID(),
      invocationId,
      author: 'user',
      timestamp: 0,
      actions: { stateDelta: {}, artifactDelta: {} },
      ...init,
    });
    const tree = branchTree([
      event('init', { actions: { stateDelta: { x: 1 }, artifactDelta: {} } }),
      event('t1', { content: userMessage('hi') }),
      event('m', {
        actions: { stateDelta: {}, artifactDelta: {}, rewindBeforeInvocationId: 'ghost' },
      }),
    ]);
    expect(tree.turns.map((turn) => turn.invocationId)).toEqual(['t1']);
    expect(tree.activePath).toEqual(['t1']);
    expect(tree.markers).toEqual([]);
  });

  it('puts the user’s answer to calls, in an invocation of its own, on the turn that made them', () => {
    const event = (invocationId: string, author: string, init: Partial<Event> = {}): Event => ({
      id: crypto.randomUUID(),
      invocationId,
      author,
      timestamp: 0,
      actions: { stateDelta: {}, artifactDelta: {} },
      ...init,
    });
    const answer = (name: string) =>
      event(`answer-${name}`, 'user', {
        content: {
          role: 'user',
          parts: [{ functionResponse: { id: `${name}-1`, name, response: { confirmed: true } } }],
        },
      });
    const log = [
      event('a', 'user', { content: userMessage('send 5') }),
      event('a', 'agent', {
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: 'adk_request_confirmation-1',
                name: 'adk_request_confirmation',
                args: {},
              },
            },
          ],
        },
      }),
      answer('adk_request_confirmation'),
      event('answer-adk_request_confirmation', 'agent', {
        content: { role: 'model', parts: [{ text: 'Done' }] },
      }),
      answer('ask_user'),
      event('c', 'user', { content: userMessage('thanks') }),
    ];
    const tree = branchTree(log);
    // History shows no "Result of adk_request_confirmation" turn.
    expect(tree.turns.map((turn) => turn.text)).toEqual(['send 5', 'thanks']);
    expect(tree.activePath).toEqual(['a', 'c']);
    expect(tree.byId.get('c')!.parentId).toBe('a');
    expect(tree.byId.get('a')!.events.map((e) => e.invocationId)).toEqual([
      'a',
      'a',
      'answer-adk_request_confirmation',
      'answer-adk_request_confirmation',
      'answer-ask_user',
    ]);
    // Rewinding before the answer keeps the turn that asked (as activeEvents does).
    const marker = event('m', 'user', {
      actions: {
        stateDelta: {},
        artifactDelta: {},
        rewindBeforeInvocationId: 'answer-adk_request_confirmation',
      },
    });
    const rewound = branchTree([...log, marker]);
    expect(rewound.activePath).toEqual(['a']);
    expect(rewound.byId.get('c')!.operations.switchToBranch).toEqual({
      rewindBeforeInvocationId: 'm',
    });
    expect(activeEvents([...log, marker]).map((e) => e.invocationId)).toEqual(['a', 'a']);
  });
});
