// An ADK agent that serves hostile data, for the XSS tests of Trellis as an ADK server's UI:
// its answer, a tool call's arguments and result, state keys and values, and artifacts of type
// HTML and SVG all carry markup that would run if the page made it live. Anything it makes run
// calls `__xss()`, which the tests trap.
import { BaseLlm, FunctionTool, LlmAgent } from '@google/adk';
import { z } from 'zod';

export const PAYLOAD = '<img src=x onerror=__xss()><svg onload=__xss()></svg>';
// A file name can hold no slash (the artifact routes take it as one path segment).
export const FILE_NAME = '<img src=x onerror=__xss()>.txt';

class ScriptedLlm extends BaseLlm {
  constructor() {
    super({ model: 'scripted-hostile' });
  }
  connect() {
    throw new Error('live mode is not scripted');
  }
  async *generateContentAsync(request) {
    const last = request.contents[request.contents.length - 1];
    if ((last?.parts ?? []).some((p) => p.functionResponse)) {
      yield {
        content: {
          role: 'model',
          parts: [{ text: `Saved. ${PAYLOAD} <b onmouseover=__xss()>hover</b>` }],
        },
      };
      return;
    }
    yield {
      content: {
        role: 'model',
        parts: [
          { functionCall: { name: 'save_files', args: { note: PAYLOAD }, id: 'call-hostile' } },
        ],
      },
    };
  }
}

const base64 = (text) => Buffer.from(text, 'utf8').toString('base64');

const saveFiles = new FunctionTool({
  name: 'save_files',
  description: 'Saves hostile files.',
  parameters: z.object({ note: z.string() }),
  execute: async ({ note }, ctx) => {
    ctx.state.set(PAYLOAD, note);
    ctx.state.set('html', `<iframe src="javascript:__xss()"></iframe>${note}`);
    await ctx.saveArtifact('page.html', {
      inlineData: {
        mimeType: 'text/html',
        data: base64(`<html><body onload="__xss()"><script>__xss()</script>${note}</body></html>`),
      },
    });
    await ctx.saveArtifact('image.svg', {
      inlineData: {
        mimeType: 'image/svg+xml',
        data: base64(
          `<svg xmlns="http://www.w3.org/2000/svg" onload="__xss()"><script>__xss()</script></svg>`,
        ),
      },
    });
    await ctx.saveArtifact(FILE_NAME, { text: note });
    return { saved: 3, echo: note };
  },
});

export const rootAgent = new LlmAgent({
  name: 'hostile',
  model: new ScriptedLlm(),
  instruction: 'Save hostile files.',
  tools: [saveFiles],
});
