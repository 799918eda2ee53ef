// An ADK agent whose model is scripted: it answers "You said: <text>" in two
// streamed chunks, so tests see partial events from /run_sse (ten slow ones first when the text
// says "slowly").
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
    if (stream && text.includes('slowly')) {
      // Ten chunks a third of a second apart: time for a test to cut the stream.
      for (let i = 0; i < 10; i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        yield { content: { role: 'model', parts: [{ text: `${i} ` }] }, partial: true };
      }
    }
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
