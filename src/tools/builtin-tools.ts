// The built-in tools an agent made in the app's agent builder can use: session state, artifacts,
// a calculator, the clock, and a question to the user (`ask_user`). Plain FunctionTools over the ToolContext, so they run wherever the
// library runs, and every change they make is logged (state deltas, artifact versions), which is
// what lets rewind undo it.
//
// A call the tool cannot carry out (a bad expression, a missing file) is answered with `{ error }`
// for the model to act on, not thrown: a thrown tool error would end the run.

import { evaluateArithmetic } from './arithmetic.ts';
import type { BaseTool } from './base-tool.ts';
import { FunctionTool } from './function-tool.ts';
import { askUser } from './request-input.ts';

const getState = new FunctionTool<{ key: string }>({
  name: 'get_state',
  description:
    'Reads a value from the session state. Keys starting with user: are shared by all sessions of the user, app: by the whole app.',
  parameters: {
    type: 'object',
    properties: { key: { type: 'string', description: 'The state key, e.g. color' } },
    required: ['key'],
  },
  execute: ({ key }, toolContext) =>
    toolContext.state.has(key)
      ? { key, value: toolContext.state.get(key) }
      : { key, found: false, keys: Object.keys(toolContext.state.toRecord()).sort() },
});

const setState = new FunctionTool<{ key: string; value: string }>({
  name: 'set_state',
  description:
    'Sets a value in the session state (an empty value removes the key). Keys starting with user: are shared by all sessions of the user, app: by the whole app, temp: last for this turn only.',
  parameters: {
    type: 'object',
    properties: {
      key: { type: 'string', description: 'The state key, e.g. color' },
      value: { type: 'string', description: 'The value to store' },
    },
    required: ['key', 'value'],
  },
  execute: ({ key, value }, toolContext) => {
    if (!key.trim()) return { error: 'The key is empty: name the state key to set.' };
    toolContext.state.set(key, value === '' ? undefined : value);
    return value === '' ? { key, removed: true } : { key, value };
  },
});

const saveArtifact = new FunctionTool<{ filename: string; text: string }>({
  name: 'save_artifact',
  description:
    'Saves a text file as an artifact of the session: a new version each time (0, 1, 2, …). Names starting with user: are shared by all sessions of the user.',
  parameters: {
    type: 'object',
    properties: {
      filename: { type: 'string', description: 'e.g. notes.md' },
      text: { type: 'string', description: 'The whole content of the file' },
    },
    required: ['filename', 'text'],
  },
  execute: async ({ filename, text }, toolContext) => {
    if (!filename.trim()) return { error: 'The file name is empty.' };
    const version = await toolContext.saveArtifact(filename, { text });
    return { filename, version };
  },
});

const loadArtifact = new FunctionTool<{ filename: string; version?: number }>({
  name: 'load_artifact',
  description: 'Reads an artifact of the session: its latest version, or the version asked for.',
  parameters: {
    type: 'object',
    properties: {
      filename: { type: 'string' },
      version: { type: 'integer', description: 'A version number; the latest when absent' },
    },
    required: ['filename'],
  },
  execute: async ({ filename, version }, toolContext) => {
    const part = await toolContext.loadArtifact(filename, version);
    if (!part) {
      const files = await toolContext.listArtifacts();
      return {
        error: `There is no artifact ${filename}${version === undefined ? '' : ` version ${version}`}.`,
        files,
      };
    }
    if (part.text !== undefined) return { filename, text: part.text };
    if (part.inlineData) {
      const { mimeType, data } = part.inlineData;
      // Bytes are not text a model can read: say what the file is instead.
      return { filename, mimeType, bytes: Math.floor((data.length * 3) / 4) };
    }
    return { filename, error: 'This artifact holds neither text nor bytes.' };
  },
});

const listArtifacts = new FunctionTool({
  name: 'list_artifacts',
  description: 'Lists the names of the artifacts (files) of the session.',
  execute: async (_args, toolContext) => ({ files: await toolContext.listArtifacts() }),
});

const calculator = new FunctionTool<{ expression: string }>({
  name: 'calculator',
  description: 'Evaluates arithmetic exactly: numbers, + - * / and parentheses, e.g. (2 + 3) * 4.',
  parameters: {
    type: 'object',
    properties: { expression: { type: 'string', description: 'e.g. 6 * 7' } },
    required: ['expression'],
  },
  execute: ({ expression }) => {
    try {
      return { expression, value: evaluateArithmetic(expression) };
    } catch (error) {
      return { expression, error: (error as Error).message };
    }
  },
});

const currentTime = new FunctionTool({
  name: 'current_time',
  description: 'The current date and time: ISO 8601 in UTC, and the user’s time zone.',
  execute: () => ({
    now: new Date().toISOString(),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  }),
});

/** Every built-in tool, in the order the agent builder lists them. */
export const BUILTIN_TOOLS: readonly BaseTool[] = [
  getState,
  setState,
  saveArtifact,
  loadArtifact,
  listArtifacts,
  calculator,
  currentTime,
  askUser,
];

export const BUILTIN_TOOL_NAMES: readonly string[] = BUILTIN_TOOLS.map((tool) => tool.name);

/** The built-in tools of these names, in the order given; an unknown name is a bug here. */
export function builtinTools(names: readonly string[]): BaseTool[] {
  return names.map((name) => {
    const tool = BUILTIN_TOOLS.find((candidate) => candidate.name === name);
    if (!tool) throw new Error(`There is no built-in tool ${name}`);
    return tool;
  });
}
