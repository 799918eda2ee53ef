// What a node run produced (`{{output}}`), read back from its events so that a resumed run
// gets the same answer as an uninterrupted one.

import { functionCallsOf, functionResponsesOf, textOf } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { runStartIndex } from './flow-events.ts';
import type { FlowNode } from './flow.ts';
import { matchScenario } from './scenarios.ts';
import { parseStructuredOutput } from './structured-output.ts';
import { subflowAnswer } from './subflow.ts';
import { retrievedText } from './knowledge-steps.ts';

/**
 * - agent: its final answer text;
 * - llm: the parsed JSON object with structured output, else its text (nothing when it asked
 *   for tools instead);
 * - conditionAgent: the scenario its answer names;
 * - tool: the tool's result (`{result}` unwrapped), or a list of `{ name, response }` for
 *   several calls;
 * - retriever: its sources as text (knowledge-steps.ts).
 */
export function nodeOutput(
  node: FlowNode,
  events: readonly Event[],
  flowName: string,
  branch: string | undefined,
): unknown {
  if (node.type === 'subflow') return subflowAnswer(events, flowName, node.id, branch);
  const own = runEvents(events, node.id, flowName, branch);
  if (node.type === 'tool' || node.type === 'toolCall' || node.type === 'retriever') {
    const responses = own.flatMap((event) => functionResponsesOf(event.content));
    const latest = new Map(responses.map((response) => [response.id ?? response.name, response]));
    const answers = [...latest.values()];
    if (answers.length === 0) return undefined;
    if (node.type === 'retriever') return retrievedText(answers[0]!.response, node.format);
    if (answers.length > 1)
      return answers.map(({ name, response }) => ({ name, response: unwrap(response) }));
    return unwrap(answers[0]!.response);
  }
  const reply = own.findLast(
    (event) => event.content?.role === 'model' && functionCallsOf(event.content).length === 0,
  );
  const text = reply ? textOf(reply.content) : undefined;
  if (text === undefined) return undefined;
  switch (node.type) {
    case 'llm': {
      if (!node.output?.length) return text;
      const parsed = parseStructuredOutput(text, node.output);
      return parsed.ok ? parsed.value : undefined;
    }
    case 'conditionAgent':
      return matchScenario(text, node.scenarios);
    default:
      return text;
  }
}

/** Whether a tool node's latest run answered any call (one with none to run passes, or ends). */
export function ranCalls(
  node: FlowNode,
  events: readonly Event[],
  flowName: string,
  branch: string | undefined,
): boolean {
  return runEvents(events, node.id, flowName, branch).some(
    (event) => functionResponsesOf(event.content).length > 0,
  );
}

/** The node's events since the flow's latest checkpoint for it on `branch`. */
function runEvents(
  events: readonly Event[],
  nodeId: string,
  flowName: string,
  branch: string | undefined,
): Event[] {
  return events
    .slice(runStartIndex(events, flowName, nodeId, branch) + 1)
    .filter((event) => event.author === nodeId && event.branch === branch && !event.partial);
}

function unwrap(response: Record<string, unknown>): unknown {
  const keys = Object.keys(response);
  return keys.length === 1 && keys[0] === 'result' ? response['result'] : response;
}
