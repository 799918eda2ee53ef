// One run of a workflow's graph (the loop of workflow.ts): nodes start as its frontier says
// (ADK's triggers, triggers.ts, or a flow's, src/flows/flow-frontier.ts), run (run-node.ts) side by
// side, and what each finished node leads to is the frontier's to decide. The rest is the same for
// every graph: a node starts only once the events before it are stored, a resumed run takes the
// runs the log shows finished from the log, a node waiting for an answer pauses the run, a
// failing node ends it with an error event of its own.

import { InvalidRequestError, messageOf } from '../core/errors.ts';
import { createEvent } from '../core/event.ts';
import { errorCodeOf, isReported, markReported } from '../agents/base-agent.ts';
import { EventQueue } from './event-queue.ts';
import type { Graph } from './graph.ts';
import type { NodeContext, ResumedRun } from './node-context.ts';
import { answersOf, priorRuns, type PriorRun, type RunReading } from './node-runs.ts';
import type { GraphNode } from './nodes.ts';
import { goesOn, replayed, runChild } from './run-node.ts';
import { Triggers, type Frontier, type NodeStart, type RunView } from './triggers.ts';

export { EventQueue, runChild };

type NodeStatus = 'running' | 'waiting' | 'completed';

/** What a graph run needs of its workflow. */
export interface RunnableGraph {
  readonly name: string;
  readonly graph: Graph;
  readonly maxConcurrency?: number | undefined;
  /** Its own frontier (a flow's); ADK's triggers when absent. */
  frontier?(ctx: NodeContext, input: unknown): Frontier;
  /** How its nodes' runs are read back from the log (a flow's own events); ADK's fields when absent. */
  readonly reading?: RunReading | undefined;
  /** Whether its terminal node's output is its own (a flow's is not: it ends at any End). */
  readonly hasOutput?: boolean;
  /**
   * Whether a failing node gets an error event of its own (ADK's); a flow's failure is the flow
   * agent's, reported as any agent's.
   */
  readonly reportsNodeErrors?: boolean;
}

/** One run of a workflow's graph. */
export class GraphRun {
  private readonly frontier: Frontier;
  private readonly pending = new Map<
    string,
    Promise<{ name: string; child?: NodeContext; error?: unknown }>
  >();
  private readonly status = new Map<string, NodeStatus>();
  private readonly runs = new Map<string, number>();
  private readonly outputs = new Map<string, unknown>();
  private readonly branches = new Map<string, string>();
  private readonly interrupts = new Map<string, string[]>();
  private readonly queue: EventQueue | undefined;
  /** When resuming: each node's runs as the log tells them, and the answers given since. */
  private readonly prior: Map<string, PriorRun[]>;
  private readonly answers: Map<string, unknown>;

  constructor(
    private readonly workflow: RunnableGraph,
    private readonly ctx: NodeContext,
    input: unknown,
  ) {
    this.queue = ctx.channel instanceof EventQueue ? ctx.channel : undefined;
    const log = ctx.invocationContext.resumeEvents();
    const names = new Set(workflow.graph.nodes.map((node) => node.name));
    this.prior = priorRuns(
      log,
      ctx.nodePath,
      (name) => names.has(name) && workflow.graph.node(name).rerunOnResume,
      workflow.reading,
    );
    this.answers = answersOf(log.map((e) => e.event));
    this.frontier = workflow.frontier?.(ctx, input) ?? new Triggers(workflow.graph, input);
  }

  private readonly view: RunView = {
    isBusy: (name) =>
      this.pending.has(name) ||
      this.status.get(name) === 'running' ||
      (this.status.get(name) === 'waiting' && this.interrupts.has(name)),
    isCompleted: (name) => this.status.get(name) === 'completed',
    isPaused: () => this.interrupts.size > 0,
    outputOf: (name) => this.outputs.get(name),
    branchOf: (name) => this.branches.get(name) ?? '',
    room: () =>
      this.workflow.maxConcurrency === undefined
        ? Infinity
        : Math.max(0, this.workflow.maxConcurrency - this.pending.size),
  };

