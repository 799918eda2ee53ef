// The event log: every event of the raw log, one line each, a page at a time; markers say what
// they rewound.

import { textOf } from '../../core/content.ts';
import type { Event } from '../../core/event.ts';
import type { LogEntry } from '../../../workers/protocol.ts';
import { clip, previewOf } from '../common/preview.ts';

export interface LogLine {
  id: string;
  seq: number;
  time: string;
  author: string;
  summary: string;
  marker: boolean;
  active: boolean;
}

/** One line per event of a page of the log; a marker names what it went back to. */
export function logLines(entries: readonly LogEntry[]): LogLine[] {
  return entries.map(({ seq, event, active, target }) => {
    const before = event.actions.rewindBeforeInvocationId;
    const after = event.actions.rewindAfterEventId;
    const marker = before !== undefined || after !== undefined;
    return {
      id: event.id,
      seq,
      time: new Date(event.timestamp).toLocaleTimeString(),
      author: event.author,
      summary:
        before !== undefined
          ? `Rewound to before “${clip((target?.content && textOf(target.content)) || before, LINE_CHARS)}”`
          : after !== undefined
            ? `Rewound to just after ${describeTarget(target, after)}`
            : describe(event),
      marker,
      active,
    };
  });
}

/** The event a rewind went back to: a flow's checkpoint reads as the node it was about to run. */
function describeTarget(event: Event | undefined, id: string): string {
  const node = event?.actions.agentState?.['current_node'];
  if (typeof node === 'string') return `the checkpoint before ${node}`;
  return event ? `${event.author}: ${describe(event)}` : id;
}

/** Characters of each thing a line says (a text, a checkpoint, an error). */
const LINE_CHARS = 90;

function describe(event: Event): string {
  const parts: string[] = [];
  for (const part of event.content?.parts ?? []) {
    if (part.functionCall) parts.push(`calls ${part.functionCall.name}`);
    else if (part.functionResponse) parts.push(`${part.functionResponse.name} answered`);
    else if (part.text && !part.thought) parts.push(clip(part.text, LINE_CHARS));
    else if (part.inlineData) parts.push(`[${part.inlineData.mimeType}]`);
  }
  const { stateDelta, agentState, endOfAgent, escalate, transferToAgent } = event.actions;
  const keys = Object.keys(stateDelta);
  if (keys.length) {
    const more = keys.length > 10 ? ` and ${keys.length - 10} more` : '';
    parts.push(`state: ${clip(keys.slice(0, 10).join(', '), LINE_CHARS)}${more}`);
  }
  if (agentState) parts.push(`checkpoint ${oneLine(agentState)}`);
  if (endOfAgent) parts.push('finished');
  if (escalate) parts.push('escalates');
  if (transferToAgent) parts.push(`transfers to ${transferToAgent}`);
  if (event.errorCode)
    parts.push(clip(`error ${event.errorCode}: ${event.errorMessage ?? ''}`, LINE_CHARS));
  return parts.join(' · ') || '(no content)';
}

/** A value in a line: its JSON, cut short (never the whole of a long one). */
function oneLine(value: unknown): string {
  const preview = previewOf(value, { max: LINE_CHARS });
  return preview.truncated ? `${preview.text}…` : preview.text;
}
