// An ADK agent whose model is scripted: it answers "You said: <text>" in two
// streamed chunks, so tests see partial events from /run_sse.
import { BaseLlm, LlmAgent } from '@google/adk';

class ScriptedLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted-echo' });
  }
  connect() {
    throw new Error('live mode is not scripted');
  }
  async *generateContentAsync(request, stream) {
    const last = [...request.contents].reverse().find((c) => c.role === 'user');
    const text = (last?.parts ?? []).map((p) => p.text ?? '').join('');
    const answer = `You said: ${text}`;
    if (stream) {
      const half = Math.ceil(answer.length / 2);
      yield { content: { role: 'model', parts: [{ text: answer.slice(0, half) }] }, partial: true };
      yield { content: { role: 'model', parts: [{ text: answer.slice(half) }] }, partial: true };
    }
    yield {
      content: { role: 'model', parts: [{ text: answer }] },
      usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 4, totalTokenCount: 7 },
    };
  }
}

export const rootAgent = new LlmAgent({
  name: 'echo',
  model: new ScriptedLlm(),
  instruction: 'Echo the user.',
});