  async run(): Promise<void> {
    for (;;) {
      // What the finished nodes wrote is stored (and so in the state) before the next ones start.
      await this.queue?.settled();
      this.ctx.invocationContext.runConfig.signal?.throwIfAborted();
      this.schedule();
      if (this.pending.size === 0) break;
      // In rounds, every node of the round finishes first, and they are taken in their order.
      const finished = this.frontier.rounds
        ? await Promise.all(this.pending.values())
        : [await Promise.race(this.pending.values())];
      for (const done of finished) this.pending.delete(done.name);
      const failed = finished.find((done) => done.error !== undefined);
      if (failed) {
        await Promise.allSettled(this.pending.values());
        throw this.report(failed.name, failed.error);
      }
      for (const done of finished) this.complete(done.name, done.child!);
    }
    const waiting = [...this.interrupts.values()].flat();
    if (waiting.length > 0) {
      // Paused: the workflow's output waits for the answers.
      this.ctx.interruptIds = waiting;
      return;
    }
    if (this.workflow.hasOutput === false) return;
    const terminal = [...this.workflow.graph.terminalNodeNames].filter((n) => this.outputs.has(n));
    if (terminal.length > 1) {
      throw new InvalidRequestError(
        `Workflow ${this.workflow.name}: ${terminal.length} terminal nodes gave an output; a workflow has at most one`,
      );
    }
    if (terminal.length === 1) this.ctx.output = this.outputs.get(terminal[0]!);
  }

  /**
   * A node's failure as an error event of the node (ADK's node error event: its author and path),
   * once: the workflows and agents above pass it on unmarked. A cancellation is no failure.
   */
  private report(name: string, thrown: unknown): Error {
    const error = thrown instanceof Error ? thrown : new Error(messageOf(thrown));
    if (isReported(error) || this.ctx.invocationContext.isCancellation(error)) return error;
    if (this.workflow.reportsNodeErrors === false) return error;
    markReported(error);
    const path = this.ctx.nodePath ? `${this.ctx.nodePath}.${name}` : name;
    const event = createEvent({
      invocationId: this.ctx.invocationId,
      author: name,
      ...(this.ctx.branch !== undefined ? { branch: this.ctx.branch } : {}),
      errorCode: errorCodeOf(error),
      errorMessage: error.message,
    });
    event.nodeInfo = { path };
    this.ctx.channel.push(event);
    return error;
  }

  private schedule(): void {
    if (this.frontier.rounds && this.pending.size > 0) return;
    for (const trigger of this.frontier.take(this.view)) {
      const { name } = trigger;
      const node = this.workflow.graph.node(name);
      const { replayed, resumed } = this.replay(name, node, trigger);
      if (replayed) {
        this.status.set(name, 'running');
        this.pending.set(name, Promise.resolve({ name, child: replayed }));
        continue;
      }
      const runId = (this.runs.get(name) ?? 0) + 1;
      this.runs.set(name, runId);
      this.status.set(name, 'running');
      this.pending.set(
        name,
        runChild(this.ctx, node, trigger.input, {
          runId: String(runId),
          useSubBranch: trigger.useSubBranch,
          branch: trigger.branch,
          resumed,
        }).then(
          (child) => ({ name, child }),
          (error: unknown) => ({ name, error }),
        ),
      );
    }
  }

  /**
   * When resuming, the node's next run as the log has it, without running it again: a run that
   * finished (its output and route), or one that waited on calls now all answered (their answers
   * are its output, unless it runs again on resume). Else it runs: `resumed` when it goes on
   * from a run that paused inside.
   */
  private replay(
    name: string,
    node: GraphNode,
    trigger: NodeStart,
  ): { replayed?: NodeContext | undefined; resumed?: ResumedRun | undefined } {
    const prior = this.prior.get(name)?.shift();
    if (!prior) return {};
    const nodePath = this.ctx.nodePath ? `${this.ctx.nodePath}.${name}` : name;
    const runId = String(this.runs.get(name) ?? 0);
    return {
      replayed: replayed(this.ctx, nodePath, runId, prior, node, this.answers, trigger.branch),
      resumed: goesOn(prior, node, this.answers),
    };
  }

  private complete(name: string, child: NodeContext): void {
    const node = this.workflow.graph.node(name);
    if (child.interruptIds.length > 0) {
      this.status.set(name, 'waiting');
      this.interrupts.set(name, [...child.interruptIds]);
      return;
    }
    if (node.waitForOutput && child.output === undefined && child.route === undefined) {
      this.status.set(name, 'waiting');
      return;
    }
    this.status.set(name, 'completed');
    if (child.output !== undefined) this.outputs.set(name, child.output);
    this.branches.set(name, child.branch ?? '');
    this.frontier.finished(name, child, this.view);
  }
}
