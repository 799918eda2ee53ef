// Which of an invocation's events a span produced, for its details: a model call's answer and
// what it was sent, a tool call's call and response, a wait's question and answer, an agent's
// own events. Pure: the events come with the trace (workers/traces.ts).

import { functionCallsOf, functionResponsesOf } from '../../core/content.ts';
import type { Event } from '../../core/event.ts';
import type { SpanRecord } from '../../tracing/span.ts';

/** One event as the details list it: who wrote it and its content as plain text. */
export interface EventLine {
  id: string;
  author: string;
  text: string;
}

export interface EventSection {
  title: string;
  /** Said above the list (how many contents a model call was sent, say). */
  note?: string;
  events: EventLine[];
}

/** The events `span` produced or answered, in sections; none for a span that names none. */
export function spanEventSections(span: SpanRecord, events: readonly Event[]): EventSection[] {
  const stored = events.filter((event) => !event.partial);
  const eventId = stringAttribute(span, 'trellis.event_id');
  const callId = stringAttribute(span, 'gen_ai.tool.call.id');
  switch (span.kind) {
    case 'model': {
      const answer = eventId ? stored.find((event) => event.id === eventId) : undefined;
      // What it was sent: this invocation's events before its answer (or before it started,
      // when it failed without one) on its branch. Earlier turns' events are counted, not listed.
      const branch = answer?.branch ?? span.branch;
      const before = answer
        ? stored.slice(0, stored.indexOf(answer))
        : stored.filter((event) => event.timestamp <= span.startTime);
      const sent = before.filter((event) => onBranch(event, branch) && hasContent(event));
      const contents = span.attributes['trellis.contents'];
      return [
        section('Response', answer ? [answer] : []),
        {
          ...section('Request', sent),
          note:
            typeof contents === 'number'
              ? `${contents} ${contents === 1 ? 'content' : 'contents'} sent (${sent.length} from this turn, listed)`
              : `${sent.length} of this turn's events sent`,
        },
      ].filter((part) => part.events.length > 0 || part.note);
    }
    case 'tool':
      return callId
        ? [
            section(
              'Call',
              stored.filter((event) => functionCallsOf(event.content).some((c) => c.id === callId)),
            ),
            section('Response', respondingTo(stored, callId)),
          ].filter((part) => part.events.length > 0)
        : [];
    case 'wait':
      return [
        section('Asked', eventId ? stored.filter((event) => event.id === eventId) : []),
        section('Answer', callId ? respondingTo(stored, callId) : []),
      ].filter((part) => part.events.length > 0);
    case 'agent': {
      const name = stringAttribute(span, 'gen_ai.agent.name');
      // Its own events while it ran (an agent in a loop has one span per round). Event times are
      // whole milliseconds, span times finer: the window is widened to whole milliseconds.
      const from = Math.floor(span.startTime);
      const to = span.endTime === undefined ? Infinity : Math.ceil(span.endTime);
      return [
        section(
          'Its events',
          stored.filter(
            (event) => event.author === name && event.timestamp >= from && event.timestamp <= to,
          ),
        ),
      ].filter((part) => part.events.length > 0);
    }
    case 'node': {
      // The events of its node run: those at its path while it ran (one span per attempt).
      const path = stringAttribute(span, 'trellis.node.path');
      const from = Math.floor(span.startTime);
      const to = span.endTime === undefined ? Infinity : Math.ceil(span.endTime);
      return [
        section(
          'Its events',
          stored.filter(
            (event) =>
              path !== undefined &&
              event.nodeInfo?.path === path &&
              event.timestamp >= from &&
              event.timestamp <= to,
          ),
        ),
      ].filter((part) => part.events.length > 0);
    }
    case 'invocation':
      return [
        section('Message', stored.filter((event) => event.author === 'user').slice(0, 1)),
      ].filter((part) => part.events.length > 0);
  }
}

function section(title: string, events: readonly Event[]): EventSection {
  return { title, events: events.map(eventLine) };
}

function respondingTo(events: readonly Event[], callId: string): Event[] {
  return events.filter((event) =>
    functionResponsesOf(event.content).some((response) => response.id === callId),
  );
}

/** ADK's rule for what a branch sees: its own events, its ancestors', and those of no branch. */
function onBranch(event: Event, branch: string | undefined): boolean {
  return (
    !branch || !event.branch || event.branch === branch || branch.startsWith(`${event.branch}.`)
  );
}

function hasContent(event: Event): boolean {
  return (event.content?.parts.length ?? 0) > 0;
}

function stringAttribute(span: SpanRecord, key: string): string | undefined {
  const value = span.attributes[key];
  return typeof value === 'string' ? value : undefined;
}

/** An event's content as plain text: its text, calls, responses, files and error, one a line. */
export function eventLine(event: Event): EventLine {
  const lines: string[] = [];
  for (const part of event.content?.parts ?? []) {
    if (part.text !== undefined) lines.push(part.thought ? `(thought) ${part.text}` : part.text);
    if (part.functionCall)
      lines.push(`call ${part.functionCall.name}(${JSON.stringify(part.functionCall.args ?? {})})`);
    if (part.functionResponse)
      lines.push(
        `response ${part.functionResponse.name}: ${JSON.stringify(part.functionResponse.response)}`,
      );
    if (part.inlineData) {
      const { displayName, mimeType } = part.inlineData;
      lines.push(displayName ? `file ${displayName} (${mimeType})` : `file (${mimeType})`);
    }
  }
  if (event.errorMessage) lines.push(`error ${event.errorCode ?? ''}: ${event.errorMessage}`);
  if (lines.length === 0) lines.push('(no content)');
  return { id: event.id, author: event.author, text: lines.join('\n') };
}
