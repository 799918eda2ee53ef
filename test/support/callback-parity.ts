// Agents with callbacks run on @google/adk 2.0 and on Trellis side by side: each library's own
// LlmAgent, SequentialAgent, FunctionTool and runner, the same scripted model logic, the same
// callbacks; what each session holds at the end is read into the same plain shape to compare.

import * as adk from '@google/adk';
import { expect } from 'vitest';
import * as trellis from '../../src/index.ts';

/** The part of a callback's context both libraries have (ADK's `Context`, Trellis's). */
export interface Ctx {
  state: { get(key: string): unknown; set(key: string, value: unknown): void };
  agentName: string;
  invocationId: string;
  userContent?: { parts?: { text?: string }[] } | undefined;
}

export interface Part {
  text?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name?: string; response?: Record<string, unknown> };
}
export interface Content {
  role?: string;
  parts?: Part[];
}
export interface Response {
  content?: Content;
  partial?: boolean;
}
export interface Request {
  contents: Content[];
  /** Trellis's system instruction. */
  systemInstruction?: string;
  /** ADK's. */
  config?: { systemInstruction?: unknown };
}

/** The model's logic: the response to a request (a list for a stream: chunks, then the whole). */
export type Script = (request: Request) => Response | Response[];

/** What each library builds a test's agents with. */
export interface Lib {
  name: 'adk' | 'trellis';
  LlmAgent: new (options: Record<string, unknown>) => unknown;
  SequentialAgent: new (options: Record<string, unknown>) => unknown;
  Workflow: new (options: { name: string; edges: unknown[] }) => unknown;
  /** A tool taking `{ city: string }`. */
  cityTool(name: string, execute: (args: { city: string }) => unknown): unknown;
  model(script: Script): unknown;
  /** Each library's own plugin base class (a test's plugins extend it). */
  BasePlugin: abstract new (name: string) => object;
  GlobalInstructionPlugin: new (instruction: string) => object;
}

class AdkScripted extends adk.BaseLlm {
  constructor(private readonly script: Script) {
    super({ model: 'scripted' });
  }
  connect(): never {
    throw new Error('not live');
  }
  async *generateContentAsync(request: unknown, stream?: boolean) {
    yield* responsesOf(this.script(request as Request), stream);
  }
}

class TrellisScripted extends trellis.BaseLlm {
  constructor(private readonly script: Script) {
    super('scripted');
  }
  async *generateContentAsync(request: trellis.LlmRequest, stream?: boolean) {
    yield* responsesOf(
      this.script(request as never),
      stream,
    ) as AsyncGenerator<trellis.LlmResponse>;
  }
}

async function* responsesOf(answer: Response | Response[], stream: boolean | undefined) {
  for (const response of Array.isArray(answer) ? answer : [answer])
    if (stream || !response.partial) yield structuredClone(response);
}

/** The classes both libraries have under the same names. */
const classesOf = (lib: typeof adk | typeof trellis) => ({
  LlmAgent: lib.LlmAgent as never,
  SequentialAgent: lib.SequentialAgent as never,
  Workflow: lib.Workflow as never,
});

export const ADK: Lib = {
  name: 'adk',
  ...classesOf(adk),
  cityTool: (name, execute) =>
    new adk.FunctionTool({
      name,
      description: `${name} for a city`,
      parameters: { type: 'OBJECT', properties: { city: { type: 'STRING' } } } as never,
      execute: execute as never,
    }),
  model: (script) => new AdkScripted(script),
  BasePlugin: adk.BasePlugin as never,
  GlobalInstructionPlugin: adk.GlobalInstructionPlugin as never,
};

export const TRELLIS: Lib = {
  name: 'trellis',
  ...classesOf(trellis),
  cityTool: (name, execute) =>
    new trellis.FunctionTool({
      name,
      description: `${name} for a city`,
      parameters: { type: 'object', properties: { city: { type: 'string' } } },
      execute: (args: { city: string }) => execute(args),
    }),
  model: (script) => new TrellisScripted(script),
  BasePlugin: trellis.BasePlugin as never,
  GlobalInstructionPlugin: trellis.GlobalInstructionPlugin as never,
};

/** One event as both libraries' sessions hold it, in the terms a test compares. */
export interface Held {
  author: string;
  text?: string;
  calls?: string[];
  responses?: string[];
  stateDelta?: Record<string, unknown>;
  /** A workflow node's output (ADK 2.0's). */
  output?: unknown;
  /** A context compaction's summary (see compaction-parity.ts). */
  summary?: string;
}

export interface Session {
  events: Held[];
  state: Record<string, unknown>;
}

