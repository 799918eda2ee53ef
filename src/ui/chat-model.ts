// What the chat shows: the active conversation as messages, tool calls compact.

import { CONFIRMATION_REQUIRED, isRejection } from '../agents/confirmation.ts';
import { modelTimingOf, type Event } from '../core/event.ts';
import { answerUsage } from './usage-format.ts';

export type ToolStatus =
  'running' | 'waiting' | 'awaiting approval' | 'done' | 'declined' | 'failed';

/** A file the user attached to a message (its bytes are in the event, as base64). */
export interface ChatAttachment {
  name: string;
  mimeType: string;
  data: string;
}

export type ChatItem =
  | {
      kind: 'message';
      id: string;
      eventId: string;
      author: string;
      invocationId: string;
      fromUser: boolean;
      text: string;
      /** The user's files. */
      attachments?: ChatAttachment[];
      /** A model's answer: which model, its tokens and timing, in one short line. */
      usage?: string;
      /** The text is a JSON object (a flow node's structured output): shown as code. */
      json?: boolean;
    }
  | {
      kind: 'tool';
      id: string;
      eventId: string;
      author: string;
      name: string;
      args: string;
      result?: string;
      status: ToolStatus;
      /** The model answer that made this call, when it said nothing else (see message). */
      usage?: string;
    }
  | { kind: 'error'; id: string; eventId: string; author: string; text: string };

/** The chat of the active events: messages, tool calls (each with its latest result), errors. */
export function chatItems(active: readonly Event[]): ChatItem[] {
  const results = new Map<string, Record<string, unknown>>();
  for (const event of active) {
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (response?.id) results.set(response.id, response.response);
    }
  }
  const items: ChatItem[] = [];
  for (const event of active) {
    if (event.errorCode && !event.content) {
      items.push({
        kind: 'error',
        id: event.id,
        eventId: event.id,
        author: event.author,
        text: event.errorMessage ?? event.errorCode,
      });
      continue;
    }
    let text = '';
    const attachments: ChatAttachment[] = [];
    for (const part of event.content?.parts ?? []) {
      if (part.text && !part.thought) text += part.text;
      const data = part.inlineData;
      if (data && event.author === 'user') {
        attachments.push({
          name: data.displayName ?? data.mimeType,
          mimeType: data.mimeType,
          data: data.data,
        });
      }
      const call = part.functionCall;
      if (call && call.name !== 'adk_request_confirmation') {
        const result = call.id ? results.get(call.id) : undefined;
        const longRunning = (event.longRunningToolIds ?? []).includes(call.id ?? '');
        items.push({
          kind: 'tool',
          id: `${event.id}:${call.id ?? call.name}`,
          eventId: event.id,
          author: event.author,
          name: call.name,
          args: formatArgs(call.args),
          ...(result !== undefined ? { result: summarize(result) } : {}),
          status: statusOf(result, longRunning),
        });
      }
    }
    const usage = answerUsage(event.modelVersion, event.usageMetadata, modelTimingOf(event));
    if (!text && attachments.length === 0 && usage) {
      const last = items.at(-1);
      if (last?.kind === 'tool' && last.eventId === event.id) last.usage = usage;
    }
    if (text || attachments.length > 0) {
      const json = event.author === 'user' ? undefined : jsonReply(text);
      items.push({
        kind: 'message',
        id: event.id,
        eventId: event.id,
        invocationId: event.invocationId,
        author: event.author,
        fromUser: event.author === 'user',
        text: json ?? text,
        ...(json !== undefined ? { json: true } : {}),
        ...(attachments.length > 0 ? { attachments } : {}),
        ...(usage ? { usage } : {}),
      });
    }
    // A model that stopped for its own reason (the token limit, a safety filter) after part of
    // an answer: say why below what it did say.
    if (event.errorCode) {
      items.push({
        kind: 'error',
        id: `${event.id}:error`,
        eventId: event.id,
        author: event.author,
        text: event.errorMessage ?? event.errorCode,
      });
    }
  }
  return items;
}

function statusOf(result: Record<string, unknown> | undefined, longRunning: boolean): ToolStatus {
  if (result === undefined) return 'running';
  if (result.error === CONFIRMATION_REQUIRED) return 'awaiting approval';
  if (longRunning) return 'waiting';
  if (isRejection(result)) return 'declined';
  return typeof result.error === 'string' ? 'failed' : 'done';
}

function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args ?? {})
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

function summarize(response: Record<string, unknown>): string {
  if (typeof response.message === 'string') return response.message;
  if (typeof response.error === 'string') return `error: ${response.error}`;
  const json = JSON.stringify(response);
  return json.length > 160 ? `${json.slice(0, 159)}…` : json;
}

/** Whether `events` hold an error event saying `message`: the chat shows that failure already. */
export function showsError(events: readonly Event[], message: string | undefined): boolean {
  return events.some((event) => event.errorCode !== undefined && event.errorMessage === message);
}

/** A reply that is only a JSON object (fenced or not), pretty-printed; else `undefined`. */
function jsonReply(text: string): string | undefined {
  const body = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text)?.[1] ?? text;
  if (!/^\s*\{[\s\S]*\}\s*$/.test(body)) return undefined;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return undefined;
  }
}
