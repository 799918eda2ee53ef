// A compaction in a session's life, on both stores: it is an event like any other, so a rewind
// to before it brings the full context back, a run cut right after it resumes from it, and a
// summariser that fails or is stopped leaves the log as it was.

import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  LlmSummarizer,
  ScriptedModel,
  TokenBasedContextCompactor,
  activeEvents,
  isCompactionEvent,
  modelEvents,
  type BaseSummarizer,
  type Event,
  type LlmAgent,
} from '../../../src/index.ts';
import {
  compactingAgent,
  countingSummarizer,
  lines,
  servicesPerTest,
} from '../../support/compaction.ts';
import { KillSwitch, withWriteFault } from '../../support/dying-services.ts';
import { collect, rejectionOf, userMessage } from '../../support/helpers.ts';
import { appName, openRunnerSession, userId } from '../../support/runner-session.ts';
import { newRunner, resumeAll } from '../../support/run-scenarios.ts';
import { serviceKinds } from '../../support/service-kinds.ts';

const compactor = (summarizer: BaseSummarizer) =>
  new TokenBasedContextCompactor({ tokenThreshold: 60, eventRetentionSize: 2, summarizer });

const requestsOf = (agent: LlmAgent) =>
  (agent.model as ScriptedModel).requests.map((request) => lines(request.contents));

