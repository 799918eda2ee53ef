// ADK 2.0's `Workflow`: a graph of nodes run as one agent. The loop: START's edges give the first
// nodes the workflow's input; each node that finishes hands its output to the nodes its edges (for
// the route it chose) lead to; a join runs once all its predecessors finished, with their outputs
// by name; nodes whose inputs are ready run side by side, on branches of their own when one node
// fans out to several (`name@run`, as ADK names them). The terminal node's output is the
// workflow's. A Workflow is an agent (a Runner's root, or a sub-agent) and a node (of another
// workflow). Events carry ADK's `output` and `nodeInfo: { path, outputFor }`; state changes are
// ordinary state deltas, so a rewind takes them back.
//
// One rule of Trellis's own (ADK leaves it to timing): a node starts only once every event the
// nodes before it made is stored, so it reads the state they wrote.

import { BaseAgent, errorCodeOf, isReported, markReported } from '../agents/base-agent.ts';
import type { Content } from '../core/content.ts';
import { InvalidRequestError, messageOf } from '../core/errors.ts';
import { createEvent, type Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { graphOf, type EdgeItem, type Graph } from './graph.ts';
import { NodeContext, type EventChannel, type RouteValue } from './node-context.ts';
import { NODE_BRAND, contentOf, type GraphNode } from './nodes.ts';

export interface WorkflowOptions {
  /** An identifier: the workflow is an agent too. */
  name: string;
  description?: string;
  /** The graph: edge chains, routing maps, explicit edges. */
  edges: readonly EdgeItem[];
  rerunOnResume?: boolean;
}

export class Workflow extends BaseAgent implements GraphNode {
  readonly [NODE_BRAND] = true as const;
  readonly graph: Graph;
  readonly rerunOnResume: boolean;
  readonly waitForOutput = false;
  readonly requiresAllPredecessors = false;

  constructor(options: WorkflowOptions) {
    super({
      name: options.name,
      ...(options.description ? { description: options.description } : {}),
    });
    if (!Array.isArray(options.edges) || options.edges.length === 0) {
      throw new InvalidRequestError(`Workflow ${options.name} needs edges`);
    }
    this.graph = graphOf(options.edges);
    this.rerunOnResume = options.rerunOnResume ?? true;
  }

  /** As a Runner's agent: the user's message is the input, the nodes' events the stream. */
  protected async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const queue = new EventQueue();
    const root = new NodeContext({
      invocationContext: ctx,
      channel: queue,
      nodePath: '',
      runId: this.name,
      branch: ctx.branch,
    });
    let output: unknown;
    const finished = runChild(
      root,
      this,
      nodeInputOf(ctx.userContent),
      { useAsOutput: true },
      queue,
    ).then(
      (child) => {
        output = child.output;
        queue.close();
      },
      (error: unknown) => queue.fail(error),
    );
    let lastOutput: unknown;
    let sawOutput = false;
    try {
      for await (const event of queue) {
        if (event.output !== undefined) {
          lastOutput = event.output;
          sawOutput = true;
        }
        yield event;
        queue.consumed();
      }
    } finally {
      queue.close();
      await finished;
    }
    if (output !== undefined && !(sawOutput && Object.is(lastOutput, output))) {
      const event = createEvent({
        invocationId: ctx.invocationId,
        author: this.name,
        ...(ctx.branch !== undefined ? { branch: ctx.branch } : {}),
        ...(contentOf(output) ? { content: contentOf(output)! } : {}),
      });
      event.output = output;
      yield event;
    }
  }

  /** As a node of another workflow: runs the graph; its output is the terminal node's. */
  // eslint-disable-next-line require-yield
  async *run(ctx: NodeContext, input: unknown): AsyncGenerator<Event, void> {
    await new GraphRun(this, ctx, input).run();
  }
}

/** ADK's input of a workflow run by a Runner: the message's text, else the message itself. */
function nodeInputOf(content: Content | undefined): unknown {
  if (!content) return undefined;
  const texts = (content.parts ?? []).filter((p) => typeof p.text === 'string');
  return texts.length > 0 ? texts.map((p) => p.text).join('') : content;
}

interface Trigger {
  input: unknown;
  useSubBranch: boolean;
  branch?: string | undefined;
}

type NodeStatus = 'running' | 'waiting' | 'completed';

/** One run of a workflow's graph. */
class GraphRun {
  private readonly triggers = new Map<string, Trigger[]>();
  private readonly pending = new Map<
    string,
    Promise<{ name: string; child?: NodeContext; error?: unknown }>
  >();
  private readonly status = new Map<string, NodeStatus>();
  private readonly runs = new Map<string, number>();
  private readonly outputs = new Map<string, unknown>();
  private readonly branches = new Map<string, string>();
  private readonly queue: EventQueue | undefined;

  constructor(
    private readonly workflow: Workflow,
    private readonly ctx: NodeContext,
    input: unknown,
  ) {
    this.queue = ctx.channel instanceof EventQueue ? ctx.channel : undefined;
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
      const trigger = this.pop(name);
      if (!trigger) continue;
      const runId = (this.runs.get(name) ?? 0) + 1;
      this.runs.set(name, runId);
      this.status.set(name, 'running');
      const node = this.workflow.graph.node(name);
      this.pending.set(
        name,
        runChild(this.ctx, node, trigger.input, {
          runId: String(runId),
          useSubBranch: trigger.useSubBranch,
          branch: trigger.branch,
        }).then(
          (child) => ({ name, child }),
          (error: unknown) => ({ name, error }),
        ),
      );
    }
  }

  private complete(name: string, child: NodeContext): void {
    const node = this.workflow.graph.node(name);
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

interface ChildOptions {
  runId?: string;
  useSubBranch?: boolean;
  branch?: string | undefined;
  /** The child's output is its parent's too (the root workflow's, ADK's `useAsOutput`). */
  useAsOutput?: boolean;
}

/** Runs one node under `parent`: its events, marked with where they come from, to the channel. */
async function runChild(
  parent: NodeContext,
  node: GraphNode,
  input: unknown,
  options: ChildOptions,
  channel: EventChannel = parent.channel,
): Promise<NodeContext> {
  const runId = options.runId ?? node.name;
  const nodePath = parent.nodePath ? `${parent.nodePath}.${node.name}` : node.name;
  const branch =
    options.branch !== undefined
      ? options.branch
      : options.useSubBranch
        ? [parent.branch, `${node.name}@${runId}`].filter(Boolean).join('.')
        : parent.branch;
  const child = new NodeContext({
    invocationContext: parent.invocationContext,
    channel,
    nodePath,
    runId,
    branch,
    outputForAncestors: options.useAsOutput
      ? [parent.nodePath, ...parent.outputForAncestors].filter((p) => p !== '')
      : [],
  });
  for await (const event of node.run(child, input)) {
    event.author ||= node.name;
    event.nodeInfo = { ...event.nodeInfo, path: nodePath };
    if (event.output !== undefined) {
      event.nodeInfo.outputFor = [nodePath, ...child.outputForAncestors];
      child.output = event.output;
    }
    if (branch !== undefined && event.branch === undefined) event.branch = branch;
    channel.push(event);
  }
  if (options.useAsOutput) {
    parent.output = child.output;
    parent.route = child.route;
  }
  return child;
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
class EventQueue implements EventChannel, AsyncIterable<Event> {
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

export type { RouteValue };
