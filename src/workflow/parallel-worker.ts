// ADK 2.0's ParallelWorker: one node run once per item of a list, a few at a time.

import { InvalidRequestError } from '../core/errors.ts';
import type { NodeContext } from './node-context.ts';
import { node, type NodeLike } from './build-node.ts';
import { BaseNode, type GraphNode, type NodeItem } from './nodes.ts';

/**
 * Runs its node once per item of its input (an array; anything else is one item), at most
 * `maxParallelWorkers` (8) at a time, each on a branch and path of its own (`name@i`); its output
 * is their outputs, in the items' order (ADK's `ParallelWorker`).
 */
export class ParallelWorker extends BaseNode {
  readonly inner: GraphNode;
  readonly maxParallelWorkers: number | undefined;

  constructor(inner: NodeLike, options: { maxParallelWorkers?: number } = {}) {
    const built = node(inner);
    super({ name: built.name, rerunOnResume: true });
    if (options.maxParallelWorkers !== undefined && !(options.maxParallelWorkers >= 1)) {
      throw new InvalidRequestError('maxParallelWorkers is at least 1');
    }
    this.inner = built;
    this.maxParallelWorkers = options.maxParallelWorkers;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<NodeItem, void> {
    const items = Array.isArray(input) ? input : [input];
    if (items.length === 0) {
      yield [];
      return;
    }
    const results = new Array<unknown>(items.length);
    let next = 0;
    let failure: { error: unknown } | undefined;
    let waiting = false;
    const worker = async () => {
      while (!failure && !waiting) {
        const i = next++;
        if (i >= items.length) return;
        try {
          const child = await ctx.runNode(this.inner, items[i], {
            useSubBranch: true,
            runId: String(i),
          });
          results[i] = child.output;
        } catch (error) {
          // A run that waits for a human makes the worker wait (runNode says so in ctx).
          if (ctx.interruptIds.length > 0) waiting = true;
          else failure ??= { error };
          return;
        }
      }
    };
    const pool = Math.min(this.maxParallelWorkers ?? 8, items.length);
    await Promise.all(Array.from({ length: pool }, worker));
    if (failure) throw failure.error;
    if (waiting) return;
    yield results;
  }
}
