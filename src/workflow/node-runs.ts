// What a resumed workflow reads back from its invocation's events: each node's runs (its output,
// the route it chose, the calls it waits on) and the answers to those calls. Node states live in
// the log, not in memory, so a workflow paused for a human, stopped, or cut off by a crash or a
// reload goes on in any runner over the same store: the nodes that finished are not run again
// (their outputs and routes are taken from their events), a node that waited gets its answer.

import { functionResponsesOf, type Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { RouteValue } from './node-context.ts';

/** One run of a node, as its events tell it. */
export interface PriorRun {
  output?: unknown;
  route?: RouteValue | RouteValue[];
  /** Where its frontier recorded the run goes on (a flow's next tokens), when it records that. */
  next?: unknown;
  branch?: string | undefined;
  /** The calls it made that pause the workflow (RequestInput). */
  interruptIds: Set<string>;
  /** Where its first event is in the resume log. */
  from?: number;
}

/**
 * A run is closed once it has an output or a route, or a call waiting (unless its node goes on
 * after the answer: an agent node's events after a confirmation are the same run's): the next
 * event of its node that says anything starts another.
 */
function isClosed(run: PriorRun, goesOn: boolean): boolean {
  return (
    run.output !== undefined || run.route !== undefined || (!goesOn && run.interruptIds.size > 0)
  );
}

/** What an event says of the node run it is part of. */
export interface RunMark {
  output?: unknown;
  route?: RouteValue | RouteValue[] | undefined;
  /** What the frontier recorded of where the run goes on (see NodeContext.next). */
  next?: unknown;
  /** It begins a run (a flow's checkpoint before a node). */
  starts?: boolean;
}

/**
 * How a workflow's events tell its node runs: by default ADK's fields (`nodeInfo.path`, `output`,
 * `route`); a flow reads its own checkpoint and completion events (src/flows/flow-frontier.ts).
 */
export interface RunReading {
  /** The path of the node run the event is part of; undefined for none. */
  pathOf(event: Event): string | undefined;
  markOf(event: Event): RunMark;
}

const ADK_READING: RunReading = {
  pathOf: (event) => (event.author === 'user' ? undefined : event.nodeInfo?.path),
  markOf: (event) => ({ output: event.output, route: event.route }),
};

/** An event that says nothing of its own (an agent's end-of-run checkpoint): it starts no run. */
function saysNothing(event: Event, mark: RunMark): boolean {
  return (
    event.content === undefined &&
    mark.output === undefined &&
    mark.route === undefined &&
    !event.longRunningToolIds?.length &&
    !event.errorCode
  );
}

/** The direct child of `parentPath` whose event this is (`wf.review@2` → `review`). */
function childName(path: string, parentPath: string): string | undefined {
  const prefix = `${parentPath}.`;
  if (!path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  return rest.includes('.') ? undefined : rest.split('@')[0];
}

/** An event of the resume log, with its index there. */
export interface LoggedEvent {
  event: Event;
  index: number;
}

/**
 * The runs of each direct child of the workflow at `parentPath`, in order. `goesOn(name)`: the
 * child runs again on resume, carrying on its own run (an agent node).
 */
export function priorRuns(
  events: readonly LoggedEvent[],
  parentPath: string,
  goesOn: (name: string) => boolean = () => false,
  reading: RunReading = ADK_READING,
): Map<string, PriorRun[]> {
  const runs = new Map<string, PriorRun[]>();
  for (const { event, index } of events) {
    const path = reading.pathOf(event);
    if (!path) continue;
    const name = childName(path, parentPath);
    if (!name) continue;
    let list = runs.get(name);
    if (!list) runs.set(name, (list = []));
    let run = list.at(-1);
    const mark = reading.markOf(event);
    if (!run || mark.starts || (isClosed(run, goesOn(name)) && !saysNothing(event, mark)))
      list.push((run = { interruptIds: new Set(), from: index }));
    addEvent(run, event, mark);
  }
  return runs;
}

/** What an event of a node's run says of the run: its output, route, calls it waits on. */
function addEvent(run: PriorRun, event: Event, mark: RunMark): void {
  if (mark.output !== undefined) {
    run.output = mark.output;
    run.branch = event.branch;
  }
  if (mark.route !== undefined) run.route = mark.route;
  if (mark.next !== undefined) run.next = mark.next;
  for (const id of event.longRunningToolIds ?? []) run.interruptIds.add(id);
}

/** Every node run of the events by its whole path (`wf.step@2`): the runs made with runNode. */
export function priorRunsByPath(events: readonly LoggedEvent[]): Map<string, PriorRun> {
  const runs = new Map<string, PriorRun>();
  for (const { event, index } of events) {
    const path = event.nodeInfo?.path;
    if (event.author === 'user' || !path) continue;
    let run = runs.get(path);
    if (!run) runs.set(path, (run = { interruptIds: new Set(), from: index }));
    addEvent(run, event, ADK_READING.markOf(event));
  }
  return runs;
}

/**
 * The answers the user gave to calls the workflow waits on, by call id. A response
 * `{ result: x }` answers `x` (parsed as JSON when it is a string and the call's schema does not
 * take strings), any other response itself, as ADK reads them.
 */
export function answersOf(events: readonly Event[]): Map<string, unknown> {
  const open = new Set<string>();
  const schemas = new Map<string, unknown>();
  const answers = new Map<string, unknown>();
  for (const event of events) {
    if (event.author !== 'user') {
      for (const id of event.longRunningToolIds ?? []) open.add(id);
      for (const part of event.content?.parts ?? []) {
        const call = part.functionCall;
        if (call?.id)
          schemas.set(call.id, (call.args as Record<string, unknown> | undefined)?.response_schema);
      }
      continue;
    }
    for (const response of functionResponsesOf(event.content)) {
      if (!response.id || !open.has(response.id)) continue;
      open.delete(response.id);
      answers.set(response.id, unwrap(response.response, schemas.get(response.id)));
    }
  }
  return answers;
}

function unwrap(response: unknown, schema: unknown): unknown {
  if (
    typeof response !== 'object' ||
    response === null ||
    Array.isArray(response) ||
    Object.keys(response).length !== 1 ||
    !('result' in response)
  ) {
    return response;
  }
  const value = (response as { result: unknown }).result;
  if (typeof value !== 'string' || takesStrings(schema)) return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function takesStrings(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const record = schema as Record<string, unknown>;
  const type = record['type'];
  if (type === 'string' || (Array.isArray(type) && type.includes('string'))) return true;
  return ['anyOf', 'oneOf'].some((key) => {
    const options = record[key];
    return Array.isArray(options) && options.some(takesStrings);
  });
}

/** The message that started the invocation: the first of the user's that answers no call. */
export function startingMessage(events: readonly Event[]): Content | undefined {
  return events.find((e) => e.author === 'user' && functionResponsesOf(e.content).length === 0)
    ?.content;
}
