// @google/adk: the same agent and tool on ADK's InMemoryRunner, with a zero-latency BaseLlm.

import {
  BaseLlm,
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  type BaseLlmConnection,
  type LlmRequest,
  type LlmResponse,
} from '@google/adk';
import { z } from 'zod';
import {
  FINAL_ANSWER,
  TOOL_ARGS,
  TOOL_DESCRIPTION,
  TOOL_NAME,
  add,
  userMessage,
  type Contender,
} from './turn-shape.ts';

const userId = 'bench';

/** Answers like Trellis's ScriptedModel in the benchmark: a tool call, then the final text. */
class InstantModel extends BaseLlm {
  constructor() {
    super({ model: 'instant' });
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const answered =
      request.contents.at(-1)?.parts?.some((part) => part.functionResponse !== undefined) ?? false;
    yield answered
      ? { content: { role: 'model', parts: [{ text: FINAL_ANSWER }] } }
      : {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: TOOL_NAME, args: { ...TOOL_ARGS } } }],
          },
        };
  }

  override connect(): Promise<BaseLlmConnection> {
    throw new Error('InstantModel has no live connection');
  }
}

export const adkInMemory: Contender = {
  name: '@google/adk InMemoryRunner',
  async open() {
    const tool = new FunctionTool({
      name: TOOL_NAME,
      description: TOOL_DESCRIPTION,
      parameters: z.object({ a: z.number(), b: z.number() }),
      execute: add,
    });
    const agent = new LlmAgent({ name: 'calc', model: new InstantModel(), tools: [tool] });
    const runner = new InMemoryRunner({ agent, appName: 'bench' });
    const session = await runner.sessionService.createSession({ appName: 'bench', userId });
    return {
      async turn(turn) {
        let answer = '';
        for await (const event of runner.runAsync({
          userId,
          sessionId: session.id,
          newMessage: { role: 'user', parts: [{ text: userMessage(turn) }] },
        }))
          answer = event.content?.parts?.find((part) => part.text)?.text ?? answer;
        return answer;
      },
    };
  },
};
