// ADK 2.0's context compaction on Trellis, side by side with @google/adk 2.0: the same agents,
// the same scripted model logic for the agent and its summariser, on each library. What the
// session holds at the end (texts, calls, responses, state, and the compactions as their
// summaries), what the agent's model was sent at each call and what the summariser was asked
// must be the same. Each test also pins some of it, so that both doing nothing would not pass.

import { describe, expect, it } from 'vitest';
import {
  lastUserText,
  text,
  weatherScript,
  type Request,
  type Response,
} from '../../support/callback-parity.ts';
import {
  ADK_COMPACTION,
  TRELLIS_COMPACTION,
  contentLines,
  runCompacting,
  type CompactionLib,
  type Outcome,
  type Recorders,
} from '../../support/compaction-parity.ts';

/** The agent's model: reports a tool's answer, calls a tool when asked, else echoes at length. */
function chatScript(requests: string[][]) {
  return (request: Request): Response => {
    requests.push(contentLines(request));
    // A tool's answer is reported as the callbacks' weather model does.
    if (request.contents.at(-1)?.parts?.some((part) => part.functionResponse))
      return weatherScript(request) as Response;
    const said = lastUserText(request);
    const city = /weather in (\w+)/.exec(said)?.[1];
    if (city) {
      return {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'get_weather', args: { city } } }],
        },
      };
    }
    const consolidate = /consolidate(?: about (\w+))?/.exec(said);
    if (consolidate) {
      return {
        content: {
          role: 'model',
          parts: [
            {
              functionCall: {
                name: 'consolidate_context',
                args: consolidate[1] ? { detail: consolidate[1] } : {},
              },
            },
          ],
        },
      };
    }
    return text(`heard: ${said}. ${'Quite a long answer to fill the context. '.repeat(3)}`);
  };
}

/** The summariser's model: says how many events it was given and who wrote them. */
function summaryScript(summaries: string[][]) {
  return (request: Request): Response => {
    const lines = contentLines(request);
    summaries.push(lines);
    const authors = [...lines.join('\n').matchAll(/Author: (\w+)/g)].map((m) => m[1]);
    return text(`summary #${summaries.length} of ${authors.length} events (${authors.join(', ')})`);
  };
}

function chatter(
  lib: CompactionLib,
  record: Recorders,
  compactor: (summarizer: unknown) => unknown,
) {
  const summarizer = new lib.LlmSummarizer({ llm: lib.model(summaryScript(record.summaries)) });
  return new lib.LlmAgent({
    name: 'chatter',
    model: lib.model(chatScript(record.requests)),
    tools: [
      lib.cityTool('get_weather', ({ city }) => ({ city, sky: 'sunny' })),
      lib.consolidateTool(),
    ],
    contextCompactors: [compactor(summarizer)],
  });
}

/**
 * Runs both and compares. `truncates`: ADK's TruncatingContextCompactor splices the events out
 * of the invocation's copy of the session and stores nothing (its stored session keeps them
 * all), where Trellis stores a compaction event with no summary: the sessions then agree but
 * for those.
 */
/** The chatter with a TokenBasedContextCompactor. */
function tokenBased(tokenThreshold: number, eventRetentionSize: number) {
  return (lib: CompactionLib, record: Recorders) =>
    chatter(
      lib,
      record,
      (summarizer) =>
        new lib.TokenBasedContextCompactor({ tokenThreshold, eventRetentionSize, summarizer }),
    );
}

async function sideBySide(
  build: (lib: CompactionLib, record: Recorders) => unknown,
  messages: readonly string[],
  options: { truncates?: boolean } = {},
): Promise<Outcome> {
  const theirs = await runCompacting(ADK_COMPACTION, build, messages);
  const ours = await runCompacting(TRELLIS_COMPACTION, build, messages);
  expect(ours.requests).toEqual(theirs.requests);
  expect(ours.summaries).toEqual(theirs.summaries);
  const events = options.truncates
    ? ours.events.filter((event) => !('summary' in event && event.summary === ''))
    : ours.events;
  expect(events).toEqual(theirs.events);
  expect(ours.state).toEqual(theirs.state);
  return ours;
}

