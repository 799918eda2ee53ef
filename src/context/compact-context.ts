// Where an LlmAgent's context compactors run (ADK's ContextCompactorRequestProcessor): before
// each model call, before its contents are built. The first compactor that should compact does,
// and its compaction event is yielded, for the runner to store before the request is built
// (so the request already starts with its summary).

import { ContextCompactionError, messageOf } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseContextCompactor } from './base-context-compactor.ts';
import { pluginsOf } from '../plugins/plugin-manager.ts';

/**
 * Runs the first of `compactors` that should compact. A compactor that fails leaves nothing
 * behind (its event is only yielded once whole) and ends the invocation with a
 * ContextCompactionError; Stop during a summary ends it as cancelled, with nothing written.
 */
export async function* compactContext(
  compactors: readonly BaseContextCompactor[],
  ctx: InvocationContext,
): AsyncGenerator<Event, void> {
  for (const compactor of compactors) {
    if (!(await compactor.shouldCompact(ctx))) continue;
    // The runner's plugins hear of it (ADK's before/afterContextCompaction).
    const plugins = pluginsOf(ctx);
    const around = { invocationContext: ctx, trigger: compactor.trigger ?? 'Auto' } as const;
    await plugins?.runContextCompactionCallback('before', around);
    let event: Event | undefined;
    try {
      event = await compactor.compact(ctx);
    } catch (thrown) {
      if (ctx.isCancellation(thrown)) throw thrown;
      throw new ContextCompactionError(
        `Context compaction failed, so nothing was compacted: ${messageOf(thrown)}`,
        { cause: thrown },
      );
    }
    await plugins?.runContextCompactionCallback('after', around);
    if (event) yield event;
    return;
  }
}
