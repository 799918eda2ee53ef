// A compaction in a session file: export writes ADK Python's `actions.compaction` (seconds, a
// Content) with Trellis's ids in `customMetadata.trellis`; import takes it back, from Trellis's
// files and from ADK Python's snake_case ones, and refuses a malformed one, saying where.

import { describe, expect, it } from 'vitest';
import {
  TokenBasedContextCompactor,
  activeEvents,
  isCompactionEvent,
  modelEvents,
  parseSessionFile,
  toSessionFile,
  type Event,
} from '../../../src/index.ts';
import { compactingAgent, countingSummarizer, servicesPerTest } from '../../support/compaction.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { appName, openRunnerSession, userId } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

/** A session that compacted once, as its store holds it. */
async function compactedSession(services: Services) {
  const { summarizer } = countingSummarizer();
  const agent = compactingAgent([
    new TokenBasedContextCompactor({ tokenThreshold: 60, eventRetentionSize: 2, summarizer }),
  ]);
  const session = await openRunnerSession(services, agent);
  for (const text of ['one', 'two', 'three']) await session.run(text);
  return session.read();
}

describe.each(serviceKinds)('a compaction in a session file ($name)', (kind) => {
  const { open } = servicesPerTest(kind);

  it('exports as ADK writes it and imports back the same, context and all', async () => {
    const services = open();
    const session = await compactedSession(services);
    const compaction = session.events.find(isCompactionEvent)!;
    const file = JSON.parse(toSessionFile(session)) as { events: Record<string, any>[] };
    const written = file.events.find((event) => event.id === compaction.id)!;
    expect(written.actions.compaction).toEqual({
      startTimestamp: compaction.actions.compaction!.startTimestamp / 1000,
      endTimestamp: compaction.actions.compaction!.endTimestamp / 1000,
      compactedContent: { role: 'model', parts: [{ text: 'summary #1 of 3 events' }] },
    });
    expect(written.customMetadata.trellis.compaction).toEqual({
      startEventId: compaction.actions.compaction!.startEventId,
      endEventId: compaction.actions.compaction!.endEventId,
    });

    const parsed = parseSessionFile(JSON.stringify(file));
    expect(parsed.events).toEqual(session.events);
    const imported = await services.sessionService.importSession({
      appName,
      userId,
      events: parsed.events,
    });
    const again = (await services.sessionService.getSession({
      appName,
      userId,
      sessionId: imported.id,
    }))!;
    expect(modelEvents(activeEvents(again.events))).toEqual(
      modelEvents(activeEvents(session.events)),
    );
  });
});

describe('a compaction from a file', () => {
  const base = (compaction: unknown): Record<string, unknown> => ({
    id: 's',
    app_name: 'app',
    user_id: 'u',
    state: {},
    last_update_time: 1732212349,
    events: [
      event('e1', 'user', 1732212345, { content: text('user', 'one') }),
      event('e2', 'agent', 1732212346, { content: text('model', 'heard one') }),
      event('e3', 'user', 1732212347, { content: text('user', 'two') }),
      event('e4', 'user', 1732212348, { actions: { compaction } }),
      event('e5', 'agent', 1732212349, { content: text('model', 'heard two') }),
    ],
  });

  it("takes ADK Python's (snake_case, seconds, no ids) and places it by its times", () => {
    const parsed = parseSessionFile(
      JSON.stringify(
        base({
          start_timestamp: 1732212345,
          end_timestamp: 1732212346,
          compacted_content: text('model', 'they said one'),
        }),
      ),
    );
    const compaction = parsed.events.find(isCompactionEvent)!;
    expect(compaction.actions.compaction).toEqual({
      startTimestamp: 1732212345000,
      endTimestamp: 1732212346000,
      compactedContent: text('model', 'they said one'),
    });
    expect(modelEvents(parsed.events).map((e: Event) => e.content!.parts[0]!.text)).toEqual([
      '[Previous Context Summary]:\nthey said one',
      'two',
      'heard two',
    ]);
  });

  it.each([
    ['not an object', 'summary', /events\[3\]\.actions\.compaction must be an object/],
    [
      'no times',
      { compacted_content: text('model', 's') },
      /compaction\.start_timestamp must be a number/,
    ],
    [
      'no content',
      { start_timestamp: 1, end_timestamp: 2 },
      /compaction\.compacted_content is missing/,
    ],
    [
      'a bad content',
      { start_timestamp: 1, end_timestamp: 2, compacted_content: { role: 'x', parts: [] } },
      /compaction\.compacted_content\.role must be "user" or "model"/,
    ],
    [
      'times backwards',
      { start_timestamp: 3, end_timestamp: 2, compacted_content: text('model', 's') },
      /compaction\.start_timestamp is after its end/,
    ],
  ])(
    "refuses one with %s, saying where (in the file's own spelling)",
    async (_case, compaction, message) => {
      const error = await rejectionOf(
        (async () => parseSessionFile(JSON.stringify(base(compaction))))(),
      );
      expect(error.name).toBe('InvalidSessionFileError');
      expect(error.message).toMatch(message);
    },
  );
});

function text(role: 'user' | 'model', said: string) {
  return { role, parts: [{ text: said }] };
}

function event(id: string, author: string, timestamp: number, rest: Record<string, unknown>) {
  return {
    id,
    invocation_id: 'inv',
    author,
    timestamp,
    actions: { state_delta: {}, artifact_delta: {}, ...(rest.actions as object) },
    ...(rest.content ? { content: rest.content } : {}),
  };
}
