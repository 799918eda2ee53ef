// One run of a workflow's graph (the loop of workflow.ts), and the queue that takes the nodes'
// events, in the order they were made, to the Runner. How each node runs is run-node.ts.

import { InvalidRequestError, messageOf } from '../core/errors.ts';
import { createEvent, type Event } from '../core/event.ts';
import { errorCodeOf, isReported, markReported } from '../agents/base-agent.ts';
import type { Graph } from './graph.ts';
import type { EventChannel, NodeContext } from './node-context.ts';
import { answersOf, priorRuns, type PriorRun } from './node-runs.ts';
import type { GraphNode } from './nodes.ts';
import { goesOn, replayed, runChild } from './run-node.ts';
import type { ResumedRun } from './node-context.ts';

export { runChild };

interface Trigger {
  input: unknown;
  useSubBranch: boolean;
  branch?: string | undefined;
}

type NodeStatus = 'running' | 'waiting' | 'completed';

/** One run of a workflow's graph. */
export class GraphRun {
  private readonly triggers = new Map<string, Trigger[]>();
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
    private readonly workflow: {
      readonly name: string;
      readonly graph: Graph;
      readonly maxConcurrency?: number | undefined;
    },
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
    );
    this.answers = answersOf(log.map((e) => e.event));
    const starts = workflow.graph.edges.filter((e) => e.fromNode.name === '__START__');
    for (const edge of starts)
      this.push(edge.toNode.name, { input, useSubBranch: starts.length > 1 });
  }

  async run(): Promise<void> {
    for (;;) {
      // What the finished nodes wrote is stored (and so in the state) before the next ones start.
      await this.queue?.settled();
      this.ctx.invocationContext.runConfig.signal?.throwIfAborted();
      this.schedule();
      if (this.pending.size === 0) break;
      const done = await Promise.race(this.pending.values());
      this.pending.delete(done.name);
      if (done.error !== undefined) {
        await Promise.allSettled(this.pending.values());
        throw this.report(done.name, done.error);
      }
      this.complete(done.name, done.child!);
    }
    const waiting = [...this.interrupts.values()].flat();
    if (waiting.length > 0) {
      // Paused: the workflow's output waits for the answers.
      this.ctx.interruptIds = waiting;
      return;
    }
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
    for (const name of [...this.triggers.keys()]) {
      if (this.pending.has(name) || this.status.get(name) === 'running') continue;
      if (this.status.get(name) === 'waiting' && this.interrupts.has(name)) continue;
      const limit = this.workflow.maxConcurrency;
      if (limit !== undefined && this.pending.size >= limit) break;
      const trigger = this.pop(name);
      if (!trigger) continue;
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
    trigger: Trigger,
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
    const next = this.workflow.graph.next(name, child.route);
    for (const target of next) {
      const targetNode = this.workflow.graph.node(target);
      if (!targetNode.requiresAllPredecessors) {
        this.push(target, {
          input: child.output,
          useSubBranch: next.length > 1,
          branch: child.branch,
        });
        continue;
      }
      const predecessors = this.workflow.graph.predecessors(target);
      if (!predecessors.every((p) => this.status.get(p) === 'completed')) continue;
      const input: Record<string, unknown> = {};
      for (const p of predecessors) input[p] = this.outputs.get(p);
      const common = commonBranch(predecessors.map((p) => this.branches.get(p) ?? ''));
      this.push(target, { input, useSubBranch: false, branch: common || undefined });
    }
  }

  private push(name: string, trigger: Trigger): void {
    const list = this.triggers.get(name);
    if (list) list.push(trigger);
    else this.triggers.set(name, [trigger]);
  }

  private pop(name: string): Trigger | undefined {
    const list = this.triggers.get(name);
    const trigger = list?.shift();
    if (list && list.length === 0) this.triggers.delete(name);
    return trigger;
  }
}

/** The longest common dotted prefix of branches (ADK's `commonPrefixOf`). */
function commonBranch(branches: readonly string[]): string {
  if (branches.length === 0) return '';
  const split = branches.map((b) => (b ? b.split('.') : []));
  const common: string[] = [];
  for (let i = 0; i < Math.min(...split.map((s) => s.length)); i++) {
    const segment = split[0]![i]!;
    if (!split.every((s) => s[i] === segment)) break;
    common.push(segment);
  }
  return common.join('.');
}

/**
 * The nodes' events on their way to the Runner, in the order they were made. `settled` resolves
 * once every event pushed so far was taken and stored (the Runner stores an event before it asks
 * for the next).
 */
export class EventQueue implements EventChannel, AsyncIterable<Event> {
  private readonly buffer: Event[] = [];
  private pushed = 0;
  private taken = 0;
  private closed = false;
  private failure: { error: unknown } | undefined;
  private wake: (() => void) | undefined;
  private waiters: (() => void)[] = [];

  push(event: Event): void {
    if (this.closed) return;
    this.buffer.push(event);
    this.pushed++;
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
    this.release();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.close();
  }

  /** The consumer stored the event it took. */
  consumed(): void {
    this.taken++;
    this.release();
  }

  settled(): Promise<void> {
    if (this.closed || this.taken >= this.pushed) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private release(): void {
    if (!this.closed && this.taken < this.pushed) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Event, void> {
    for (;;) {
      const next = this.buffer.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
