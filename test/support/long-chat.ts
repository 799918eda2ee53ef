// A long chat on a small local model's window: the agent's model answers at once (some turns
// call a tool), its summariser writes a summary of bounded length, and both record the size of
// every request by ADK's estimate. Shared by the unit test that checks every request fits the
// window and the bench that times a turn with compaction against one without.

import {
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  LlmSummarizer,
  ScriptedModel,
  TokenBasedContextCompactor,
  estimateContentsTokens,
  functionCallResponse,
  textResponse,
  type LlmRequest,
} from '../../src/index.ts';

/** A 4k-token local model's context window. */
export const WINDOW_TOKENS = 4_096;
/** Compacts well under the window: the turn's own events and the answer must still fit. */
export const THRESHOLD_TOKENS = 2_500;

export interface LongChat {
  /** Runs turn `n` (0-based). */
  turn(n: number): Promise<void>;
  /** The estimate of every request each model was sent. */
  agentRequests: number[];
  summaryRequests: number[];
  runner: InMemoryRunner;
  sessionId: string;
}

const ANSWER = 'Here is a considered answer with a few details worth keeping in mind. '.repeat(3);

function tokensOf(request: LlmRequest): number {
  return estimateContentsTokens(request.contents);
}

/** A chat whose agent compacts (`compacting`) or not. */
export async function openLongChat(compacting: boolean): Promise<LongChat> {
  const agentRequests: number[] = [];
  const summaryRequests: number[] = [];
  const model = new ScriptedModel((request) => {
    agentRequests.push(tokensOf(request));
    const last = request.contents.at(-1)!;
    if (last.parts.some((part) => part.functionResponse)) return textResponse(`Noted. ${ANSWER}`);
    const said = last.parts[0]?.text ?? '';
    if (said.includes('look up')) return functionCallResponse(['look_up', { topic: said }]);
    return textResponse(`${said}: ${ANSWER}`);
  });
  const summaries = new ScriptedModel((request) => {
    summaryRequests.push(tokensOf(request));
    const count = request.contents[0]!.parts[0]!.text!.match(/\[Event \d+/g)?.length ?? 0;
    return `Summary of ${count} events: the user asked many questions and got answers. `.repeat(4);
  });
  const lookUp = new FunctionTool({
    name: 'look_up',
    description: 'Looks a topic up',
    parameters: { type: 'object', properties: { topic: { type: 'string' } } },
    execute: ({ topic }: { topic: string }) => ({ topic, found: 'a short paragraph about it' }),
  });
  const agent = new LlmAgent({
    name: 'assistant',
    model,
    tools: [lookUp],
    ...(compacting
      ? {
          contextCompactors: [
            new TokenBasedContextCompactor({
              tokenThreshold: THRESHOLD_TOKENS,
              eventRetentionSize: 6,
              summarizer: new LlmSummarizer({ llm: summaries }),
            }),
          ],
        }
      : {}),
  });
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  const { id: sessionId } = await runner.sessionService.createSession({
    appName: 'app',
    userId: 'u',
  });
  return {
    agentRequests,
    summaryRequests,
    runner,
    sessionId,
    async turn(n) {
      const text = n % 5 === 4 ? `please look up topic ${n}` : `question number ${n}`;
      for await (const _event of runner.runAsync({
        userId: 'u',
        sessionId,
        newMessage: { role: 'user', parts: [{ text }] },
      })) {
        // Read to the end.
      }
      // ScriptedModel keeps every request for tests; here only their sizes are wanted.
      model.requests.length = 0;
      summaries.requests.length = 0;
    },
  };
}
