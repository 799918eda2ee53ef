// What a workflow node sees while it runs (ADK 2.0's NodeContext): the invocation, the session's
// state with the node's own pending changes, where the node sits in the graph (its path, its run),
// and what it says back to the workflow: its output and the route to take next.

import type { Event } from '../core/event.ts';
import { stateView, type StateView } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { OpenSpan } from '../tracing/open-span.ts';

/** A value a node emits to choose its outgoing edges (ADK's `RouteValue`). */
export type RouteValue = boolean | number | string;

/** Where a node's events go as it makes them: the workflow yields them in that order. */
export interface EventChannel {
  push(event: Event): void;
  /** Resolves once every event pushed so far is stored (the Runner's queue knows). */
  settled?(): Promise<void>;
}

/** How `ctx.runNode` runs a node (ADK's `RunNodeOptions`). */
export interface RunNodeOptions {
  /** The run's name, when not the node's. */
  nodeName?: string;
  /** The run's id in its path (`name@run`); numbered per name when absent. */
  runId?: string;
  /** Runs it on a branch of its own (`name@run`). */
  useSubBranch?: boolean;
  /** Its output is the caller's output too. */
  useAsOutput?: boolean;
}

/**
 * A run that paused inside (an agent waiting on a confirmation or a long-running tool) and goes
 * on now its workflow resumes: where its events start in the resume log, and the calls it made
 * that are still unanswered.
 */
export interface ResumedRun {
  from: number;
  open: readonly string[];
}

/** Runs a node under a context (graph-run.ts's, given to each context it makes). */
export type ChildRunner = (
  parent: NodeContext,
  node: unknown,
  input: unknown,
  options?: RunNodeOptions,
) => Promise<NodeContext>;

export interface NodeContextOptions {
  invocationContext: InvocationContext;
  channel: EventChannel;
  /** Dotted path of workflow and node names, `''` for the root. */
  nodePath: string;
  runId: string;
  branch: string | undefined;
  /** Paths whose output this node's output also is (ADK's `useAsOutput`). */
  outputForAncestors?: readonly string[];
  runChildNode?: ChildRunner;
  /** The span of this node run (traced runs only): its children's spans go under it. */
  span?: OpenSpan | undefined;
  resumed?: ResumedRun | undefined;
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
  /**
   * Where the run goes on, as its workflow's frontier records it (a flow's next tokens, with
   * their branches): set by the node, or read back from the log when the run is replayed.
   */
  next: unknown;
  /** The calls it waits on an answer to (RequestInput), which pause the workflow. */
  interruptIds: string[] = [];
  /** Which attempt this run is (RetryConfig): 1, then 2… */
  attemptCount = 1;
  /** Runs made with `runNode` so far, by name (their run ids). */
  readonly dynamicRuns = new Map<string, number>();
  private readonly runChildNode: ChildRunner | undefined;
  readonly span: OpenSpan | undefined;
  /** Set when this run goes on from a run that paused inside (see ResumedRun). */
  readonly resumed: ResumedRun | undefined;

  constructor(options: NodeContextOptions) {
    this.invocationContext = options.invocationContext;
    this.channel = options.channel;
    this.nodePath = options.nodePath;
    this.runId = options.runId;
    this.branch = options.branch;
    this.outputForAncestors = options.outputForAncestors ?? [];
    this.runChildNode = options.runChildNode;
    this.span = options.span;
    this.resumed = options.resumed;
    this.state = stateView(() => this.invocationContext.session.state, this.stateDelta);
  }

  get invocationId(): string {
    return this.invocationContext.invocationId;
  }

  get session(): InvocationContext['session'] {
    return this.invocationContext.session;
  }

  /**
   * Runs a node (a node or a plain function) from inside this one and waits for it: its events go
   * to the workflow's stream at `path.name@run`; the result's `output` is its output. A node that
   * waits for a human makes this one wait too.
   */
  runNode(node: unknown, input?: unknown, options?: RunNodeOptions): Promise<NodeContext> {
    if (!this.runChildNode) throw new Error('runNode works inside a running workflow');
    return this.runChildNode(this, node, input, options);
  }

  /** Sends an event of this node to the workflow's stream (ADK's `emit`). */
  emit(event: Event): void {
    this.channel.push(event);
  }
}
