// Long state values, kept out of line in IndexedDB: a session-scoped state value whose size is
// over LONG_VALUE_CHARS is written once, to the `longValues` store, and the session record and
// the checkpoints name it by id instead of holding it. The session record is rewritten at every
// event and a checkpoint is written at every invocation, so a 1 MB value held inline would be
// read, compared and written again at each of them; out of line, a turn that leaves it alone
// costs what it costs with a short value.
//
// Invariants:
// - in memory (what the service caches and hands out), a record's `state` is whole and its
//   `long` names the id of each long key's value; as stored, its `state` lacks the long keys;
// - a long value is immutable: a key set again gets a new id (its old value stays, for the
//   checkpoints that name it, until the session is deleted);
// - an id is reused only for the very value it was written for (the same object or string, by
//   identity), so nothing can name a value other than the one it stood for.

import { setOwn } from '../core/state.ts';
import { Stores, type LongIds, type LongValueRecord } from './database.ts';
export type { LongIds, LongValueRecord } from './database.ts';
import { deepFreeze } from './session-log.ts';

/** A value over this many characters (strings; JSON-ish size for the rest) is kept out of line. */
export const LONG_VALUE_CHARS = 8_192;

/** A state as it is stored: its short values inline, the long ones by id. */
export interface StoredState {
  state: Record<string, unknown>;
  long?: LongIds;
}

/** A state in memory: whole, and the ids its long values were stored under. */
export interface HeldState {
  state: Record<string, unknown>;
  long?: LongIds;
}

const measured = new WeakMap<object, boolean>();

/** Whether `value` is long; an object's walk stops as soon as it is known to be. */
export function isLong(value: unknown): boolean {
  if (typeof value === 'string') return value.length > LONG_VALUE_CHARS;
  if (typeof value !== 'object' || value === null) return false;
  const known = measured.get(value);
  if (known !== undefined) return known;
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= LONG_VALUE_CHARS) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (typeof item !== 'object' || item === null) size += 8;
    else if (ArrayBuffer.isView(item)) size += item.byteLength;
    else if (item instanceof ArrayBuffer) size += item.byteLength;
    else
      for (const key of Object.keys(item)) {
        size += key.length + 4;
        stack.push((item as Record<string, unknown>)[key]);
      }
  }
  const long = size > LONG_VALUE_CHARS;
  measured.set(value, long);
  return long;
}

/** A long value to write: under `id`, for its session. */
export interface FreshLongValue {
  id: string;
  value: unknown;
}

/**
 * How `state` is stored, given `previous` (the held state it was derived from, whose long values
 * are already stored): long values it shares with `previous` keep their ids; new ones get fresh
 * ids and are returned to be written.
 */
export function storedStateOf(
  state: Record<string, unknown>,
  previous: HeldState | undefined,
): { stored: StoredState; held: HeldState; fresh: FreshLongValue[] } {
  const inline: Record<string, unknown> = {};
  const long: LongIds = {};
  const fresh: FreshLongValue[] = [];
  for (const key of Object.keys(state)) {
    const value = state[key];
    const same =
      previous !== undefined && Object.hasOwn(previous.state, key) && previous.state[key] === value;
    const previousId =
      same && previous.long && Object.hasOwn(previous.long, key) ? previous.long[key] : undefined;
    if (previousId !== undefined) setOwn(long, key, previousId);
    else if (isLong(value)) {
      const id = crypto.randomUUID();
      fresh.push({ id, value });
      setOwn(long, key, id);
    } else setOwn(inline, key, value);
  }
  const hasLong = Object.keys(long).length > 0;
  return {
    stored: hasLong ? { state: inline, long } : { state: inline },
    held: hasLong ? { state, long } : { state },
    fresh,
  };
}

/** The stored form of a held state whose long values are all stored already. */
export function storedFormOf(held: HeldState): StoredState {
  if (!held.long) return { state: held.state };
  const inline: Record<string, unknown> = {};
  for (const key of Object.keys(held.state))
    if (!Object.hasOwn(held.long, key)) setOwn(inline, key, held.state[key]);
  return { state: inline, long: held.long };
}

/** What reading long values needs: the store, in some transaction that spans it. */
export interface LongValueReader {
  objectStore(name: typeof Stores.longValues): {
    get(key: [string, string, string, string]): Promise<LongValueRecord | undefined>;
  };
}

/**
 * The long values read or written lately, by session and id. They never change and their ids are
 * never reused, so a cached one is always right, whichever database it came from. Bounded by
 * count: a record in memory holds its values anyway.
 */
const cache = new Map<string, unknown>();
const CACHE_CAPACITY = 16;

const cacheKeyOf = (appName: string, userId: string, sessionId: string, id: string) =>
  JSON.stringify([appName, userId, sessionId, id]);

function remember(key: string, value: unknown): void {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > CACHE_CAPACITY) cache.delete(cache.keys().next().value!);
}

/** Forgets every cached long value (tests: to read them from the store). */
export function forgetLongValues(): void {
  cache.clear();
}

/** Notes long values just written for session `scope`, so that reading them back is free. */
export function rememberLongValues(
  scope: { appName: string; userId: string; sessionId: string },
  fresh: readonly FreshLongValue[],
): void {
  for (const { id, value } of fresh)
    remember(cacheKeyOf(scope.appName, scope.userId, scope.sessionId, id), value);
}

/**
 * The held state of a stored one of session `scope`: its long values from the cache or read in
 * `tx`. A value missing from the store is a broken database, said as such.
 */
export async function heldStateOf(
  tx: LongValueReader,
  scope: { appName: string; userId: string; sessionId: string },
  stored: StoredState,
): Promise<HeldState> {
  if (!stored.long) return { state: stored.state };
  const { appName, userId, sessionId } = scope;
  const long = stored.long;
  const state: Record<string, unknown> = { ...stored.state };
  const values = await Promise.all(
    Object.keys(long).map(async (key) => {
      const id = long[key]!;
      const cacheKey = cacheKeyOf(appName, userId, sessionId, id);
      if (cache.has(cacheKey)) {
        const value = cache.get(cacheKey);
        remember(cacheKey, value);
        return [key, value] as const;
      }
      const found = await tx.objectStore(Stores.longValues).get([appName, userId, sessionId, id]);
      if (!found) throw new Error(`Bug: the long state value ${id} of ${sessionId} is missing`);
      // Handed to every reader, as the log's events are: frozen.
      const value = deepFreeze(found.value);
      remember(cacheKey, value);
      return [key, value] as const;
    }),
  );
  for (const [key, value] of values) setOwn(state, key, value);
  return { state, long };
}
