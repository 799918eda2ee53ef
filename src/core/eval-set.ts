// ADK's eval set files (`*.evalset.json`, ADK Python's `EvalSet`): cases of conversation turns,
// each an invocation with the user's content, the tools the agent used, what its sub-agents said
// on the way and its final response. Import makes each case a session (its `session_input.state`
// as the initial state); export makes a session's active conversation one case, so a conversation
// had in Trellis becomes a regression test for `adk eval`.
//
// ADK writes eval sets in snake_case (`eval_set_id`, `eval_cases`, `user_content`, …), and its
// eval models also take camelCase: both are read; snake_case is written.

import { adkSpelling, camelizeAdk } from './adk-case.ts';
import type { Content, Part } from './content.ts';
import { InvalidSessionFileError } from './errors.ts';
import { isRewindMarker, type Event } from './event.ts';
import { activeEvents } from './active-events.ts';
import { SESSION_FILE_LIMITS, jsonTextProblem, jsonTreeProblem } from './json-limits.ts';
import { parseSessionFile, type ParsedSessionFile } from './session-file.ts';

/** ADK's call asking the user to confirm a tool: a question to the user, not a tool use. */
const REQUEST_CONFIRMATION = 'adk_request_confirmation';

/** Whether a file's text is an eval set (its first fields say so) rather than a session. */
export function looksLikeEvalSet(text: string): boolean {
  return /"eval_?[sS]et_?[iI]d"|"eval_?[cC]ases"/.test(text.slice(0, 4096));
}

/** The cases of an eval set file, checked first as a session file is (size, nesting, strings). */
export function parseEvalSetFile(text: string): EvalCaseSession[] {
  const refuse = (problem: string): never => {
    throw new InvalidSessionFileError([problem]);
  };
  const tooBig = jsonTextProblem(text, SESSION_FILE_LIMITS, 'the file');
  if (tooBig) refuse(tooBig);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    refuse(`not JSON (${(error as Error).message})`);
  }
  const hostile = jsonTreeProblem(json, SESSION_FILE_LIMITS);
  if (hostile) refuse(hostile);
  if (!isEvalSet(json)) refuse('it is not an eval set (no "eval_set_id" or "eval_cases")');
  return evalSetSessions(json as Record<string, unknown>);
}

/** Whether parsed JSON is an eval set rather than a session. */
export function isEvalSet(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  return ['eval_set_id', 'evalSetId', 'eval_cases', 'evalCases'].some((key) =>
    Object.hasOwn(json, key),
  );
}

/** One eval case, ready to import as a session. */
export interface EvalCaseSession extends ParsedSessionFile {
  title: string;
}

interface EvalInvocation {
  invocationId?: string;
  userContent?: Content;
  finalResponse?: Content | null;
  intermediateData?: {
    toolUses?: { name: string; args?: Record<string, unknown>; id?: string }[];
    intermediateResponses?: [string, Part[]][];
  } | null;
  creationTimestamp?: number;
}

/**
 * The cases of an eval set, each as the events of a session (checked as a session file is, by
 * parseSessionFile). A case or turn that is not what ADK writes is named in the error.
 */
export function evalSetSessions(json: Record<string, unknown>): EvalCaseSession[] {
  const set = (adkSpelling(json) === 'snake_case' || hasSnake(json) ? camelizeAdk(json) : json) as {
    evalSetId?: unknown;
    name?: unknown;
    evalCases?: unknown;
  };
  if (!Array.isArray(set.evalCases) || set.evalCases.length === 0)
    throw new InvalidSessionFileError(['this eval set has no "eval_cases" list, or it is empty']);
  return set.evalCases.map((raw, index) => {
    const at = `eval_cases[${index}]`;
    const evalCase = raw as {
      evalId?: unknown;
      conversation?: unknown;
      sessionInput?: { appName?: string; userId?: string; state?: Record<string, unknown> };
      creationTimestamp?: number;
    };
    if (!Array.isArray(evalCase?.conversation))
      throw new InvalidSessionFileError([`${at}.conversation must be a list of invocations`]);
    const author = evalCase.sessionInput?.appName || 'agent';
    const base = toMs(evalCase.creationTimestamp) ?? Date.now();
    const events: Record<string, unknown>[] = [];
    (evalCase.conversation as EvalInvocation[]).forEach((invocation, turn) => {
      if (!invocation?.userContent)
        throw new InvalidSessionFileError([`${at}.conversation[${turn}].user_content is missing`]);
      const invocationId = invocation.invocationId || `${String(evalCase.evalId ?? index)}-${turn}`;
      const timestamp = toMs(invocation.creationTimestamp) ?? base + turn;
      const event = (by: string, content: Content) =>
        events.push({ invocationId, author: by, timestamp, content, actions: {} });
      event('user', { ...invocation.userContent, role: 'user' });
      const data = invocation.intermediateData;
      for (const call of data?.toolUses ?? [])
        event(author, { role: 'model', parts: [{ functionCall: { args: {}, ...call } }] });
      for (const [by, parts] of data?.intermediateResponses ?? [])
        event(by || author, { role: 'model', parts });
      if (invocation.finalResponse) event(author, { ...invocation.finalResponse, role: 'model' });
    });
    const parsed = parseSessionFile(
      JSON.stringify({ id: evalCase.evalId, state: evalCase.sessionInput?.state ?? {}, events }),
    );
    const name =
      typeof set.name === 'string' && set.name ? set.name : String(set.evalSetId ?? 'eval set');
    return { ...parsed, title: `${name} · ${String(evalCase.evalId ?? index + 1)}` };
  });
}

