// Small helpers shared by the tests.

import { createUserContent } from '../../src/index.ts';

/** Everything a stream yields, in order. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream) items.push(item);
  return items;
}

/** A user message with this text. */
export const userMessage = createUserContent;

/** A database name no other test uses. */
export function freshDbName(): string {
  return `trellis-test-${crypto.randomUUID()}`;
}

/** The rejection of a promise (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('Expected the promise to reject, but it resolved');
}

/** A promise with its resolve function, for making concurrent steps wait on each other. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
