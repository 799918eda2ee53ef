// Shared pieces of the flow tests: a scripted model that answers by node, tools, and the
// flow events of a run in short form.

import {
  FunctionTool,
  InMemoryRunner,
  type Flow,
  ScriptedModel,
  textOf,
  type BaseAgent,
  type Event,
  type LlmRequest,
  type LlmResponse,
} from '../../src/index.ts';
import { collect, userMessage } from './helpers.ts';

/** The node a request comes from (its agent name, from the system instruction). */
export function nodeOf(request: LlmRequest): string {
  return /Your internal name is "([^"]+)"/.exec(request.systemInstruction ?? '')?.[1] ?? '?';
}

export type NodeAnswers = Record<
  string,
  (request: LlmRequest, call: number) => LlmResponse | string
>;

/** A model that answers each node by its own rule; `calls` counts model calls per node. */
export function nodeModel(answers: NodeAnswers): ScriptedModel & { calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const model = new ScriptedModel((request: LlmRequest) => {
    const node = nodeOf(request);
    const count = (calls.get(node) ?? 0) + 1;
    calls.set(node, count);
    const answer = answers[node];
    if (!answer) throw new Error(`No answer for node ${node}`);
    const reply = answer(request, count);
    return typeof reply === 'string'
      ? { content: { role: 'model', parts: [{ text: reply }] } }
      : reply;
  }) as ScriptedModel & { calls: Map<string, number> };
  model.calls = calls;
  return model;
}

export function call(name: string, args: Record<string, unknown> = {}): LlmResponse {
  return { content: { role: 'model', parts: [{ functionCall: { name, args } }] } };
}

/** A tool that records each run. */
export function recordingTool(name: string, result: (args: Record<string, unknown>) => unknown) {
  const runs: Record<string, unknown>[] = [];
  const tool = new FunctionTool({
    name,
    description: `The ${name} tool`,
    execute: (args) => {
      runs.push(args);
      return result(args);
    },
  });
  return { tool, runs };
}

/** The nodes a run went through, from the flow's checkpoints: `node` or `node@branch`. */
export function nodePath(events: readonly Event[]): string[] {
  return events.flatMap((event) => {
    const node = event.actions.agentState?.['current_node'];
    if (typeof node !== 'string') return [];
    return [event.branch ? `${node}@${event.branch}` : node];
  });
}

/** The texts the nodes said, as `author: text`. */
export function replies(events: readonly Event[]): string[] {
  return events
    .filter((event) => !event.partial && event.author !== 'user' && textOf(event.content))
    .map((event) => `${event.author}: ${textOf(event.content)}`);
}

/** start → b and c at once; c → e; b and e → d (a join) → end. */
export const FAN_FLOW: Flow = {
  name: 'fan',
  state: [{ key: 'notes', operation: 'append', default: [] }],
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'b', type: 'agent', instruction: 'B', updateState: { notes: '{{output}}' } },
    { id: 'c', type: 'agent', instruction: 'C', updateState: { notes: '{{output}}' } },
    { id: 'e', type: 'agent', instruction: 'E', updateState: { notes: '{{output}}' } },
    { id: 'd', type: 'agent', instruction: 'D' },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'b' },
    { from: 'start', to: 'c' },
    { from: 'b', to: 'd' },
    { from: 'c', to: 'e' },
    { from: 'e', to: 'd' },
    { from: 'd', to: 'end' },
  ],
};

const FLOW_USER = 'ada';

/** Runs a flow agent on a resumable in-memory runner, a turn per message. */
export async function runFlow(agent: BaseAgent, ...messages: string[]) {
  const runner = new InMemoryRunner({ agent, resumabilityConfig: { isResumable: true } });
  const session = await runner.sessionService.createSession({
    appName: runner.appName,
    userId: FLOW_USER,
  });
  const turns: Event[][] = [];
  for (const text of messages) {
    turns.push(
      await collect(
        runner.runAsync({
          userId: FLOW_USER,
          sessionId: session.id,
          newMessage: userMessage(text),
        }),
      ),
    );
  }
  const stored = await runner.sessionService.getSession({
    appName: runner.appName,
    userId: FLOW_USER,
    sessionId: session.id,
  });
  return { runner, turns, state: stored!.state, events: stored!.events };
}
