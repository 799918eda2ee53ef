// The conversation an LlmAgent sends to its model, built from the active events of the session.

import type { Content, FunctionResponse, Part } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { isAgentToolRequest, isOnBranch } from './agent-tool-branches.ts';
import { REQUEST_CONFIRMATION_FUNCTION } from './confirmation.ts';

export { isOnBranch };

export interface ContentsOptions {
  /** `'none'`: only the current turn (from the last message of the user or another agent). */
  includeContents?: 'default' | 'none';
}

/**
 * The contents for the model of agent `agentName`, from the active events:
 * - only events with content, on the agent's branch, and no confirmation requests or answers;
 * - other agents' messages become user messages that start with "For context:" (not an agent
 *   tool's request: it is the user's message of the tool's run, see agent-tool-branches.ts);
 * - an answer to an older call ends the conversation right after that call;
 * - every function call is followed by the latest response to it, and calls that were never
 *   answered (a tool that failed, a run that was cut off) are left out, as are responses
 *   without their call: model APIs reject both.
 */
export function buildContents(
  events: readonly Event[],
  agentName: string,
  branch: string | undefined,
  options: ContentsOptions = {},
): Content[] {
  const all = events.filter((event) => isVisible(event, branch));
  const isOtherAgent = otherAgentTest(all, agentName);
  const latestResponse = new Map<string, FunctionResponse>();
  for (const event of all) {
    if (isOtherAgent(event)) continue;
    for (const part of event.content!.parts) {
      const response = part.functionResponse;
      if (response?.id !== undefined) latestResponse.set(response.id, response);
    }
  }
  let visible = withLateAnswerInPlace(all);
  if (options.includeContents === 'none') {
    // A user's answer to a call (a confirmation, a long-running tool) does not start a turn.
    const start = findLastIndex(
      visible,
      (event) =>
        event.author !== agentName &&
        !(event.author === 'user' && event.content!.parts.every((part) => part.functionResponse)),
    );
    visible = start < 0 ? [] : visible.slice(start);
  }

  const contents: Content[] = [];
  for (const event of visible) {
    if (isOtherAgent(event)) {
      const parts = rephrase(event);
      if (parts.length > 1) contents.push({ role: 'user', parts });
      continue;
    }
    const parts: Part[] = [];
    const responses: Part[] = [];
    for (const part of event.content!.parts) {
      if (part.functionResponse) continue; // placed right after its call
      const call = part.functionCall;
      if (call) {
        const response = call.id === undefined ? undefined : latestResponse.get(call.id);
        if (!response) continue;
        parts.push(part);
        responses.push({ functionResponse: response });
        continue;
      }
      parts.push(part);
    }
    if (parts.length > 0) contents.push({ role: event.content!.role, parts });
    if (responses.length > 0) contents.push({ role: 'user', parts: responses });
  }
  return contents;
}

/**
 * When the conversation ends with an answer to an older call (a long-running tool answered
 * after other turns), the model continues from that call (as ADK): what came in between is left
 * out of this request, and the latest answers follow the call.
 */
function withLateAnswerInPlace(visible: Event[]): Event[] {
  const last = visible.at(-1);
  const id = last?.content?.parts.find((part) => part.functionResponse?.id !== undefined)
    ?.functionResponse?.id;
  if (id === undefined) return visible;
  const callIndex = visible.findLastIndex((event) =>
    event.content!.parts.some((part) => part.functionCall?.id === id),
  );
  if (callIndex < 0 || callIndex >= visible.length - 2) return visible;
  return [...visible.slice(0, callIndex + 1), last!];
}

/** Whether an event takes part in the contents at all (buildContents' first filter). */
export function isVisible(event: Event, branch: string | undefined): boolean {
  const parts = event.content?.parts;
  if (!parts || parts.length === 0 || event.partial) return false;
  if (parts.length === 1 && parts[0]!.text === '') return false;
  if (!isOnBranch(branch, event.branch)) return false;
  return !parts.some(
    (part) =>
      part.functionCall?.name === REQUEST_CONFIRMATION_FUNCTION ||
      part.functionResponse?.name === REQUEST_CONFIRMATION_FUNCTION,
  );
}

/**
 * Whether an event is another agent's words. An event that only answers this agent's own calls
 * counts as the agent's (a flow's tool node runs the calls its llm node made), so the call and
 * its response stay a pair the model API accepts.
 */
function otherAgentTest(events: readonly Event[], agentName: string): (event: Event) => boolean {
  const ownCalls = new Set<string>();
  for (const event of events) {
    if (event.author !== agentName) continue;
    for (const part of event.content!.parts)
      if (part.functionCall?.id !== undefined) ownCalls.add(part.functionCall.id);
  }
  return (event) =>
    event.author !== 'user' &&
    event.author !== agentName &&
    !isAgentToolRequest(event) &&
    !event.content!.parts.every(
      (part) => part.functionResponse?.id !== undefined && ownCalls.has(part.functionResponse.id),
    );
}

/** Another agent's message, told to this agent as context. */
export function rephrase(event: Event): Part[] {
  const parts: Part[] = [{ text: 'For context:' }];
  for (const part of event.content!.parts) {
    if (part.thought) continue;
    if (part.text) parts.push({ text: `[${event.author}] said: ${part.text}` });
    else if (part.functionCall) {
      const { name, args } = part.functionCall;
      parts.push({
        text: `[${event.author}] called tool \`${name}\` with parameters: ${JSON.stringify(args)}`,
      });
    } else if (part.functionResponse) {
      const { name, response } = part.functionResponse;
      parts.push({
        text: `[${event.author}] \`${name}\` tool returned result: ${JSON.stringify(response)}`,
      });
    } else if (part.inlineData) parts.push(part);
  }
  return parts;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i]!)) return i;
  return -1;
}
