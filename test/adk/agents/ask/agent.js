// An ADK agent whose scripted model calls a tool that waits for the user: "refund <n>" calls a
// long-running tool (ADK's LongRunningFunctionTool) that answers `{status: 'pending'}` at once and
// is finished by the user's function response. The model reports each response it reads.
import { BaseLlm, LlmAgent, LongRunningFunctionTool } from '@google/adk';
import { z } from 'zod';

class ScriptedLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted-ask' });
  }
  connect() {
    throw new Error('live mode is not scripted');
  }
  async *generateContentAsync(request) {
    const last = request.contents[request.contents.length - 1];
    const response = (last?.parts ?? []).find((p) => p.functionResponse)?.functionResponse;
    if (response) {
      const said = `Got ${response.name}: ${JSON.stringify(response.response)}`;
      yield { content: { role: 'model', parts: [{ text: said }] } };
      return;
    }
    const text = (last?.parts ?? []).map((p) => p.text ?? '').join('');
    const amount = Number(/refund (\d+)/.exec(text)?.[1]);
    const call = { name: 'request_refund', args: { amount }, id: `refund-${amount}` };
    yield {
      content: {
        role: 'model',
        parts: [Number.isFinite(amount) ? { functionCall: call } : { text: 'Say "refund <n>".' }],
      },
    };
  }
}

const requestRefund = new LongRunningFunctionTool({
  name: 'request_refund',
  description: 'Asks a manager for a refund; the answer comes later.',
  parameters: z.object({ amount: z.number() }),
  execute: async ({ amount }) => ({ status: 'pending', amount }),
});

export const rootAgent = new LlmAgent({
  name: 'ask',
  model: new ScriptedLlm(),
  instruction: 'Ask for refunds.',
  tools: [requestRefund],
});
