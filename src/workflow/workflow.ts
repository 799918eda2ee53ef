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

import { BaseAgent } from '../agents/base-agent.ts';
import type { Content } from '../core/content.ts';
import { isStoppedAnswer } from '../core/cut-answer.ts';
import { InvalidRequestError } from '../core/errors.ts';
import { createEvent, type Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { graphOf, type EdgeItem, type Graph } from './graph.ts';
import { EventQueue, GraphRun, runChild } from './graph-run.ts';
import { NodeContext, type RouteValue } from './node-context.ts';
import { startingMessage } from './node-runs.ts';
import { NODE_BRAND, contentOf, type GraphNode } from './nodes.ts';

export interface WorkflowOptions {
  /** An identifier: the workflow is an agent too. */
  name: string;
  description?: string;
  /** The graph: edge chains, routing maps, explicit edges. */
  edges: readonly EdgeItem[];
  rerunOnResume?: boolean;
  /** How many of its nodes may run at once (all when absent). */
  maxConcurrency?: number;
  /** Agents its nodes run, made its sub-agents (a flow's node agents). */
  subAgents?: readonly BaseAgent[];
}

export class Workflow extends BaseAgent implements GraphNode {
  readonly [NODE_BRAND] = true as const;
  readonly graph: Graph;
  readonly rerunOnResume: boolean;
  readonly waitForOutput = false;
  readonly requiresAllPredecessors = false;
  readonly retryConfig = undefined;
  readonly maxConcurrency: number | undefined;
  readonly keepsEvents: boolean = false;

  constructor(options: WorkflowOptions) {
    super({
      name: options.name,
      ...(options.description ? { description: options.description } : {}),
      ...(options.subAgents ? { subAgents: options.subAgents } : {}),
    });
    if (!Array.isArray(options.edges) || options.edges.length === 0) {
      throw new InvalidRequestError(`Workflow ${options.name} needs edges`);
    }
    const limit = options.maxConcurrency;
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1)) {
      throw new InvalidRequestError(
        `Workflow ${options.name}: maxConcurrency is a whole number from 1`,
      );
    }
    this.maxConcurrency = limit;
    this.graph = graphOf(options.edges);
    this.rerunOnResume = options.rerunOnResume ?? true;
  }

  /** As a Runner's agent: the user's message is the input, the nodes' events the stream. */
  protected async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const queue = new EventQueue();
    // Aborted when the reader stops reading (Stop, a crash, a closed tab): no node goes on
    // unseen, running tools whose results nobody stores.
    const stop = new AbortController();
    const root = new NodeContext({
      invocationContext: ctx.withSignal(stop.signal),
      channel: queue,
      nodePath: '',
      runId: this.name,
      branch: ctx.branch,
    });
    let output: unknown;
    let paused = false;
    // A resumed run starts again from the message that started it (its answers are in the log).
    const resumed = ctx.resumeEvents().map((e) => e.event);
    const message = (resumed.length > 0 ? startingMessage(resumed) : undefined) ?? ctx.userContent;
    const finished = runChild(root, this, nodeInputOf(message), { useAsOutput: true }, queue).then(
      (child) => {
        output = child.output;
        paused = child.interruptIds.length > 0;
        queue.close();
      },
      (error: unknown) => queue.fail(error),
    );
    let lastOutput: unknown;
    let sawOutput = false;
    let read = false;
    try {
      for await (const event of queue) {
        // Once stopped, only what an answer cut short had said goes on (the Runner stores it);
        // the rest the nodes make while they stop is not the run's.
        if (ctx.runConfig.signal?.aborted && !isStoppedAnswer(event)) {
          queue.consumed();
          continue;
        }
        if (event.output !== undefined) {
          lastOutput = event.output;
          sawOutput = true;
        }
        yield event;
        queue.consumed();
      }
      read = true;
    } finally {
      if (!read) {
        const reason = new DOMException('The reader stopped reading', 'AbortError');
        stop.abort(reason);
        queue.stop(reason);
      }
      queue.close();
      await finished;
    }
    if (paused) {
      // Waiting for a human: the run is paused, and the answer resumes it (Runner.runAsync).
      ctx.markPaused();
      return;
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

export type { RouteValue };
