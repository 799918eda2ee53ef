// One-line descriptions of events, so that tests compare whole sequences at a glance.

import { textOf, type Event } from '../../src/index.ts';

/** `author: what`, where what is `state {…}`, `end`, `call name`, `response name`, `"text"`, … */
export function describeEvent(event: Event): string {
  const parts: string[] = [];
  const { agentState, endOfAgent, transferToAgent, escalate } = event.actions;
  const { rewindBeforeInvocationId, rewindAfterEventId } = event.actions;
  if (rewindBeforeInvocationId) parts.push(`rewind ${rewindBeforeInvocationId}`);
  if (rewindAfterEventId) parts.push(`rewind after ${rewindAfterEventId}`);
  if (agentState) parts.push(`state ${JSON.stringify(agentState)}`);
  if (endOfAgent) parts.push('end');
  for (const part of event.content?.parts ?? []) {
    if (part.functionCall) parts.push(`call ${part.functionCall.name}`);
    else if (part.functionResponse) parts.push(`response ${part.functionResponse.name}`);
    else if (part.text !== undefined && !part.thought) parts.push(JSON.stringify(part.text));
  }
  if (transferToAgent) parts.push(`→ ${transferToAgent}`);
  if (escalate) parts.push('escalate');
  if (event.errorCode) parts.push(`error ${event.errorCode}`);
  if (event.partial) parts.push('(partial)');
  return `${event.author}: ${parts.join(' ') || '(nothing)'}`;
}

export const describeEvents = (events: readonly Event[]) => events.map(describeEvent);

/** The text of an event, for short asserts. */
export const textOfEvent = (event: Event) => textOf(event.content);
