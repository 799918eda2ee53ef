// What a flow compiles to: a Workflow (src/workflow/) whose nodes are the flow's nodes, run by the
// one graph engine with the flow's own frontier (flow-frontier.ts). The engine runs the nodes,
// side by side on parallel branches, pauses and resumes them, and fails the run; this file says
// what each node does.
//
// What must stay true:
// - every node run is framed by two flow events (flow-events.ts): a checkpoint before it and a
//   completion after it that carries the node's state updates and where the flow goes next;
//   resume reads them back, so a finished node never runs again and a cut-off one goes on from
//   its own events (no second checkpoint);
// - a node that pauses (approval, long-running tool) gets no completion: the flow stops after the
//   round, and the answer resumes it;
// - state changes are ordinary stateDeltas holding resulting values, so rewind needs no reducers;
// - completions are stored one at a time: a node computes its state updates (an append reads the
//   old value) only once the completion before it is stored.

import { FlowStepLimitError } from '../core/errors.ts';
import { createEventActions, type Event } from '../core/event.ts';
import { setOwn } from '../core/state.ts';
import type { BaseAgent } from '../agents/base-agent.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { Edge } from '../workflow/graph.ts';
import type { NodeContext } from '../workflow/node-context.ts';
import { NODE_BRAND, START, type GraphNode } from '../workflow/nodes.ts';
import { Workflow } from '../workflow/workflow.ts';
import { chooseOutput } from './conditions.ts';
import type { Flow, FlowEdge, FlowNode } from './flow.ts';
import { askHuman } from './human-input.ts';
import { iterate, iterationProgress, type IterationProgress } from './iteration.ts';
import { runCodeNode, runHttpNode } from './request-nodes.ts';
import { Serial, flowScope } from './flow-scope.ts';
import { loopStep, startStep, type StepResult } from './control-steps.ts';
import { DEFAULT_MAX_STEPS } from './flow.ts';
import { flowCounters, type NodeCheckpointState, type NodeCompletionState } from './flow-events.ts';
import { FlowFrontier, flowReading } from './flow-frontier.ts';
import { successorTokens, type FlowToken, type Reachability } from './frontier.ts';
import { nodeOutput, ranCalls } from './node-output.ts';
import { stateUpdates } from './reducers.ts';
import { evaluateTemplate, renderTemplate, type TemplateScope } from './templates.ts';

export interface FlowGraph {
  flow: Flow;
  nodes: ReadonlyMap<string, FlowNode>;
  /** Outgoing edges by node id. */
  edges: ReadonlyMap<string, readonly FlowEdge[]>;
  reach: Reachability;
  /** The agents behind agent, llm, conditionAgent, tool, toolCall and subflow nodes, by id. */
  agents: ReadonlyMap<string, BaseAgent>;
  /** Each Iteration's first nodes (those that start an item), by its id. */
  iterations: ReadonlyMap<string, readonly string[]>;
  /** Why a node cannot run (a knowledge base not picked): the run fails when it is reached. */
  unready?: ReadonlyMap<string, Error>;
}

/** Counters shared by the node runs of one invocation of the flow. */
interface FlowRun {
  steps: number;
  loopCounts: Record<string, number>;
  completions: Serial;
  /** What parallel branches are named under. */
  root: string;
}

/** What a node run decided: its output and where the flow goes next. */
interface NodeResult extends StepResult {
  /** An Iteration's: where it stands, and the tokens of its next item. */
  progress?: IterationProgress | undefined;
  tokens?: FlowToken[] | undefined;
}

export class FlowWorkflow extends Workflow {
  readonly flowGraph: FlowGraph;
  readonly hasOutput = false;
  readonly reportsNodeErrors = false;
  override readonly keepsEvents = true;
  readonly reading;
  private readonly startId: string;
  private readonly maxSteps: number;
  /** The runs under way, by invocation. */
  private readonly runs = new Map<string, FlowRun>();

  constructor(name: string, graph: FlowGraph) {
    const steps = new Map(
      graph.flow.nodes.map((node) => [node.id, new FlowStep(node, () => this)] as const),
    );
    const startId = graph.flow.nodes.find((node) => node.type === 'start')!.id;
    const edges: Edge[] = [new Edge(START, steps.get(startId)!)];
    const seen = new Set<string>();
    const link = (from: string, to: string) => {
      const key = JSON.stringify([from, to]);
      if (seen.has(key) || !steps.has(from) || !steps.has(to)) return;
      seen.add(key);
      // Routed by the target's id: a node's route is the list of nodes it leads to.
      edges.push(new Edge(steps.get(from)!, steps.get(to)!, to));
    };
    // Only what the start node reaches is drawn in (a workflow refuses a node nothing reaches).
    const reached = (id: string) => id === startId || graph.reach(startId, id);
    for (const node of graph.flow.nodes) {
      if (node.type === 'loop' && reached(node.id)) link(node.id, node.to);
      for (const entry of graph.iterations.get(node.id) ?? []) link(node.id, entry);
      if (node.parent && reached(node.id)) link(node.id, node.parent);
    }
    for (const edge of graph.flow.edges) if (reached(edge.from)) link(edge.from, edge.to);
    super({
      name,
      ...(graph.flow.description ? { description: graph.flow.description } : {}),
      edges,
      subAgents: [...graph.agents.values()],
    });
    this.flowGraph = graph;
    this.startId = startId;
    this.maxSteps = graph.flow.maxSteps ?? DEFAULT_MAX_STEPS;
    this.reading = flowReading(name, new Set(steps.keys()));
  }

