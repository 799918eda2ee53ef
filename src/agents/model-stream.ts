// A model's stream of responses with its waits between them: a model tells of a wait to try its
// provider again through a callback (GenerateOptions.onWait), and a generator cannot yield from
// a callback, so the waits queue up here and come out in the stream as soon as they are told,
// while the model's next response is still awaited.
//
// Invariants:
// - responses and waits come in the order they happened; nothing is dropped;
// - an error of the model (its AbortError on Stop included) comes out as it is, at once;
// - closing the stream early closes the model's, without waiting for a response in flight.

import type { ModelWait } from '../core/model-wait.ts';

export type ModelStreamItem<T> = { response: T } | { wait: ModelWait };

export async function* withModelWaits<T>(
  start: (onWait: (wait: ModelWait) => void) => AsyncIterable<T>,
): AsyncGenerator<ModelStreamItem<T>, void> {
  const waits: ModelWait[] = [];
  let wake: (() => void) | undefined;
  const iterator = start((wait) => {
    waits.push(wait);
    wake?.();
  })[Symbol.asyncIterator]();
  let pending: Promise<IteratorResult<T>> | undefined;
  try {
    for (;;) {
      pending ??= iterator.next();
      const woken = new Promise<undefined>((resolve) => (wake = () => resolve(undefined)));
      const result = waits.length > 0 ? undefined : await Promise.race([pending, woken]);
      wake = undefined;
      while (waits.length > 0) yield { wait: waits.shift()! };
      if (!result) continue;
      pending = undefined;
      if (result.done) return;
      yield { response: result.value };
    }
  } finally {
    if (pending) {
      // Why ignore: the stream was closed while a response was awaited; what it ends with
      // (its AbortError, most likely) has no reader any more.
      pending.catch(() => undefined);
      void iterator.return?.()?.catch(() => undefined);
    } else {
      await iterator.return?.();
    }
  }
}
