// The state keeper: a demo agent on the offline rule model that sets and reads session state and
// saves artifacts from plain commands.

import { LlmAgent } from '../agents/llm-agent.ts';
import { DemoModel } from '../models/demo-model.ts';
import { FunctionTool } from '../tools/function-tool.ts';

const HELP =
  'I am the offline demo state keeper (rules, not an LLM). Try: "set color to red", ' +
  '"what is color", "unset color", or "save todo.txt as buy milk".';

const keyParam = { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] };

export function createStateKeeper(options: { chunkDelayMs?: number } = {}): LlmAgent {
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
  const call = (name: string, args: Record<string, unknown>) => ({
    content: { role: 'model' as const, parts: [{ functionCall: { name, args } }] },
  });
  const model = new DemoModel({
    fallback: HELP,
    ...(options.chunkDelayMs !== undefined ? { chunkDelayMs: options.chunkDelayMs } : {}),
    rules: [
      {
        pattern: /^set\s+(\S+)\s+to\s+(.+?)\.?$/i,
        answer: (m) => call('set_state', { key: m[1], value: m[2] }),
      },
      { pattern: /^unset\s+(\S+?)\.?$/i, answer: (m) => call('unset_state', { key: m[1] }) },
      { pattern: /^what\s+is\s+(\S+?)\s*\??$/i, answer: (m) => call('get_state', { key: m[1] }) },
      {
        pattern: /^save\s+(\S+)\s+as\s+(.+)$/i,
        answer: (m) => call('save_artifact', { filename: m[1], text: m[2] }),
      },
    ],
  });
  return new LlmAgent({
    name: 'state_keeper',
    description: 'Offline demo: keeps session state and notes from plain commands.',
    model,
    tools: [setState, unsetState, getState, saveText],
  });
}