  get flow(): Flow {
    return this.flowGraph.flow;
  }

  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const counters = flowCounters(this.name, ctx.resumeEvents());
    this.runs.set(ctx.invocationId, {
      ...counters,
      completions: new Serial(),
      root: ctx.branch ? `${ctx.branch}.${this.name}` : this.name,
    });
    try {
      yield* super.runAsyncImpl(ctx);
    } finally {
      this.runs.delete(ctx.invocationId);
    }
    if (ctx.isPausedBelow() || ctx.endInvocation) return;
    yield this.createAgentStateEvent(ctx, { endOfAgent: true });
  }

  frontier(ctx: NodeContext): FlowFrontier {
    const run = this.runOf(ctx);
    const invocation = ctx.invocationContext;
    return new FlowFrontier(
      this.flowGraph.reach,
      this.startId,
      ctx.branch,
      run.root,
      () => invocation.endInvocation,
    );
  }

  runOf(ctx: NodeContext): FlowRun {
    const run = this.runs.get(ctx.invocationId);
    if (!run) throw new Error(`Flow ${this.name} is not running in ${ctx.invocationId}`);
    return run;
  }

  /** One node run between its checkpoint and its completion. */
  async *runStep(ctx: NodeContext, node: FlowNode, input: unknown): AsyncGenerator<Event, void> {
    const run = this.runOf(ctx);
    const invocation = ctx.invocationContext.forAgent(this, ctx.branch);
    if (!ctx.resumed) {
      if (run.steps >= this.maxSteps)
        throw new FlowStepLimitError(this.name, this.maxSteps, node.id);
      run.steps++;
      const state: NodeCheckpointState = {
        current_node: node.id,
        loop_counts: { ...run.loopCounts },
        step: run.steps,
      };
      yield this.createAgentStateEvent(invocation, { state });
      // Stored before the node runs: its agent reads its run from the checkpoint on.
      await ctx.channel.settled?.();
    }
    const result = yield* this.runBody(ctx, invocation, node, input, run);
    if (!result) return; // paused: the answer resumes it
    const token: FlowToken = {
      node: node.id,
      ...(ctx.branch !== invocationBranch(ctx) ? { branch: ctx.branch! } : {}),
    };
    // A node inside an Iteration with nowhere to go ends its item: back to the Iteration.
    if (node.parent && result.targets.length === 0) result.targets = [node.parent];
    const successors =
      result.tokens ?? successorTokens(token, result.targets, result.output, run.root);
    if (node.parent) this.backToIteration(invocation, node.parent, successors);
    const done = await run.completions.turn();
    try {
      const completion: NodeCompletionState = {
        completed_node: node.id,
        next: successors.map(withoutInput),
        loop_counts: { ...run.loopCounts },
        step: run.steps,
        ...(result.output !== undefined ? { output: result.output } : {}),
        ...(result.progress ? { iteration: result.progress } : {}),
      };
      const stateDelta = { ...result.stateDelta, ...this.updates(invocation, node, result.output) };
      yield invocation.createEvent({
        actions: createEventActions({ agentState: completion, stateDelta }),
      });
      await ctx.channel.settled?.();
    } finally {
      done();
    }
    ctx.output = result.output;
    ctx.route = result.targets;
    ctx.next = successors.map(withoutInput);
  }

  private async *runBody(
    ctx: NodeContext,
    invocation: InvocationContext,
    node: FlowNode,
    input: unknown,
    run: FlowRun,
  ): AsyncGenerator<Event, NodeResult | undefined> {
    const scope = flowScope(invocation, this.name, input, node.parent);
    const targets = (when?: string) =>
      (this.flowGraph.edges.get(node.id) ?? [])
        .filter((edge) => when === undefined || edge.when?.toLowerCase() === when.toLowerCase())
        .map((edge) => edge.to);
    switch (node.type) {
      case 'start':
        return yield* startStep(invocation, node, this.flow, targets(), scope);
      case 'condition':
        return { output: input, targets: targets(chooseOutput(node.rules, scope)) };
      case 'loop':
        return yield* loopStep(invocation, node, run.loopCounts, input, targets(), scope);
      case 'end':
        return { output: input, targets: [] };
      case 'humanInput': {
        const answered = yield* askHuman(ctx, invocation, node, input, scope);
        if (!answered) return undefined;
        const targets = (this.flowGraph.edges.get(node.id) ?? [])
          .filter((edge) => edge.when === (answered.proceed ? 'proceed' : 'reject'))
          .map((edge) => edge.to);
        return { output: answered.output, targets };
      }
      case 'reply': {
        const text = renderTemplate(node.message, scope);
        yield invocation.createEvent({
          author: node.id,
          content: { role: 'model', parts: [{ text }] },
        });
        return { output: text, targets: [] };
      }
      case 'iteration': {
        const step = iterate({
          nodeId: node.id,
          label: `Iteration ${node.label ?? node.id}`,
          list: () => evaluateTemplate(node.input, scope),
          input,
          progress: iterationProgress(
            invocation.activeView.peek(),
            this.name,
            node.id,
            invocation.invocationId,
          ),
          entries: this.flowGraph.iterations.get(node.id) ?? [],
          branch: ctx.branch !== invocationBranch(ctx) ? ctx.branch : undefined,
          root: run.root,
        });
        if (!step.progress) return { output: step.output, targets: targets() };
        // Each item is a run of its own: the loops inside count from 0 again (as in Flowise).
        for (const inside of this.flow.nodes)
          if (inside.parent === node.id && inside.type === 'loop') delete run.loopCounts[inside.id];
        return { output: step.output, targets: [], progress: step.progress, tokens: step.tokens };
      }
      case 'code':
        return {
          output: await runCodeNode(node, scope, invocation.session, invocation.runConfig.signal),
          targets: targets(),
        };
      case 'http':
        return {
          output: await runHttpNode(node, scope, invocation.runConfig.signal),
          targets: targets(),
        };
      case 'agent':
      case 'llm':
      case 'tool':
      case 'toolCall':
      case 'subflow':
      case 'retriever':
      case 'conditionAgent': {
        const unready = this.flowGraph.unready?.get(node.id);
        if (unready) throw unready;
        const agent = this.flowGraph.agents.get(node.id)!;
        // A run that goes on after a pause or a cut picks up after its checkpoint.
        const child = invocation.resuming(ctx.resumed ? ctx.resumed.from + 1 : undefined);
        for await (const event of agent.runAsync(child)) {
          yield event;
          // Taken (and stored) before the agent goes on: it reads the session's events for its
          // next step, and a Stop cuts its answer where the reader had it.
          await ctx.channel.settled?.();
        }
        if (child.isPausedBelow() || invocation.endInvocation) {
          if (ctx.interruptIds.length === 0)
            ctx.interruptIds.push(
              ...(ctx.resumed?.open.length ? ctx.resumed.open : [`flow:${node.id}`]),
            );
          return undefined;
        }
        const events = invocation.activeView.peek();
        const output = nodeOutput(node, events, this.name, invocation.branch);
        if (
          node.type === 'tool' &&
          node.endWithoutCalls &&
          !ranCalls(node, events, this.name, invocation.branch)
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

  /** Tokens back to the Iteration a node is inside run on the Iteration's own branch. */
  private backToIteration(ctx: InvocationContext, parent: string, tokens: FlowToken[]): void {
    const progress = iterationProgress(ctx.activeView.peek(), this.name, parent, ctx.invocationId);
    for (const token of tokens) {
      if (token.node !== parent) continue;
      if (progress?.branch) token.branch = progress.branch;
      else delete token.branch;
    }
  }
}

/** One node of a flow, as a node of its workflow: what it does is its flow's `runStep`. */
class FlowStep implements GraphNode {
  readonly [NODE_BRAND] = true as const;
  readonly name: string;
  /** A run that did not finish goes on from its own events (no second checkpoint). */
  readonly rerunOnResume = true;
  readonly waitForOutput = false;
  readonly requiresAllPredecessors = false;
  readonly keepsEvents = true;

  constructor(
    readonly node: FlowNode,
    private readonly flow: () => FlowWorkflow,
  ) {
    this.name = node.id;
  }

  run(ctx: NodeContext, input: unknown): AsyncGenerator<Event, void> {
    return this.flow().runStep(ctx, this.node, input);
  }
}

/** The branch the flow itself runs on (a node on it has no branch of its own). */
function invocationBranch(ctx: NodeContext): string | undefined {
  return ctx.invocationContext.branch;
}

/** Tokens as a completion records them: the output is recorded once, beside them. */
function withoutInput({ input: _input, ...token }: FlowToken): FlowToken {
  return token;
}
