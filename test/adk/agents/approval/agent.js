// An ADK agent whose scripted model calls a tool that needs the user's
// confirmation (ADK's `requireConfirmation`): "send 5" asks to send 5 coins,
// and once the tool has run the model reports its result (the tool adds to state `sent` and saves
// a receipt.txt artifact).
import { BaseLlm, FunctionTool, LlmAgent } from '@google/adk';
import { z } from 'zod';

class ScriptedLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted-approval' });
  }
  connect() {
    throw new Error('live mode is not scripted');
  }
  async *generateContentAsync(request) {
    const last = request.contents[request.contents.length - 1];
    const response = (last?.parts ?? []).find((p) => p.functionResponse)?.functionResponse;
    if (response) {
      yield {
        content: { role: 'model', parts: [{ text: `Done: ${JSON.stringify(response.response)}` }] },
      };
      return;
    }
    const text = (last?.parts ?? []).map((p) => p.text ?? '').join('');
    const amount = Number(/send (\d+)/.exec(text)?.[1]);
    if (Number.isFinite(amount)) {
      yield {
        content: {
          role: 'model',
          parts: [{ functionCall: { name: 'send_coins', args: { amount }, id: `call-${amount}` } }],
        },
      };
      return;
    }
    yield { content: { role: 'model', parts: [{ text: 'Say "send <n>" to send coins.' }] } };
  }
}

const sendCoins = new FunctionTool({
  name: 'send_coins',
  description: 'Sends coins.',
  parameters: z.object({ amount: z.number() }),
  requireConfirmation: true,
  execute: async ({ amount }, ctx) => {
    ctx.state.set('sent', (ctx.state.get('sent') ?? 0) + amount);
    await ctx.saveArtifact('receipt.txt', { text: `Sent ${amount} coins.` });
    return { sent: amount };
  },
});

export const rootAgent = new LlmAgent({
  name: 'approval',
  model: new ScriptedLlm(),
  instruction: 'Send coins when asked.',
  tools: [sendCoins],
});
