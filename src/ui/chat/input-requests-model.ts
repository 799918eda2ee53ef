// The paused calls that wait for something from the user other than an approval: a question the
// agent asked (`ask_user`, or ADK's `adk_request_input`) or a long-running tool whose result comes
// from outside (a job, a person). Read from the active events, like the approvals, so they survive
// a reload and a rewind makes them go away; the user's reply becomes the call's function response.

import { REQUEST_CONFIRMATION_FUNCTION } from '../../agents/confirmation.ts';
import type { Event } from '../../core/event.ts';
import { questionOf } from '../../tools/questions.ts';

export interface InputRequest {
  /** The id of the paused call, which the reply must carry. */
  callId: string;
  /** The call's function name (the reply's function response carries it too). */
  name: string;
  invocationId: string;
  /** The agent that asked. */
  author: string;
  /** A question (`adk_request_input`), or a tool's result to give. */
  kind: 'question' | 'result';
  /** The question, for a question. */
  message?: string;
  args: Record<string, unknown>;
  /** What the tool answered already, if anything (e.g. `{ status: 'pending' }`). */
  progress?: Record<string, unknown>;
}

export function pendingInputRequests(active: readonly Event[]): InputRequest[] {
  const answered = new Set<string>();
  const progress = new Map<string, Record<string, unknown>>();
  for (const event of active) {
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (!response?.id) continue;
      if (event.author === 'user') answered.add(response.id);
      else progress.set(response.id, response.response);
    }
  }
  const pending: InputRequest[] = [];
  for (const event of active) {
    const waiting = new Set(event.longRunningToolIds ?? []);
    if (waiting.size === 0 || event.author === 'user') continue;
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (!call?.id || !waiting.has(call.id) || answered.has(call.id)) continue;
      if (call.name === REQUEST_CONFIRMATION_FUNCTION) continue; // an approval card
      const args = call.args ?? {};
      const question = questionOf(call);
      const sofar = progress.get(call.id);
      pending.push({
        callId: call.id,
        name: call.name,
        invocationId: event.invocationId,
        author: event.author,
        kind: question === undefined ? 'result' : 'question',
        ...(question === undefined ? {} : { message: question }),
        args,
        ...(sofar ? { progress: sofar } : {}),
      });
    }
  }
  return pending;
}

/**
 * The function response a reply makes: a JSON object as it is, anything else as
 * `{ result: <text> }` (ADK's convention for a bare value). A reply that starts like an object but
 * does not parse is refused, with why, rather than sent as text by mistake.
 */
export function replyResponse(
  reply: string,
): { response: Record<string, unknown> } | { error: string } {
  const text = reply.trim();
  if (!text) return { error: 'Write a reply first.' };
  if (!text.startsWith('{')) return { response: { result: reply } };
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value))
      return { response: value as Record<string, unknown> };
  } catch (error) {
    return { error: `This looks like JSON but does not parse: ${(error as Error).message}` };
  }
  return { error: 'A JSON reply must be an object, e.g. {"status": "done"}.' };
}
