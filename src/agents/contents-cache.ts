// The model's contents kept up to date with the conversation, instead of rebuilt from the whole
// session at every model call: what `buildContents` returns (which defines them), extended with
// the events appended since the last request.
//
// Invariants:
// - a state describes the first `count` active events of one generation of one view, for one
//   agent on one branch, and `contents` is what buildContents returns for them, except for the
//   rules that look at the end of the conversation (a late answer, `includeContents: 'none'`),
//   which are applied to a full rebuild at request time;
// - new events extend a state only when they cannot change what it already holds: a new
//   response to a call already placed (a later answer replacing an earlier one, or the answer to
//   a call that was left out for want of one), or a new call of this agent that an earlier event
//   of another author answers (which would make that event the agent's own), starts over;
// - `contents` only ever grows at its end (a state that starts over makes a new list), and every
//   content in it is frozen: the list is handed out as it is, and a request lends its first
//   contents (see lent-contents.ts) or copies them, so that no request can change what the next
//   one is built from, nor see what is appended after it.

import type { ActiveEventsView } from '../core/active-events.ts';
import type { Content, FunctionResponse, Part } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { buildContents, isVisible, rephrase, type ContentsOptions } from './contents.ts';
import { isAgentToolRequest } from './agent-tool-branches.ts';

interface ContentsState {
  generation: number;
  /** How many of the active events it describes, and the last of them. */
  count: number;
  last: Event | undefined;
  /** How many of those are visible (buildContents' `all`). */
  visibleCount: number;
  lastVisible: Event | undefined;
  /** Ids of the calls this agent made. */
  ownCalls: Set<string>;
  /** Ids answered by events of authors other than the user and this agent. */
  othersAnswers: Set<string>;
  /** The latest response to each call, from the events that are not another agent's words. */
  latestResponse: Map<string, FunctionResponse>;
  /** Ids of the calls placed in `contents`, or left out for want of a response. */
  placedCalls: Set<string>;
  /** Call id → index, among the visible events, of the last event that makes that call. */
  callIndex: Map<string, number>;
  contents: Content[];
}

/**
 * The events contents are kept for: the session's active events, or the events a compaction
 * leaves the model (see compacted-contents.ts); either only grows at its end until its
 * `generation` changes, and keeps what is derived from it in `derived`.
 */
export type ContentsSource = Pick<ActiveEventsView, 'peek' | 'generation' | 'derived'>;

/**
 * `buildContents(view.peek(), agentName, branch, options)`, from the contents of the previous
 * request of this agent on this branch plus the events appended since, when that gives the same.
 * Not a copy: the list grows with the next request, so read its first `length` now, and lend
 * or copy them for whoever may keep or change them.
 */
export function cachedContents(
  view: ContentsSource,
  agentName: string,
  branch: string | undefined,
  options: ContentsOptions = {},
): readonly Content[] {
  const events = view.peek();
  if (options.includeContents === 'none') return buildContents(events, agentName, branch, options);
  const key = `contents\u0000${agentName}\u0000${branch ?? ''}`;
  let state = view.derived.get(key) as ContentsState | undefined;
  if (!state || !describesPrefix(state, events, view.generation)) {
    state = emptyState(view.generation);
  }
  if (!extend(state, events, agentName, branch)) {
    state = emptyState(view.generation);
    extend(state, events, agentName, branch);
  }
  view.derived.set(key, state);
  if (endsWithLateAnswer(state)) return buildContents(events, agentName, branch, options);
  return state.contents;
}

function emptyState(generation: number): ContentsState {
  return {
    generation,
    count: 0,
    last: undefined,
    visibleCount: 0,
    lastVisible: undefined,
    ownCalls: new Set(),
    othersAnswers: new Set(),
    latestResponse: new Map(),
    placedCalls: new Set(),
    callIndex: new Map(),
    contents: [],
  };
}

/** Whether the state describes the start of `events` (active events only grow at the end). */
function describesPrefix(state: ContentsState, events: readonly Event[], generation: number) {
  return (
    state.generation === generation &&
    state.count <= events.length &&
    (state.count === 0 || events[state.count - 1] === state.last)
  );
}

/** Adds the events after the state's; false when they would change what it holds. */
function extend(
  state: ContentsState,
  events: readonly Event[],
  agentName: string,
  branch: string | undefined,
): boolean {
  const added: Event[] = [];
  for (let i = state.count; i < events.length; i++) {
    if (isVisible(events[i]!, branch)) added.push(events[i]!);
  }
  state.count = events.length;
  state.last = events[events.length - 1];
  if (added.length === 0) return true;

  for (const event of added) {
    if (event.author !== agentName) continue;
    for (const part of event.content!.parts) {
      const id = part.functionCall?.id;
      if (id === undefined) continue;
      if (state.othersAnswers.has(id)) return false;
      state.ownCalls.add(id);
    }
  }
  const others = added.map((event) => isOtherAgent(event, agentName, state.ownCalls));
  for (let k = 0; k < added.length; k++) {
    const parts = added[k]!.content!.parts;
    const author = added[k]!.author;
    if (author !== 'user' && author !== agentName) {
      for (const part of parts) {
        const id = part.functionResponse?.id;
        if (id !== undefined) state.othersAnswers.add(id);
      }
    }
    if (others[k]) continue;
    for (const part of parts) {
      const response = part.functionResponse;
      if (response?.id === undefined) continue;
      if (state.placedCalls.has(response.id)) return false;
      state.latestResponse.set(response.id, response);
    }
  }

  for (let k = 0; k < added.length; k++) {
    const event = added[k]!;
    const index = state.visibleCount++;
    for (const part of event.content!.parts) {
      const id = part.functionCall?.id;
      if (id !== undefined) state.callIndex.set(id, index);
    }
    if (others[k]) {
      const parts = rephrase(event);
      if (parts.length > 1) state.contents.push(frozen('user', parts));
      continue;
    }
    const parts: Part[] = [];
    const responses: Part[] = [];
    for (const part of event.content!.parts) {
      if (part.functionResponse) continue;
      const call = part.functionCall;
      if (call) {
        if (call.id === undefined) continue;
        state.placedCalls.add(call.id);
        const response = state.latestResponse.get(call.id);
        if (!response) continue;
        parts.push(part);
        responses.push(Object.freeze({ functionResponse: response }));
        continue;
      }
      parts.push(part);
    }
    if (parts.length > 0) state.contents.push(frozen(event.content!.role, parts));
    if (responses.length > 0) state.contents.push(frozen('user', responses));
  }
  state.lastVisible = added[added.length - 1];
  return true;
}

/** buildContents' test for another agent's words, given the calls the agent made. */
function isOtherAgent(event: Event, agentName: string, ownCalls: ReadonlySet<string>): boolean {
  return (
    event.author !== 'user' &&
    event.author !== agentName &&
    !isAgentToolRequest(event) &&
    !event.content!.parts.every(
      (part) => part.functionResponse?.id !== undefined && ownCalls.has(part.functionResponse.id),
    )
  );
}

/** Whether buildContents would move the last event up to an older call it answers. */
function endsWithLateAnswer(state: ContentsState): boolean {
  const id = state.lastVisible?.content?.parts.find(
    (part) => part.functionResponse?.id !== undefined,
  )?.functionResponse?.id;
  if (id === undefined) return false;
  const callIndex = state.callIndex.get(id);
  return callIndex !== undefined && callIndex < state.visibleCount - 2;
}

function frozen(role: Content['role'], parts: Part[]): Content {
  Object.freeze(parts);
  return Object.freeze({ role, parts });
}