describe.each(serviceKinds)('a compaction in a session ($name)', (kind) => {
  const { open, keep } = servicesPerTest(kind);
  afterEach(() => vi.restoreAllMocks());

  it('a rewind to before it brings the full context back; one after it keeps it', async () => {
    const services = open();
    const { summarizer } = countingSummarizer();
    const agent = compactingAgent([compactor(summarizer)]);
    const session = await openRunnerSession(services, agent);
    await session.run('one');
    await session.run('two');
    const third = await session.run('three');
    expect(third.some(isCompactionEvent)).toBe(true);
    const compacted = (await session.read()).events;
    expect(modelEvents(activeEvents(compacted)).map(said)).toEqual([
      '[Previous Context Summary]:\nsummary #1 of 3 events',
      expect.stringMatching(/^heard: two/),
      'three',
      expect.stringMatching(/^heard: three/),
    ]);

    // Rewinding the turn that compacted: the log keeps the compaction, the conversation does not.
    await session.rewind(third[0]!.invocationId);
    const { events } = await session.read();
    expect(events.some(isCompactionEvent)).toBe(true);
    expect(activeEvents(events).some(isCompactionEvent)).toBe(false);
    // The next model call sees every event again (an agent that does not compact, to see it).
    const plain = compactingAgent([]);
    await collect(
      newRunner(services, plain).runAsync({
        userId,
        sessionId: session.sessionId,
        newMessage: userMessage('again'),
      }),
    );
    expect(requestsOf(plain)[0]).toEqual([
      'user: one',
      expect.stringMatching(/^model: heard: one/),
      'user: two',
      expect.stringMatching(/^model: heard: two/),
      'user: again',
    ]);
  });

  it('a rewind of a turn after it leaves it in place', async () => {
    const { summarizer } = countingSummarizer();
    const agent = compactingAgent([compactor(summarizer)]);
    const session = await openRunnerSession(open(), agent);
    for (const text of ['one', 'two', 'three']) await session.run(text);
    const fourth = await session.run('four');
    await session.rewind(fourth[0]!.invocationId);
    const active = activeEvents((await session.read()).events);
    expect(active.filter(isCompactionEvent)).toHaveLength(1);
    expect(modelEvents(active).map(said)[0]).toBe(
      '[Previous Context Summary]:\nsummary #1 of 3 events',
    );
  });

  it('a run cut right after it resumes from it: no second summary, the summary first', async () => {
    beforeEachQuiet();
    const services = open();
    const { summarizer, model: summaries } = countingSummarizer();
    const kill = new KillSwitch();
    const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
    const dying = newRunner(
      withWriteFault(services, kill),
      compactingAgent([compactor(summarizer)]),
    );
    for (const text of ['one', 'two'])
      await collect(dying.runAsync({ userId, sessionId, newMessage: userMessage(text) }));
    // The third turn's writes: its message (with the run's record), then the compaction.
    kill.killAfter(2);
    await rejectionOf(
      collect(dying.runAsync({ userId, sessionId, newMessage: userMessage('three') })),
    );
    expect(kill.killed).toBe(true);
    const relaunched = await services.restart();
    keep(relaunched);
    let { events } = (await relaunched.sessionService.getSession({ appName, userId, sessionId }))!;
    expect(isCompactionEvent(events.at(-1)!)).toBe(true);

    const agent = compactingAgent([compactor(summarizer)]);
    const runner = newRunner(relaunched, agent);
    expect(await resumeAll(runner, sessionId)).toEqual([]);
    ({ events } = (await relaunched.sessionService.getSession({ appName, userId, sessionId }))!);
    expect(events.filter(isCompactionEvent)).toHaveLength(1);
    expect(summaries.requests).toHaveLength(1);
    // One model call, which starts with the summary (what it keeps counts the resumable
    // runner's end-of-agent events, as ADK's rule counts every event) and ends with the message.
    const [request, ...more] = requestsOf(agent);
    expect(more).toEqual([]);
    expect(request![0]).toMatch(/^user: \[Previous Context Summary\]:\nsummary #1 of \d+ events$/);
    expect(request!.at(-1)).toBe('user: three');
    expect(said(events.findLast((event) => event.content)!)).toMatch(/^heard: three/);
  });

  it('a summariser whose model fails compacts nothing, says so, and loses nothing', async () => {
    let failing = true;
    const llm = new ScriptedModel(() => {
      if (failing) throw new Error('the summary model is down');
      return 'a summary';
    });
    const agent = compactingAgent([compactor(new LlmSummarizer({ llm }))]);
    const session = await openRunnerSession(open(), agent);
    await session.run('one');
    await session.run('two');
    const before = (await session.read()).events;
    const error = await rejectionOf(session.run('three'));
    expect(error.name).toBe('ContextCompactionError');
    expect(error.message).toMatch(
      /^Context compaction failed, so nothing was compacted: .*the summary model is down/,
    );
    const { events } = await session.read();
    expect(events.some(isCompactionEvent)).toBe(false);
    expect(events.slice(0, before.length)).toEqual(before);
    // The turn's message, then the error event, as any failed run; the agent's model was not called.
    expect(events.slice(before.length).map((event) => event.errorCode ?? event.author)).toEqual([
      'user',
      'CONTEXT_COMPACTION_FAILED',
    ]);
    expect((agent.model as ScriptedModel).requests).toHaveLength(2);

    failing = false;
    await session.run('four');
    const after = (await session.read()).events;
    expect(after.filter(isCompactionEvent)).toHaveLength(1);
  });

  it('Stop during a summary ends the run quietly, with nothing written after the message', async () => {
    const controller = new AbortController();
    const llm = new ScriptedModel(
      () => {
        controller.abort();
        return 'too late';
      },
      { delayMs: 5 },
    );
    const agent = compactingAgent([compactor(new LlmSummarizer({ llm }))]);
    const session = await openRunnerSession(open(), agent);
    await session.run('one');
    await session.run('two');
    const before = (await session.read()).events.length;
    const events: Event[] = await session.run('three', { signal: controller.signal });
    expect(events.some((event) => event.errorMessage !== undefined)).toBe(false);
    const stored = (await session.read()).events;
    expect(stored.some(isCompactionEvent)).toBe(false);
    expect(stored.slice(before).map((event) => event.author)).toEqual(['user']);
  });
});

function beforeEachQuiet() {
  // The dead runner's last words (its record could not be written) are expected noise here.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
}

/** An event's text. */
function said(event: Event): string {
  return event.content?.parts[0]?.text ?? '';
}
