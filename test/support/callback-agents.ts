// Small agents for the callback tests that run on Trellis alone.

import {
  ScriptedModel,
  functionCallResponse,
  type BaseAgent,
  type Content,
  type LlmRequest,
} from '../../src/index.ts';
import { openRunnerSession, type RunnerSession } from './runner-session.ts';
import { inMemoryKind } from './service-kinds.ts';

/** The agent's Content with this text. */
export const said = (text: string): Content => ({ role: 'model', parts: [{ text }] });

/** A model that calls `tool` once, then reports what it answered. */
export function callingModel(tool: string, args: Record<string, unknown> = {}): ScriptedModel {
  return new ScriptedModel((request: LlmRequest) => {
    const response = request.contents.at(-1)!.parts[0]?.functionResponse;
    if (response) return `result: ${JSON.stringify(response.response)}`;
    return functionCallResponse([tool, args]);
  });
}

/** A runner for `agent` over fresh in-memory services (nothing to close). */
export function openInMemory(agent: BaseAgent, resumable = false): Promise<RunnerSession> {
  return openRunnerSession(inMemoryKind.open(), agent, { resumable });
}
