// The agent a flow compiles to: runs the graph's nodes over the session state, one round of
// ready nodes at a time (several at once on parallel branches), checkpointing before each node.
//
// What must stay true:
// - every node run is framed by two flow events (flow-events.ts): a checkpoint before it and a
//   completion after it that carries the node's state updates and where the flow goes next;
//   resume replays them, so a finished node never runs again and a cut-off one resumes;
// - a node that pauses (approval, long-running tool) gets no completion: the flow stops after the
//   round, and the next resume continues it from its own events;
// - state changes are ordinary stateDeltas holding resulting values, so rewind needs no reducers.

import { textOf } from '../core/content.ts';
import { FlowStepLimitError } from '../core/errors.ts';
import { createEventActions, type Event } from '../core/event.ts';
import { setOwn } from '../core/state.ts';
import { BaseAgent } from '../agents/base-agent.ts';
import { mergeRuns } from '../agents/parallel-agent.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { chooseOutput } from './conditions.ts';
import type { Flow, FlowEdge, FlowNode, LoopNode, StartNode } from './flow.ts';
import { DEFAULT_MAX_LOOPS, DEFAULT_MAX_STEPS } from './flow.ts';
import {
  latestNodeOutput,
  replayFlow,
  type NodeCheckpointState,
  type NodeCompletionState,
} from './flow-events.ts';
import {
  mergeTokens,
  readyTokens,
  successorTokens,
  type FlowToken,
  type Reachability,
} from './frontier.ts';
import { nodeOutput, ranCalls } from './node-output.ts';
import { defaultStateDelta, stateUpdates } from './reducers.ts';
import { evaluateTemplate, renderTemplate, type TemplateScope } from './templates.ts';

export interface FlowGraph {
  flow: Flow;
  nodes: ReadonlyMap<string, FlowNode>;
  /** Outgoing edges by node id. */
  edges: ReadonlyMap<string, readonly FlowEdge[]>;
  reach: Reachability;
  /** The agents behind agent, llm, conditionAgent and tool nodes, by node id. */
  agents: ReadonlyMap<string, BaseAgent>;
}

/** A node to run this round: fresh, or resumed from its events after `scope`. */
interface NodeRun {
  token: FlowToken;
  scope?: number;
}

/** Counters shared by the node runs of one invocation. */
interface RunCounters {
  steps: number;
  loopCounts: Record<string, number>;
  /**
   * Completions one at a time: a node computes its state updates (an append reads the old
   * value) only once the completion before it is stored, so parallel branches never overwrite
   * each other's updates.
   */
  completions: Serial;
}

/** What a node run decided: its output and where the flow goes next. */
interface NodeResult {
  output: unknown;
  targets: string[];
  stateDelta?: Record<string, unknown>;
}

export class FlowAgent extends BaseAgent {
  private readonly graph: FlowGraph;
  private readonly startId: string;
  private readonly maxSteps: number;

  constructor(name: string, graph: FlowGraph) {
    super({
      name,
      ...(graph.flow.description ? { description: graph.flow.description } : {}),
      subAgents: [...graph.agents.values()],
    });
    this.graph = graph;
    this.startId = graph.flow.nodes.find((node) => node.type === 'start')!.id;
    this.maxSteps = graph.flow.maxSteps ?? DEFAULT_MAX_STEPS;
  }

