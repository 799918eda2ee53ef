// The state keeper: a demo agent on the offline rule model that sets and reads session state and
// saves artifacts from plain commands.

import { LlmAgent } from '../agents/llm-agent.ts';
import {
  DemoModel,
  callFunction,
  lastToolResponse,
  lastUserMessage,
} from '../models/demo-model.ts';
import { FunctionTool } from '../tools/function-tool.ts';

export const STATE_KEEPER_HELP =
  'I am the offline demo state keeper (rules, not an LLM). Try: "set color to red", ' +
  '"what is color", "unset color", or "save todo.txt as buy milk".';

const RULES: [RegExp, (m: RegExpMatchArray) => ReturnType<typeof callFunction>][] = [
  [/^set\s+(\S+)\s+to\s+(.+?)\.?$/i, (m) => callFunction('set_state', { key: m[1], value: m[2] })],
  [/^unset\s+(\S+?)\.?$/i, (m) => callFunction('unset_state', { key: m[1] })],
  [/^what\s+is\s+(\S+?)\s*\??$/i, (m) => callFunction('get_state', { key: m[1] })],
  [
    /^save\s+(\S+)\s+as\s+(.+)$/i,
    (m) => callFunction('save_artifact', { filename: m[1], text: m[2] }),
  ],
];

const keyParam = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] };

export function createStateKeeper(
  options: { chunkDelayMs?: number; thinkMs?: number } = {},
): LlmAgent {
  const setState = new FunctionTool({
    name: 'set_state',
    description: 'Sets a session state key',
    parameters: {
      type: 'object',
      properties: { key: { type: 'string' }, value: { type: 'string' } },
      required: ['key', 'value'],
    },
    execute: ({ key, value }: { key: string; value: string }, ctx) => {
      ctx.state.set(key, value);
      return { message: `${key} is now ${value}.` };
    },
  });
  const unsetState = new FunctionTool({
    name: 'unset_state',
    description: 'Removes a session state key',
    parameters: keyParam,
    execute: ({ key }: { key: string }, ctx) => {
      if (!ctx.state.has(key)) return { message: `${key} was not set.` };
      ctx.state.set(key, null);
      return { message: `${key} is no longer set.` };
    },
  });
  const getState = new FunctionTool({
    name: 'get_state',
    description: 'Reads a session state key',
    parameters: keyParam,
    execute: ({ key }: { key: string }, ctx) => {
      const value = ctx.state.get(key);
      return {
        message: value === undefined ? `${key} is not set.` : `${key} is ${JSON.stringify(value)}.`,
      };
    },
  });
  const saveText = new FunctionTool({
    name: 'save_artifact',
    description: 'Saves a text file as an artifact',
    parameters: {
      type: 'object',
      properties: { filename: { type: 'string' }, text: { type: 'string' } },
      required: ['filename', 'text'],
    },
    execute: async ({ filename, text }: { filename: string; text: string }, ctx) => {
      const version = await ctx.saveArtifact(filename, { text });
      return { message: `Saved ${filename} (version ${version}).` };
    },
  });
  const model = new DemoModel({
    ...options,
    answer: (request) => {
      const toolResponse = lastToolResponse(request);
      if (toolResponse) {
        const { message } = toolResponse.response;
        return typeof message === 'string' ? message : JSON.stringify(toolResponse.response);
      }
      const { text } = lastUserMessage(request);
      for (const [pattern, call] of RULES) {
        const match = text.trim().match(pattern);
        if (match) return call(match);
      }
      return STATE_KEEPER_HELP;
    },
  });
  return new LlmAgent({
    name: 'state_keeper',
    description: 'Offline demo: keeps session state and notes from plain commands.',
    model,
    tools: [setState, unsetState, getState, saveText],
  });
}
