// How one node runs under its parent: a context of its own, its events marked with where they
// come from (ADK's nodeInfo, its branch, the calls it waits on), retries by its RetryConfig, and
// `ctx.runNode` (a node run from inside another, numbered per name, replayed on resume).

import { InvalidRequestError, NodeTimeoutError, messageOf } from '../core/errors.ts';
import { isReported } from '../agents/base-agent.ts';
import { createEvent, type Event } from '../core/event.ts';
import {
  NodeContext,
  type EventChannel,
  type ResumedRun,
  type RunNodeOptions,
} from './node-context.ts';
import { answersOf, priorRunsByPath, type PriorRun } from './node-runs.ts';
import { isNodeLike, node } from './build-node.ts';
import type { GraphNode } from './nodes.ts';
import { retryDelaySeconds, shouldRetry, sleep } from './retry.ts';
import { pluginsOf } from '../plugins/plugin-manager.ts';

export interface ChildOptions {
  runId?: string;
  useSubBranch?: boolean;
  branch?: string | undefined;
  /** The child's path, when not its parent's and its name (a dynamic run: `name@run`). */
  nodePath?: string;
  /** The child's output is its parent's too (the root workflow's, ADK's `useAsOutput`). */
  useAsOutput?: boolean;
  /** The run goes on from one that paused inside (see `goesOn`). */
  resumed?: ResumedRun | undefined;
}

/** Thrown by `ctx.runNode` when the node it ran waits for a human: the caller waits too. */
class NodeInterrupted extends Error {
  override readonly name = 'NodeInterrupted';
}

/** Runs one node under `parent`: its events, marked with where they come from, to the channel. */
export async function runChild(
  parent: NodeContext,
  node: GraphNode,
  input: unknown,
  options: ChildOptions,
  channel: EventChannel = parent.channel,
): Promise<NodeContext> {
  const runId = options.runId ?? node.name;
  const nodePath =
    options.nodePath ?? (parent.nodePath ? `${parent.nodePath}.${node.name}` : node.name);
  const branch =
    options.branch !== undefined
      ? options.branch
      : options.useSubBranch
        ? [parent.branch, `${node.name}@${runId}`].filter(Boolean).join('.')
        : parent.branch;
  const signal = parent.invocationContext.runConfig.signal;
  const tracer = parent.invocationContext.tracer;
  const spanParent = { span: parent.span ?? parent.invocationContext.span, branch };
  let child: NodeContext;
  let inputRecorded = false;
  const plugins = pluginsOf(parent.invocationContext);
  const nodePlugins = plugins?.watchesNodes ? plugins : undefined;
  let skipped = false;
  for (let attempt = 1; ; attempt++) {
    // One span per attempt: a retried node shows each of its tries.
    const span = tracer?.node(spanParent, nodePath, attempt);
    const deadline = node.timeout ? new Deadline(node.name, node.timeout) : undefined;
    child = new NodeContext({
      span,
      invocationContext: deadline
        ? parent.invocationContext.withSignal(deadline.signal)
        : parent.invocationContext,
      channel,
      nodePath,
      runId,
      branch,
      outputForAncestors: options.useAsOutput
        ? [parent.nodePath, ...parent.outputForAncestors].filter((p) => p !== '')
        : [],
      runChildNode: runDynamic,
      resumed: options.resumed,
    });
    child.attemptCount = attempt;
    if (nodePlugins && attempt === 1) {
      const given = await nodePlugins.runBeforeNodeCallback({ node, nodeContext: child, input });
      if (given !== undefined) {
        channel.push(outputEvent(child, node.name, given, input));
        skipped = true;
        if (span) tracer?.end(span);
        break;
      }
    }
    try {
      const events = node.run(child, input);
      for await (const event of deadline ? deadline.race(events) : events) {
        if (node.keepsEvents) noteInterrupts(event, child);
        else
          inputRecorded =
            markEvent(event, child, node.name, nodePath, branch, input) || inputRecorded;
        channel.push(event);
      }
      deadline?.clear();
      if (span) tracer?.end(span);
      break;
    } catch (error) {
      deadline?.clear();
      if (error instanceof NodeInterrupted) {
        if (span) tracer?.end(span);
        break;
      }
      // Marked where it happened: a failure an agent below reported ends this span unmarked.
      if (span)
        tracer?.end(
          span,
          error instanceof Error && isReported(error) ? undefined : messageOf(error),
        );
      if (parent.invocationContext.isCancellation(error)) throw error;
      const retry = node.retryConfig;
      if (!retry || !shouldRetry(error, retry, attempt)) throw error;
      await sleep(retryDelaySeconds(retry, attempt) * 1000, signal);
    }
  }
  if (nodePlugins && !skipped && child.interruptIds.length === 0) {
    const output = child.output;
    const replaced = await nodePlugins.runAfterNodeCallback({ node, nodeContext: child, output });
    if (replaced !== undefined && replaced !== output)
      channel.push(outputEvent(child, node.name, replaced, input));
  }
  if (!inputRecorded && !node.keepsEvents && child.interruptIds.length > 0) {
    // A node that waits because nodes inside it do (a workflow): one event of its own says so.
    const paused = createEvent({
      invocationId: child.invocationId,
      author: node.name,
      ...(branch !== undefined ? { branch } : {}),
      longRunningToolIds: [...child.interruptIds],
      actions: { agentState: { input } },
    });
    paused.nodeInfo = { path: nodePath };
    channel.push(paused);
  }
  if (options.useAsOutput) {
    parent.output = child.output;
    parent.route = child.route;
  }
  return child;
}

