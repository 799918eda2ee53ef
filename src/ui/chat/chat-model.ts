// What the chat shows: the active conversation as messages, tool calls compact.

import {
  CONFIRMATION_REQUIRED,
  REQUEST_CONFIRMATION_FUNCTION,
  isRejection,
  originalCallOf,
} from '../../agents/confirmation.ts';
import { agentToolScope } from '../../agents/agent-tool-branches.ts';
import { cutAnswerOf } from '../../core/cut-answer.ts';
import { modelNoticeOf, modelTimingOf, type Event } from '../../core/event.ts';
import { isStateEdit, stateEditText } from '../../core/state-edit.ts';
import {
  COMPACTION_DIVIDER as DIVIDER,
  compactionNotes,
  compactionTitle,
} from '../history/compaction-model.ts';
import { questionOf } from '../../tools/questions.ts';
import { previewOf, showable, type Preview } from '../common/preview.ts';
import { answerUsage } from '../common/usage-format.ts';
import { chatSettingsNote } from './chat-settings-model.ts';

export type ToolStatus =
  | 'running'
  | 'waiting'
  | 'awaiting approval'
  | 'done'
  | 'declined'
  | 'failed'
  /** Never answered, and its run went no further (its tool server died, say): resume to run it. */
  | 'interrupted';

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
      /**
       * The user's reply to a question the agent asked (`ask_user`): part of the turn
       * that asked, so it has no turn actions (Edit, Rewind to here) of its own.
       */
      reply?: boolean;
      /** An answer cut short (core/cut-answer.ts): what it had said when stopped or cut off. */
      cut?: 'stopped' | 'cut-off';
      /** The workflow node that wrote it (ADK 2.0's `nodeInfo.path`: `help_desk.triage`). */
      path?: string;
    }
  | {
      kind: 'tool';
      id: string;
      eventId: string;
      author: string;
      name: string;
      /**
       * The call's arguments as `key=value, …`, cut short; `truncated` when the arguments or the
       * result are longer than shown (Show all and Download then give the whole `call`).
       */
      args: Preview;
      /** The result in short (its message or error, or its JSON), cut short: a tooltip. */
      result?: string;
      /** The whole call. */
      call: { args: Record<string, unknown>; result?: Record<string, unknown> };
      status: ToolStatus;
      /** The model answer that made this call, when it said nothing else (see message). */
      usage?: string;
    }
  | { kind: 'error'; id: string; eventId: string; author: string; text: string }
  /**
   * Something the user did that is no message (an edit of the state), or a model's notice of how
   * it answered: a small note.
   */
  | { kind: 'note'; id: string; eventId: string; text: string }
  /** Where the context was compacted (history/compaction-model.ts): a quiet divider. */
  | { kind: 'compaction'; id: string; eventId: string; text: string; title: string };

