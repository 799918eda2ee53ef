// What a workflow node sees while it runs (ADK 2.0's NodeContext): the invocation, the session's
// state with the node's own pending changes, where the node sits in the graph (its path, its run),
// and what it says back to the workflow: its output and the route to take next.

import type { Event } from '../core/event.ts';
import { stateView, type StateView } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

/** A value a node emits to choose its outgoing edges (ADK's `RouteValue`). */
export type RouteValue = boolean | number | string;

/** Where a node's events go as it makes them: the workflow yields them in that order. */
export interface EventChannel {
  push(event: Event): void;
}

export interface NodeContextOptions {
  invocationContext: InvocationContext;
  channel: EventChannel;
  /** Dotted path of workflow and node names, `''` for the root. */
  nodePath: string;
  runId: string;
  branch: string | undefined;
  /** Paths whose output this node's output also is (ADK's `useAsOutput`). */
  outputForAncestors?: readonly string[];
}

export class NodeContext {
  readonly invocationContext: InvocationContext;
  readonly channel: EventChannel;
  readonly nodePath: string;
  readonly runId: string;
  readonly branch: string | undefined;
  readonly outputForAncestors: readonly string[];
  /** The pending state changes, written into the node's next event. */
  readonly stateDelta: Record<string, unknown> = {};
  readonly state: StateView;
  /** The node's output, when it sets it rather than returning it. */
  output: unknown;
  /** The route the node chose for its outgoing edges. */
  route: RouteValue | RouteValue[] | undefined;
  /** The calls it waits on an answer to (RequestInput), which pause the workflow. */
  interruptIds: string[] = [];

  constructor(options: NodeContextOptions) {
    this.invocationContext = options.invocationContext;
    this.channel = options.channel;
    this.nodePath = options.nodePath;
    this.runId = options.runId;
    this.branch = options.branch;
    this.outputForAncestors = options.outputForAncestors ?? [];
    this.state = stateView(() => this.invocationContext.session.state, this.stateDelta);
  }

  get invocationId(): string {
    return this.invocationContext.invocationId;
  }

  get session(): InvocationContext['session'] {
    return this.invocationContext.session;
  }

  /** Sends an event of this node to the workflow's stream (ADK's `emit`). */
  emit(event: Event): void {
    this.channel.push(event);
  }
}
