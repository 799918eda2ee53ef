// A flow's Execute Flow node (`subflow`, Flowise V2's): another flow, compiled with its node ids
// and its name prefixed by the node's id (so its events are told from the outer flow's, and two
// nodes running one flow are told apart), run as the node's agent on a branch of its own, asked
// the node's input. Its checkpoints are its own, so a run cut off inside it goes on inside it.

import { textOf } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { BaseAgent } from '../agents/base-agent.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { runStartIndex } from './flow-events.ts';
import type { Flow } from './flow.ts';

/** The branch a subflow node's flow runs on. */
export function subflowBranch(branch: string | undefined, flowName: string, nodeId: string) {
  return `${branch ?? flowName}.${nodeId}`;
}

export class SubflowAgent extends BaseAgent {
  constructor(
    name: string,
    private readonly inner: BaseAgent,
    private readonly flowName: string,
    /** What the inner flow is asked; undefined: this turn's message. */
    private readonly input: (ctx: InvocationContext) => string | undefined,
  ) {
    super({ name, subAgents: [inner] });
  }

  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const text = this.input(ctx);
    const branch = subflowBranch(ctx.branch, this.flowName, this.name);
    const own = ctx.forAgent(this, branch);
    if (text === undefined) {
      yield* this.inner.runAsync(own);
      return;
    }
    // What it asks is in the log, where the other flow's nodes (on its branch) see it; the other
    // flow's `{{question}}` is it.
    if (!ctx.isResuming) yield own.createEvent({ content: { role: 'user', parts: [{ text }] } });
    yield* this.inner.runAsync(own.withUserContent({ role: 'user', parts: [{ text }] }));
  }
}

/** The answer of a subflow node's latest run: the last thing its flow said. */
export function subflowAnswer(
  events: readonly Event[],
  flowName: string,
  nodeId: string,
  branch: string | undefined,
): string | undefined {
  const own = subflowBranch(branch, flowName, nodeId);
  const said = events
    .slice(runStartIndex(events, flowName, nodeId, branch) + 1)
    .findLast(
      (event) =>
        !event.partial &&
        event.content?.role === 'model' &&
        (event.branch === own || event.branch?.startsWith(`${own}.`)) &&
        textOf(event.content) !== '',
    );
  return said ? textOf(said.content) : undefined;
}

/**
 * The flow a subflow node runs, its ids prefixed with `<node id>__` (edges, loop targets,
 * Iteration parents and `{{nodes.x}}` templates too) and its name made `<node id>__<name>`.
 */
export function prefixedFlow(flow: Flow, nodeId: string): Flow {
  const prefix = `${nodeId}__`;
  const id = (old: string) => `${prefix}${old}`;
  const text = (value: string) =>
    value.replace(
      /\{\{(\s*)nodes\.([A-Za-z0-9_-]+)/g,
      (_, space: string, node: string) => `{{${space}nodes.${id(node)}`,
    );
  const deep = (value: unknown): unknown =>
    typeof value === 'string'
      ? text(value)
      : Array.isArray(value)
        ? value.map(deep)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, deep(v)]))
          : value;
  return {
    ...flow,
    name: `${prefix}${flow.name}`,
    nodes: flow.nodes.map((node) => ({
      ...(deep(node) as typeof node),
      id: id(node.id),
      ...(node.parent ? { parent: id(node.parent) } : {}),
      ...(node.type === 'loop' ? { to: id(node.to) } : {}),
    })) as Flow['nodes'],
    edges: flow.edges.map((edge) => ({ ...edge, from: id(edge.from), to: id(edge.to) })),
  };
}