export function held(event: {
  author?: string;
  content?: Content;
  actions?: { stateDelta?: Record<string, unknown> };
  output?: unknown;
}): Held {
  const parts = event.content?.parts ?? [];
  const texts = parts.flatMap((part) => (part.text === undefined ? [] : [part.text]));
  const calls = parts.flatMap(({ functionCall: call }) =>
    call ? [`${call.name}(${JSON.stringify(call.args ?? {})})`] : [],
  );
  const responses = parts.flatMap(({ functionResponse: response }) =>
    response ? [`${response.name} → ${JSON.stringify(response.response)}`] : [],
  );
  const delta = event.actions?.stateDelta ?? {};
  return {
    author: event.author ?? '',
    ...(texts.length > 0 ? { text: texts.join('') } : {}),
    ...(calls.length > 0 ? { calls } : {}),
    ...(responses.length > 0 ? { responses } : {}),
    ...(Object.keys(delta).length > 0 ? { stateDelta: { ...delta } } : {}),
    ...(event.output !== undefined ? { output: event.output } : {}),
  };
}

export interface RunOptions {
  streaming?: boolean;
  /** The runner's plugins, built with the library's own BasePlugin. */
  plugins?: (lib: Lib) => unknown[];
  /** What of the sessions is compared (all of them when absent). */
  compare?: (session: Session) => unknown;
  /** How a stored event is read (`held` when absent). */
  read?: (event: never) => Held;
}

/** The system instruction a model was sent (Trellis's field, or ADK's config). */
export function systemOf(request: Request): string {
  const instruction = request.systemInstruction ?? request.config?.systemInstruction;
  return typeof instruction === 'string' ? instruction : JSON.stringify(instruction ?? '');
}

/** Runs `agent` on each message in turn (with the library's own runner) and reads the session. */
export async function runOn(
  lib: Lib,
  agent: unknown,
  messages: readonly string[],
  options: RunOptions = {},
): Promise<Session> {
  const plugins = (options.plugins?.(lib) ?? []) as never[];
  const runner =
    lib.name === 'adk'
      ? new adk.InMemoryRunner({ agent: agent as adk.BaseAgent, appName: 'app', plugins })
      : new trellis.InMemoryRunner({ agent: agent as trellis.BaseAgent, appName: 'app', plugins });
  const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
  for (const text of messages) {
    const run = runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text }] },
      ...(options.streaming ? { runConfig: { streamingMode: 'sse' as never } } : {}),
    } as never);
    for await (const _event of run as AsyncIterable<unknown>) {
      // Read to the end: the session is what is compared.
    }
  }
  const stored = await runner.sessionService.getSession({
    appName: 'app',
    userId: 'u',
    sessionId: session.id,
  });
  return {
    events: (stored!.events as never[]).map(options.read ?? held),
    state: { ...stored!.state },
  };
}

/**
 * Builds the agents with each library and runs both on the same messages; what the two sessions
 * hold must be the same. Returns Trellis's, for the test to pin.
 */
export async function sideBySide(
  build: (lib: Lib) => unknown,
  messages: readonly string[],
  options: RunOptions = {},
): Promise<Session> {
  const theirs = await runOn(ADK, build(ADK), messages, options);
  const ours = await runOn(TRELLIS, build(TRELLIS), messages, options);
  const compared = options.compare ?? ((session: Session) => session);
  expect(compared(ours)).toEqual(compared(theirs));
  return ours;
}

/** The agent most tests use: it answers about the weather with `get_weather` (see weatherScript). */
export function weatherAgent(lib: Lib, callbacks: Record<string, unknown>, ran: string[] = []) {
  return new lib.LlmAgent({
    name: 'forecaster',
    model: lib.model(weatherScript),
    instruction: 'Answer about the weather.',
    tools: [
      lib.cityTool('get_weather', ({ city }) => {
        ran.push(city);
        return { city, sky: 'sunny' };
      }),
    ],
    ...callbacks,
  });
}

/** A model's text answer. */
export function text(said: string): Response {
  return { content: { role: 'model', parts: [{ text: said }] } };
}

/** A Content of the agent's (what agent callbacks return). */
export function modelContent(said: string): Content {
  return { role: 'model', parts: [{ text: said }] };
}

/** The text of the last user content of a request (ADK's and Trellis's "For context:" included). */
export function lastUserText(request: Request): string {
  const last = [...request.contents].reverse().find((content) => content.role === 'user');
  return (last?.parts ?? []).map((part) => part.text ?? '').join('');
}

/**
 * The scripted model most tests use: "weather in X" calls get_weather for X; a tool's response
 * is reported back; anything else is echoed.
 */
export const weatherScript: Script = (request) => {
  const last = request.contents.at(-1);
  const response = last?.parts?.find((part) => part.functionResponse)?.functionResponse;
  if (response) return text(`${response.name} says ${JSON.stringify(response.response)}`);
  const said = lastUserText(request);
  const city = /weather in (\w+)/.exec(said)?.[1];
  if (city) {
    return {
      content: {
        role: 'model',
        parts: [{ functionCall: { id: 'call-1', name: 'get_weather', args: { city } } }],
      },
    };
  }
  return text(`heard: ${said}`);
};