/**
 * An attempt's time limit (a node's `timeout`): past it, what the node is doing is aborted (its
 * context's signal) and the attempt fails with a NodeTimeoutError, even if the node does not
 * listen for the signal.
 */
class Deadline {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly expired: Promise<never>;

  constructor(nodeName: string, seconds: number) {
    let fail!: (error: Error) => void;
    this.expired = new Promise<never>((_, reject) => (fail = reject));
    // Nobody may be waiting when it fires (the node finished a moment before).
    this.expired.catch(() => undefined);
    this.timer = setTimeout(() => {
      const error = new NodeTimeoutError(nodeName, seconds);
      this.controller.abort(error);
      fail(error);
    }, seconds * 1000);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  clear(): void {
    clearTimeout(this.timer);
  }

  /** The node's events until the deadline; then its generator is closed and the attempt fails. */
  async *race(events: AsyncGenerator<Event, void>): AsyncGenerator<Event, void> {
    try {
      for (;;) {
        const next = await Promise.race([events.next(), this.expired]);
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // Not awaited: a node that ignores the signal may never settle.
      events.return(undefined).catch(() => undefined);
    }
  }
}

/** Marks a node's event with where it comes from; true when it records the node's input. */
function markEvent(
  event: Event,
  child: NodeContext,
  name: string,
  nodePath: string,
  branch: string | undefined,
  input: unknown,
): boolean {
  event.author ||= name;
  event.nodeInfo = { ...event.nodeInfo, path: nodePath };
  if (event.output !== undefined) {
    event.nodeInfo.outputFor = [nodePath, ...child.outputForAncestors];
    child.output = event.output;
  }
  if (event.route !== undefined) child.route = event.route;
  if (branch !== undefined && event.branch === undefined) event.branch = branch;
  if (!event.longRunningToolIds?.length) return false;
  noteInterrupts(event, child);
  // The input the node waits with, as ADK records it for a node run again on resume.
  event.actions.agentState = { ...event.actions.agentState, input };
  return true;
}

/**
 * An output a plugin gave the node (before it ran, instead of running it; or after, replacing
 * its own): recorded as an event of the node with no content, so a resume reads it back as the
 * node's output. ADK 2.0 only sets it on the node's context, which a resume does not see.
 */
function outputEvent(child: NodeContext, name: string, output: unknown, input: unknown): Event {
  const event = createEvent({
    invocationId: child.invocationId,
    author: name,
    ...(child.branch !== undefined ? { branch: child.branch } : {}),
  });
  event.output = output;
  markEvent(event, child, name, child.nodePath, child.branch, input);
  return event;
}

/** The calls an event of the node waits on: they pause it. */
function noteInterrupts(event: Event, child: NodeContext): void {
  for (const id of event.longRunningToolIds ?? []) {
    if (!child.interruptIds.includes(id)) child.interruptIds.push(id);
  }
}

/**
 * `ctx.runNode`: a node run from inside another (ADK's dynamic run). Its path is the caller's,
 * then `name@run` (runs numbered per name in the caller); on resume, a run the log shows finished
 * is not run again. A run that waits for a human makes its caller wait too.
 */
async function runDynamic(
  parent: NodeContext,
  nodeLike: unknown,
  input: unknown,
  options: RunNodeOptions = {},
): Promise<NodeContext> {
  if (!isNodeLike(nodeLike))
    throw new InvalidRequestError('ctx.runNode takes a node or a function');
  const built = node(nodeLike);
  const name = options.nodeName ?? built.name;
  let runId = options.runId;
  if (runId === undefined) {
    const next = (parent.dynamicRuns.get(name) ?? 0) + 1;
    parent.dynamicRuns.set(name, next);
    runId = String(next);
  }
  const nodePath = parent.nodePath ? `${parent.nodePath}.${name}@${runId}` : `${name}@${runId}`;
  const log = parent.invocationContext.resumeEvents();
  const prior = priorRunsByPath(log).get(nodePath);
  const answers = answersOf(log.map((e) => e.event));
  let child: NodeContext | undefined;
  if (prior) child = replayed(parent, nodePath, runId, prior, built, answers);
  child ??= await runChild(parent, built, input, {
    runId,
    nodePath,
    resumed: prior && goesOn(prior, built, answers),
    ...(options.useSubBranch ? { useSubBranch: true } : {}),
    ...(options.useAsOutput ? { useAsOutput: true } : {}),
  });
  if (options.useAsOutput) {
    parent.output = child.output;
    parent.route = child.route;
  }
  if (child.interruptIds.length > 0) {
    for (const id of child.interruptIds) {
      if (!parent.interruptIds.includes(id)) parent.interruptIds.push(id);
    }
    throw new NodeInterrupted(`${nodePath} waits for an answer`);
  }
  return child;
}

/**
 * For a node that runs again on resume (an agent), the run it goes on from, when that run did
 * not finish (a call waiting on a human, Stop, a crash): its events are where the agent picks up.
 */
export function goesOn(
  prior: PriorRun,
  node: GraphNode,
  answers: ReadonlyMap<string, unknown>,
): ResumedRun | undefined {
  if (!node.rerunOnResume || prior.from === undefined) return undefined;
  if (prior.output !== undefined || prior.route !== undefined) return undefined;
  return { from: prior.from, open: [...prior.interruptIds].filter((id) => !answers.has(id)) };
}

/** A node's run as the log has it, if it need not run again (see GraphRun.replay). */
export function replayed(
  parent: NodeContext,
  nodePath: string,
  runId: string,
  prior: PriorRun,
  node: GraphNode,
  answers: ReadonlyMap<string, unknown>,
  branch: string | undefined = parent.branch,
): NodeContext | undefined {
  const answered = [...prior.interruptIds].every((id) => answers.has(id));
  let output = prior.output;
  if (prior.output === undefined && prior.route === undefined) {
    if (node.rerunOnResume || prior.interruptIds.size === 0 || !answered) return undefined;
    const values = [...prior.interruptIds].map((id) => answers.get(id));
    output = values.length === 1 ? values[0] : values;
  } else if (!answered) {
    return undefined;
  }
  const child = new NodeContext({
    invocationContext: parent.invocationContext,
    channel: parent.channel,
    nodePath,
    runId,
    branch: prior.branch ?? branch ?? parent.branch,
    runChildNode: runDynamic,
  });
  child.output = output;
  child.route = prior.route;
  child.next = prior.next;
  return child;
}