const MESSAGES = [
  'hello there',
  'weather in Oslo',
  'tell me more',
  'weather in Rome',
  'and then?',
  'one more thing',
  'weather in Lima',
  'the last one',
];

describe('context compaction, side by side with @google/adk 2.0', () => {
  it('a token-based compactor summarises all but the last events, then the summary and more', async () => {
    const outcome = await sideBySide(tokenBased(120, 3), MESSAGES);
    const compactions = outcome.events.filter((event) => 'summary' in event);
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(compactions[0]).toMatchObject({
      author: 'system',
      summary: expect.stringMatching(/^summary #1/),
    });
    // The second summary is made of the first and what followed.
    expect(outcome.summaries[1]!.join('\n')).toContain('summary #1 of');
    // A request after a compaction starts with its summary, as ADK words it.
    const after = outcome.requests.find((lines) =>
      lines[0]!.includes('[Previous Context Summary]'),
    );
    expect(after?.[0]).toMatch(/^user: \[Previous Context Summary\]:\nsummary #\d/);
  });

  it("counts the model's reported prompt tokens over the estimate", async () => {
    // The model reports a prompt of 10 tokens a content: past 5 contents it is over 50, whatever
    // the texts' length (ADK's rule: the latest reported count among the events the model sees).
    const build = (lib: CompactionLib, record: Recorders) => {
      const script = chatScript(record.requests);
      const summarizer = new lib.LlmSummarizer({ llm: lib.model(summaryScript(record.summaries)) });
      return new lib.LlmAgent({
        name: 'chatter',
        model: lib.model((request) => ({
          ...script(request),
          usageMetadata: { promptTokenCount: request.contents.length * 10 },
        })),
        contextCompactors: [
          new lib.TokenBasedContextCompactor({
            tokenThreshold: 50,
            eventRetentionSize: 2,
            summarizer,
          }),
        ],
      });
    };
    const outcome = await sideBySide(build, ['a', 'b', 'c', 'd', 'e', 'f']);
    expect(outcome.events.filter((event) => 'summary' in event)).toEqual([
      { author: 'system', summary: expect.stringMatching(/^summary #1 of/) },
    ]);
  });

  it('never splits a call from its response: the kept events start before the call', async () => {
    const outcome = await sideBySide(tokenBased(40, 1), [
      'hello there',
      'weather in Oslo',
      'weather in Rome',
    ]);
    for (const lines of outcome.requests) {
      lines.forEach((line, i) => {
        if (line.includes('get_weather →')) expect(lines[i - 1]).toMatch(/get_weather\(/);
      });
    }
    expect(outcome.events.some((event) => 'summary' in event)).toBe(true);
  });

  it('a truncating compactor drops the oldest events but the leading ones', async () => {
    const outcome = await sideBySide(
      (lib, record) =>
        chatter(
          lib,
          record,
          () => new lib.TruncatingContextCompactor({ threshold: 3, preserveLeadingEvents: 1 }),
        ),
      ['first', 'second', 'third', 'fourth'],
      { truncates: true },
    );
    expect(outcome.events.filter((event) => 'summary' in event)).toEqual([
      { author: 'system', summary: '' },
      { author: 'system', summary: '' },
    ]);
    expect(outcome.requests.at(-1)).toEqual([
      'user: first',
      'user: third',
      expect.stringMatching(/^model: heard: third/),
      'user: fourth',
    ]);
  });

  it('the agent asks for a compaction with consolidate_context, with a detail to focus on', async () => {
    const outcome = await sideBySide(
      (lib, record) =>
        chatter(
          lib,
          record,
          (summarizer) => new lib.AgentControlledContextCompactor({ summarizer }),
        ),
      ['hello there', 'weather in Oslo', 'consolidate about Oslo', 'and now?'],
    );
    expect(outcome.summaries).toHaveLength(1);
    expect(outcome.summaries[0]!.join('\n')).toContain(
      'CRITICAL INSTRUCTION FOR SUMMARY: Please summarize the history. Focus especially on: Oslo',
    );
    expect(outcome.requests.at(-1)![0]).toMatch(/^user: \[Previous Context Summary\]/);
  });
});
