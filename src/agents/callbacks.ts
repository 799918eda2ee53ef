// ADK's agent callbacks, with ADK's names and parameters: before and after an agent's run (on
// every agent), before and after each model call and each tool call, and on a model's or a tool's
// failure (on an LlmAgent, as ADK Python has them; ADK TS 2.0 has those two on plugins only).
//
// Rules (ADK's):
// - an option takes one callback or a list; a list runs in order until one returns a value, and
//   that value is the answer (the later ones do not run);
// - a callback may be sync or async; `undefined` (or `null`) means "go on as usual";
// - what a callback sets in `context.state` goes into the delta of the event it belongs to, so a
//   rewind takes it back (README, Library: Callbacks).

import type { Content } from '../core/content.ts';
import type { LlmRequest, LlmResponse } from '../models/llm.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { ToolContext } from '../tools/tool-context.ts';
import type { CallbackContext } from './callback-context.ts';

type MaybePromise<T> = T | Promise<T>;
type Answer<T> = MaybePromise<T | undefined | null | void>;

/** Before or after an agent's run: a Content returned becomes an event of the agent's. */
export type SingleAgentCallback = (context: CallbackContext) => Answer<Content>;
/** Returning a Content skips the agent's run: that content is its answer. */
export type BeforeAgentCallback = SingleAgentCallback | readonly SingleAgentCallback[];
/** Returning a Content adds it as the agent's last event. */
export type AfterAgentCallback = SingleAgentCallback | readonly SingleAgentCallback[];

/** What a model callback is called with: the call's context, and its request. */
interface ModelCall {
  context: CallbackContext;
  request: LlmRequest;
}

/** May change `request`; a response returned is the answer and the model is not called. */
export type SingleBeforeModelCallback = (params: ModelCall) => Answer<LlmResponse>;
export type BeforeModelCallback = SingleBeforeModelCallback | readonly SingleBeforeModelCallback[];

/**
 * A response returned replaces the model's. Called on each streamed chunk too (`partial`), as
 * ADK does; the stored answer is what it returned for the final response.
 */
export type SingleAfterModelCallback = (params: {
  context: CallbackContext;
  response: LlmResponse;
}) => Answer<LlmResponse>;
export type AfterModelCallback = SingleAfterModelCallback | readonly SingleAfterModelCallback[];

/**
 * The model failed (`error`: a ModelError, what the provider threw as its `cause`); a response
 * returned stands in for the call's answer, else the error goes on. Not called on Stop.
 */
export type SingleOnModelErrorCallback = (
  params: ModelCall & { error: Error },
) => Answer<LlmResponse>;
export type OnModelErrorCallback =
  SingleOnModelErrorCallback | readonly SingleOnModelErrorCallback[];

/** What a tool callback is called with: the tool, the call's arguments, the call's context. */
interface ToolCall {
  tool: BaseTool;
  args: Record<string, unknown>;
  context: ToolContext;
}

/** May change `args`; a record returned is the call's result and the tool does not run. */
export type SingleBeforeToolCallback = (params: ToolCall) => Answer<Record<string, unknown>>;
export type BeforeToolCallback = SingleBeforeToolCallback | readonly SingleBeforeToolCallback[];

/** A record returned replaces the call's result. */
export type SingleAfterToolCallback = (
  params: ToolCall & { response: Record<string, unknown> },
) => Answer<Record<string, unknown>>;
export type AfterToolCallback = SingleAfterToolCallback | readonly SingleAfterToolCallback[];

/**
 * The tool threw (`error`: a ToolError, what the tool threw as its `cause`); a record returned is
 * the call's result, else the error goes on (the call is answered with it and the run fails).
 */
export type SingleOnToolErrorCallback = (
  params: ToolCall & { error: Error },
) => Answer<Record<string, unknown>>;
export type OnToolErrorCallback = SingleOnToolErrorCallback | readonly SingleOnToolErrorCallback[];

/** An LlmAgent's model callbacks as lists (ADK's canonical form). */
export interface ModelCallbacks {
  readonly before: readonly SingleBeforeModelCallback[];
  readonly after: readonly SingleAfterModelCallback[];
  readonly onError: readonly SingleOnModelErrorCallback[];
}

/** An LlmAgent's tool callbacks as lists. */
export interface ToolCallbacks {
  readonly before: readonly SingleBeforeToolCallback[];
  readonly after: readonly SingleAfterToolCallback[];
  readonly onError: readonly SingleOnToolErrorCallback[];
}

type Callback = (...args: never[]) => unknown;

const NONE: readonly never[] = Object.freeze([]);

/** One callback or a list, as a list (one shared empty list for none). */
export function callbackList<T extends Callback>(
  callbacks: T | readonly T[] | undefined,
): readonly T[] {
  if (!callbacks) return NONE;
  return typeof callbacks === 'function'
    ? [callbacks]
    : callbacks.length > 0
      ? [...callbacks]
      : NONE;
}

/**
 * An LlmAgent's before, after and error callbacks of one kind (model or tool) as lists, or
 * `undefined` when it has none of them (the usual case: nothing to run on its hot path).
 */
export function callbackLists<B extends Callback, A extends Callback, E extends Callback>(
  before: B | readonly B[] | undefined,
  after: A | readonly A[] | undefined,
  onError: E | readonly E[] | undefined,
): { before: readonly B[]; after: readonly A[]; onError: readonly E[] } | undefined {
  const lists = {
    before: callbackList(before),
    after: callbackList(after),
    onError: callbackList(onError),
  };
  return lists.before.length + lists.after.length + lists.onError.length > 0 ? lists : undefined;
}

/**
 * Runs `callbacks` in order with `params` until one returns a value, and returns that value. A
 * callback that answers at once (most answer nothing) is not made to wait a promise's turn: the
 * answer is a promise only once a callback returned one.
 */
export function firstAnswer<P, T>(
  callbacks: readonly ((params: P) => Answer<T>)[],
  params: P,
): T | undefined | Promise<T | undefined> {
  for (let i = 0; i < callbacks.length; i++) {
    const answer = callbacks[i]!(params);
    if (answer instanceof Promise) return answerFrom(callbacks, params, i, answer);
    if (answer !== undefined && answer !== null) return answer as T;
  }
  return undefined;
}

/** The rest of `firstAnswer`, from callback `at`, whose answer is `pending`. */
async function answerFrom<P, T>(
  callbacks: readonly ((params: P) => Answer<T>)[],
  params: P,
  at: number,
  pending: Promise<T | undefined | null | void>,
): Promise<T | undefined> {
  let answer = await pending;
  for (let i = at + 1; answer === undefined || answer === null; i++) {
    if (i >= callbacks.length) return undefined;
    answer = await callbacks[i]!(params);
  }
  return answer as T;
}