/**
 * A session's active conversation as an eval set of one case (snake_case, as ADK writes it):
 * each turn that begins with the user's message is an invocation.
 */
export function toEvalSet(
  session: { id: string; appName: string; userId: string; events: readonly Event[] },
  name: string,
): string {
  const active = activeEvents(session.events);
  const first = active[0];
  const initialState =
    first && first.author === 'user' && !first.content ? { ...first.actions.stateDelta } : {};
  const turns = new Map<string, Event[]>();
  for (const event of active) {
    if (isRewindMarker(event)) continue;
    const turn = turns.get(event.invocationId);
    if (turn) turn.push(event);
    else if (event.author === 'user' && event.content?.parts.some((part) => part.text))
      turns.set(event.invocationId, [event]);
  }
  const conversation = [...turns.entries()].map(([invocationId, [message, ...rest]]) => {
    const answers = rest.filter((event) => event.author !== 'user' && !event.partial);
    const texts = answers.filter((event) => event.content?.parts.some((part) => part.text));
    const final = texts.at(-1);
    const toolUses = answers.flatMap((event) =>
      (event.content?.parts ?? []).flatMap((part) =>
        part.functionCall && part.functionCall.name !== REQUEST_CONFIRMATION
          ? [snakeCall(part.functionCall)]
          : [],
      ),
    );
    return {
      invocation_id: invocationId,
      user_content: snakeContent(message!.content!),
      final_response: final ? snakeContent(final.content!) : null,
      intermediate_data: {
        tool_uses: toolUses,
        intermediate_responses: texts
          .filter((event) => event !== final)
          .map((event) => [event.author, snakeContent(event.content!).parts]),
      },
      creation_timestamp: message!.timestamp / 1000,
    };
  });
  const now = Date.now() / 1000;
  return JSON.stringify(
    {
      eval_set_id: slug(name),
      name,
      description: `Exported from Trellis session ${session.id}`,
      eval_cases: [
        {
          eval_id: slug(name),
          conversation,
          session_input: {
            app_name: session.appName,
            user_id: session.userId,
            state: initialState,
          },
          creation_timestamp: now,
        },
      ],
      creation_timestamp: now,
    },
    null,
    2,
  );
}

function snakeContent(content: Content): { role: string; parts: Record<string, unknown>[] } {
  return {
    role: content.role,
    parts: content.parts.map((part) => {
      const out: Record<string, unknown> = {};
      if (part.text !== undefined) out.text = part.text;
      if (part.functionCall) out.function_call = snakeCall(part.functionCall);
      if (part.functionResponse) {
        const { id, name, response } = part.functionResponse;
        out.function_response = { ...(id ? { id } : {}), name, response };
      }
      if (part.inlineData)
        out.inline_data = { mime_type: part.inlineData.mimeType, data: part.inlineData.data };
      return out;
    }),
  };
}

function snakeCall(call: { id?: string; name: string; args?: Record<string, unknown> }) {
  return { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.args ?? {} };
}

function slug(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 60) || 'trellis'
  );
}

function toMs(seconds: number | undefined): number | undefined {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return seconds < 1e11 ? Math.round(seconds * 1000) : seconds;
}

/** An eval set's own snake_case marks (adkSpelling knows a session's). */
function hasSnake(json: Record<string, unknown>): boolean {
  return ['eval_set_id', 'eval_cases'].some((key) => Object.hasOwn(json, key));
}