  get flow(): Flow {
    return this.graph.flow;
  }

  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const root = ctx.branch ? `${ctx.branch}.${this.name}` : this.name;
    const progress = replayFlow(this.name, ctx.resumeEvents(), { node: this.startId });
    const counters: RunCounters = {
      steps: progress.steps,
      loopCounts: progress.loopCounts,
      completions: new Serial(),
    };
    let runs: NodeRun[] = progress.running.map(({ token, scope }) => ({ token, scope }));
    let waiting = progress.waiting;
    for (;;) {
      const tokens = mergeTokens(waiting, ctx.branch);
      // Nodes resumed in this round are still on their way: a join they lead to waits for them.
      const ready = readyTokens(
        tokens,
        this.graph.reach,
        runs.map((run) => run.token),
      );
      waiting = tokens.filter((token) => !ready.includes(token));
      runs.push(...ready.map((token) => ({ token })));
      if (runs.length === 0) break;
      const next: FlowToken[] = [];
      yield* mergeRuns(runs.map((run) => this.runNode(ctx, run, counters, next, root)));
      waiting.push(...next);
      runs = [];
      if (ctx.isPausedBelow() || ctx.endInvocation) return;
    }
    yield this.createAgentStateEvent(ctx, { endOfAgent: true });
  }

  /** One node run between its checkpoint and its completion; pushes the tokens it leads to. */
  private async *runNode(
    parent: InvocationContext,
    run: NodeRun,
    counters: RunCounters,
    next: FlowToken[],
    root: string,
  ): AsyncGenerator<Event, void> {
    const { token } = run;
    const ctx = parent.forAgent(this, token.branch ?? parent.branch);
    const node = this.graph.nodes.get(token.node)!;
    if (run.scope === undefined) {
      if (counters.steps >= this.maxSteps)
        throw new FlowStepLimitError(this.name, this.maxSteps, node.id);
      counters.steps++;
      const state: NodeCheckpointState = {
        current_node: node.id,
        loop_counts: { ...counters.loopCounts },
        step: counters.steps,
      };
      yield this.createAgentStateEvent(ctx, { state });
    }
    const result = yield* this.runBody(ctx, node, run, counters);
    if (!result) return; // paused: resumes from its own events
    const successors = successorTokens(token, result.targets, result.output, root);
    const done = await counters.completions.turn();
    try {
      yield this.completionEvent(ctx, node, result, counters, successors);
    } finally {
      done();
    }
    next.push(...successors);
  }

  private completionEvent(
    ctx: InvocationContext,
    node: FlowNode,
    result: NodeResult,
    counters: RunCounters,
    successors: readonly FlowToken[],
  ): Event {
    const completion: NodeCompletionState = {
      completed_node: node.id,
      next: successors.map(withoutInput),
      loop_counts: { ...counters.loopCounts },
      step: counters.steps,
      ...(result.output !== undefined ? { output: result.output } : {}),
    };
    const stateDelta = { ...result.stateDelta, ...this.updates(ctx, node, result.output) };
    return ctx.createEvent({ actions: createEventActions({ agentState: completion, stateDelta }) });
  }

  private async *runBody(
    ctx: InvocationContext,
    node: FlowNode,
    run: NodeRun,
    counters: RunCounters,
  ): AsyncGenerator<Event, NodeResult | undefined> {
    const scope = this.scope(ctx, run.token.input);
    const targets = (when?: string) =>
      (this.graph.edges.get(node.id) ?? [])
        .filter((edge) => when === undefined || edge.when?.toLowerCase() === when.toLowerCase())
        .map((edge) => edge.to);
    switch (node.type) {
      case 'start':
        return yield* this.start(ctx, node, targets());
      case 'condition':
        return { output: run.token.input, targets: targets(chooseOutput(node.rules, scope)) };
      case 'loop':
        return yield* this.loop(ctx, node, counters, run.token.input);
      case 'end':
        return { output: run.token.input, targets: [] };
      case 'agent':
      case 'llm':
      case 'tool':
      case 'conditionAgent': {
        const agent = this.graph.agents.get(node.id)!;
        const child = ctx.resuming(run.scope);
        yield* agent.runAsync(child);
        if (child.isPausedBelow() || ctx.endInvocation) return undefined;
        const events = ctx.activeView.peek();
        const output = nodeOutput(node, events, this.name, ctx.branch);
        if (
          node.type === 'tool' &&
          node.endWithoutCalls &&
          !ranCalls(node, events, this.name, ctx.branch)
        )
          return { output, targets: [] };
        const route = node.type === 'conditionAgent' ? (output as string) : undefined;
        const chosen = targets(route);
        return {
          output,
          targets: route !== undefined && chosen.length === 0 ? targets('else') : chosen,
        };
      }
    }
  }

  /** Start: the state's defaults on a new session, and moderation of the user's message. */
  private async *start(
    ctx: InvocationContext,
    node: StartNode,
    targets: string[],
  ): AsyncGenerator<Event, NodeResult> {
    const stateDelta = defaultStateDelta(this.flow.state ?? [], ctx.session.state);
    const question = textOf(ctx.userContent).toLowerCase();
    const blocked = node.moderation?.blocked.some(
      (phrase) => phrase.trim() && question.includes(phrase.trim().toLowerCase()),
    );
    if (!blocked) return { output: undefined, targets, stateDelta };
    const message = node.moderation?.message ?? 'Sorry, I cannot help with that message.';
    yield ctx.createEvent({
      author: node.id,
      content: { role: 'model', parts: [{ text: renderTemplate(message, this.scope(ctx)) }] },
    });
    return { output: undefined, targets: [], stateDelta };
  }

  /** Loop: back to `to` while under its bound, then its other edges, or its fallback reply. */
  private async *loop(
    ctx: InvocationContext,
    node: LoopNode,
    counters: RunCounters,
    input: unknown,
  ): AsyncGenerator<Event, NodeResult> {
    const done = counters.loopCounts[node.id] ?? 0;
    if (done < (node.maxLoops ?? DEFAULT_MAX_LOOPS)) {
      counters.loopCounts[node.id] = done + 1;
      return { output: input, targets: [node.to] };
    }
    const others = (this.graph.edges.get(node.id) ?? []).map((edge) => edge.to);
    if (others.length > 0) return { output: input, targets: others };
    const text = node.fallback ?? 'I could not finish this within the allowed number of tries.';
    yield ctx.createEvent({
      author: node.id,
      content: { role: 'model', parts: [{ text: renderTemplate(text, this.scope(ctx, input)) }] },
    });
    return { output: input, targets: [] };
  }

  /** The node's updateState, as a delta holding the resulting values. */
  private updates(
    ctx: InvocationContext,
    node: FlowNode,
    output: unknown,
  ): Record<string, unknown> {
    const update = 'updateState' in node ? node.updateState : undefined;
    if (!update) return {};
    const scope = this.scope(ctx, output);
    const values: Record<string, unknown> = {};
    for (const [key, template] of Object.entries(update))
      setOwn(values, key, evaluateTemplate(template, scope));
    return stateUpdates(this.flow.state ?? [], ctx.session.state, values);
  }

  private scope(ctx: InvocationContext, output?: unknown): TemplateScope {
    return flowScope(ctx, this.name, output);
  }
}

/** What a flow's templates see while one of its nodes runs (`output`: what led there). */
export function flowScope(
  ctx: InvocationContext,
  flowName: string,
  output: unknown,
): TemplateScope {
  return {
    state: ctx.session.state,
    output,
    question: textOf(ctx.userContent),
    nodes: (nodeId) => latestNodeOutput(ctx.activeView.peek(), flowName, nodeId),
  };
}

/** Tokens as a completion records them: the output is recorded once, beside them. */
function withoutInput({ input: _input, ...token }: FlowToken): FlowToken {
  return token;
}

/** A queue of turns: `await turn()` waits for the turns before it, then returns its release. */
class Serial {
  private last: Promise<void> = Promise.resolve();

  turn(): Promise<() => void> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const ready = this.last.then(() => release);
    this.last = done;
    return ready;
  }
}