/** The chat of the active events: messages, tool calls (each with its latest result), errors. */
export function chatItems(active: readonly Event[]): ChatItem[] {
  const results = new Map<string, Record<string, unknown>>();
  // Long-running calls the user has answered (until then, what the tool said is progress).
  const finished = new Set<string>();
  // Calls that asked the user a question: their replies read as the user's messages.
  const questions = new Set<string>();
  // A call that asked for approval → the id of its request (the user answers that id).
  const approvalAsked = new Map<string, string>();
  for (const event of active) {
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.id && questionOf(call) !== undefined) questions.add(call.id);
      const original = call?.name === REQUEST_CONFIRMATION_FUNCTION && originalCallOf(call);
      if (original && original.id && call.id) approvalAsked.set(original.id, call.id);
      const response = part.functionResponse;
      if (!response?.id) continue;
      results.set(response.id, response.response);
      if (event.author === 'user') finished.add(response.id);
    }
  }
  // Where each invocation's last event is: an error before it was resumed past, and a call
  // before it can no longer be running.
  const lastOf = new Map<string, number>();
  active.forEach((event, i) => lastOf.set(event.invocationId, i));
  const compactions = new Map(compactionNotes(active).map((note) => [note.eventId, note]));
  const items: ChatItem[] = [];
  for (const [index, event] of active.entries()) {
    // An agent called as a tool talks on its own branch: the chat shows the caller's side (the
    // call and its answer), History and the event log the rest.
    if (agentToolScope(event.branch)) continue;
    const resumedPast = index < lastOf.get(event.invocationId)!;
    const compaction = compactions.get(event.id);
    if (compaction) {
      const title = compactionTitle(compaction);
      items.push({ kind: 'compaction', id: event.id, eventId: event.id, text: DIVIDER, title });
      continue;
    }
    if (isStateEdit(event)) {
      const text =
        chatSettingsNote(event.actions.stateDelta) ?? stateEditText(event.actions.stateDelta);
      items.push({ kind: 'note', id: event.id, eventId: event.id, text });
      continue;
    }
    if (event.errorCode && !event.content) {
      // A failure its run was resumed past (Retry, Resume) is over: its events that followed say
      // what happened instead.
      if (resumedPast) continue;
      items.push({
        kind: 'error',
        id: event.id,
        eventId: event.id,
        author: event.author,
        text: event.errorMessage ?? event.errorCode,
      });
      continue;
    }
    // What the model said of how it answered (turns left out of its request): above the answer.
    const notice = modelNoticeOf(event);
    if (notice)
      items.push({ kind: 'note', id: `${event.id}:notice`, eventId: event.id, text: notice });
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
      const reply = part.functionResponse;
      if (reply?.id && questions.has(reply.id) && event.author === 'user') {
        items.push(replyItem(event, reply.id, reply.response));
        continue;
      }
      const call = part.functionCall;
      const question = call && questionOf(call);
      if (call && question !== undefined) {
        // A question to the user reads as the agent's message; the reply card answers it.
        items.push({
          kind: 'message',
          id: `${event.id}:${call.id ?? call.name}`,
          eventId: event.id,
          invocationId: event.invocationId,
          author: event.author,
          fromUser: false,
          text: question,
        });
        continue;
      }
      if (call && call.name !== 'adk_request_confirmation') {
        let result = call.id ? results.get(call.id) : undefined;
        // Approved (or rejected) but not answered yet: it no longer waits for approval.
        const request = approvalAsked.get(call.id ?? '');
        if (result?.error === CONFIRMATION_REQUIRED && request && finished.has(request))
          result = undefined;
        const longRunning = (event.longRunningToolIds ?? []).includes(call.id ?? '');
        const args = formatArgs(call.args ?? {});
        const summary = result === undefined ? undefined : summarize(result);
        const whole = { args: call.args ?? {}, ...(result !== undefined ? { result } : {}) };
        items.push({
          kind: 'tool',
          id: `${event.id}:${call.id ?? call.name}`,
          eventId: event.id,
          author: event.author,
          name: call.name,
          args: {
            text: args.text,
            truncated: args.truncated || (summary?.truncated ?? false),
            showable: showable(whole),
          },
          ...(summary ? { result: summary.truncated ? `${summary.text}…` : summary.text } : {}),
          call: whole,
          status: statusOf(
            result,
            longRunning && !finished.has(call.id ?? ''),
            isOver(active, index, lastOf),
          ),
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
      const cut = cutAnswerOf(event)?.kind;
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
        ...(cut ? { cut } : {}),
        ...(event.nodeInfo?.path ? { path: event.nodeInfo.path } : {}),
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

/** The user's reply to a question: its text (`{ result }`), or the JSON object it was. */
function replyItem(event: Event, callId: string, response: Record<string, unknown>): ChatItem {
  const keys = Object.keys(response);
  const text =
    keys.length === 1 && typeof response.result === 'string'
      ? response.result
      : JSON.stringify(response, null, 2);
  return {
    kind: 'message',
    id: `${event.id}:${callId}`,
    eventId: event.id,
    invocationId: event.invocationId,
    author: event.author,
    fromUser: true,
    text,
    reply: true,
    ...(text === response.result ? {} : { json: true }),
  };
}

/**
 * `waiting`: a long-running call the user has not answered yet (whatever it said so far); `over`:
 * its run went no further (see isOver).
 */
function statusOf(
  result: Record<string, unknown> | undefined,
  waiting: boolean,
  over: boolean,
): ToolStatus {
  if (result?.error === CONFIRMATION_REQUIRED) return 'awaiting approval';
  if (waiting) return 'waiting';
  if (result === undefined) return over ? 'interrupted' : 'running';
  if (isRejection(result)) return 'declined';
  return typeof result.error === 'string' ? 'failed' : 'done';
}

/**
 * Whether the run of the event at `index` went no further: its invocation failed after it (an
 * error event, as when a tool server cannot be reached), or a later turn began.
 */
function isOver(active: readonly Event[], index: number, lastOf: Map<string, number>): boolean {
  const invocationId = active[index]!.invocationId;
  const last = lastOf.get(invocationId)!;
  if (last < active.length - 1) return true;
  const final = active[last]!;
  return last > index && final.errorCode !== undefined && !final.content;
}

/** Characters of a call's arguments shown in its line. */
const ARGS_CHARS = 200;
/** Characters of a call's result shown in its tooltip. */
const RESULT_CHARS = 160;

/** `key=value, …` (a string as it is, anything else as JSON), at most ARGS_CHARS long. */
function formatArgs(args: Record<string, unknown>): { text: string; truncated: boolean } {
  let text = '';
  for (const [key, value] of Object.entries(args)) {
    const start = `${text ? ', ' : ''}${key}=`;
    const room = ARGS_CHARS - text.length - start.length;
    if (room <= 0) return { text, truncated: true };
    const preview = previewOf(value, { max: room });
    text += `${start}${preview.text}`;
    if (preview.truncated) return { text, truncated: true };
  }
  return { text, truncated: false };
}

function summarize(response: Record<string, unknown>): Preview {
  const { message, error } = response;
  if (typeof message === 'string') return previewOf(message, { max: RESULT_CHARS });
  if (typeof error === 'string') return previewOf(`error: ${error}`, { max: RESULT_CHARS });
  return previewOf(response, { max: RESULT_CHARS });
}

/** Whether `events` hold an error event saying `message`: the chat shows that failure already. */
export function showsError(events: readonly Event[], message: string | undefined): boolean {
  return events.some((event) => event.errorCode !== undefined && event.errorMessage === message);
}

/** The longest reply pretty-printed as JSON (longer ones are shown as they are, cut short). */
const JSON_REPLY_CHARS = 100_000;

/** A reply that is only a JSON object (fenced or not), pretty-printed; else `undefined`. */
function jsonReply(text: string): string | undefined {
  if (text.length > JSON_REPLY_CHARS) return undefined;
  const body = /^\s*```(?:json)?\s*\n([\s\S]*?)\n?```\s*$/.exec(text)?.[1] ?? text;
  if (!/^\s*\{[\s\S]*\}\s*$/.test(body)) return undefined;
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return undefined;
  }
}
