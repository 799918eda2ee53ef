// State scopes and deltas.
//
// A key `app:x` is shared by every session of the app, `user:x` by every session of the user,
// `temp:x` lives only for the current invocation and is never stored; any other key belongs to the
// session. A delta value `null` removes the key. States are treated as immutable: every function
// here returns a new object.
//
// Any string is a key, `__proto__`, `constructor` and `valueOf` included: states and deltas are
// plain objects (they cross structured clone, IndexedDB and JSON as they are), so every read here
// is of an own property (`ownValue`, `hasOwnKey`) and every write defines one (`setOwn`), never
// `record[key]`, which would reach Object.prototype or call its `__proto__` setter.

export type State = Readonly<Record<string, unknown>>;
export type StateDelta = Readonly<Record<string, unknown>>;

export const StatePrefix = { app: 'app:', user: 'user:', temp: 'temp:' } as const;

export type StateScope = 'app' | 'user' | 'temp' | 'session';

export function scopeOf(key: string): StateScope {
  if (key.startsWith(StatePrefix.app)) return 'app';
  if (key.startsWith(StatePrefix.user)) return 'user';
  if (key.startsWith(StatePrefix.temp)) return 'temp';
  return 'session';
}

/** Whether `record` has `key` of its own (an inherited `constructor` does not count). */
export function hasOwnKey(record: object | undefined, key: string): boolean {
  return record !== undefined && Object.hasOwn(record, key);
}

/** The value of `record`'s own `key`, or `undefined` (never an inherited one). */
export function ownValue(record: object | undefined, key: string): unknown {
  return record !== undefined && Object.hasOwn(record, key)
    ? (record as Record<string, unknown>)[key]
    : undefined;
}

/** Sets `record`'s own `key`, as JSON.parse and structured clone would (`__proto__` included). */
export function setOwn(record: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export type ScopedDeltas = Record<StateScope, Record<string, unknown>>;

/** Splits a delta by scope; keys keep their prefixes. */
export function splitDelta(delta: StateDelta): ScopedDeltas {
  const parts: ScopedDeltas = { app: {}, user: {}, temp: {}, session: {} };
  for (const [key, value] of Object.entries(delta)) setOwn(parts[scopeOf(key)], key, value);
  return parts;
}

/** The delta without its `temp:` keys: what gets stored. */
export function withoutTemp(delta: StateDelta): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(delta))
    if (scopeOf(key) !== 'temp') setOwn(kept, key, value);
  return kept;
}

export function hasKeys(record: object | undefined): boolean {
  if (!record) return false;
  for (const _ in record) return true;
  return false;
}

/** `state` with `delta` applied: `null` removes a key, anything else sets it. */
export function applyDelta(state: State, delta: StateDelta | undefined): Record<string, unknown> {
  const next: Record<string, unknown> = { ...state };
  if (!delta) return next;
  for (const [key, value] of Object.entries(delta)) {
    if (value === null) delete next[key];
    else setOwn(next, key, value);
  }
  return next;
}

/** The delta that turns `from` into `to` (removed keys become `null`). */
export function diffState(from: State, to: State): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  for (const key of Object.keys(from)) if (!Object.hasOwn(to, key)) setOwn(delta, key, null);
  for (const [key, value] of Object.entries(to)) {
    if (!Object.hasOwn(from, key) || !sameValue(from[key], value)) setOwn(delta, key, value);
  }
  return delta;
}

/** Structural equality of plain JSON-like values. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  for (const key of aKeys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])) {
      return false;
    }
  }
  return true;
}

/** What `session.state` shows: session keys, then app and user keys (with their prefixes). */
export function mergeScopes(app: State, user: State, session: State): Record<string, unknown> {
  // Spread copies own properties as own properties (`__proto__` too).
  return { ...session, ...app, ...user };
}

/**
 * State as a tool or a workflow node sees it while it runs: reads see its own pending changes
 * first; writes go into `delta`, the state delta of the event it will write (so they are logged,
 * and rewind can undo them). Own keys only, so that `__proto__` or `constructor` is a key like
 * any other; a key set to `undefined` is removed (`null` in the delta, as ADK writes it).
 */
export interface StateView {
  get<T = unknown>(key: string, defaultValue?: T): T | undefined;
  set(key: string, value: unknown): void;
  has(key: string): boolean;
  /** Sets every key of `changes`. */
  update(changes: Readonly<Record<string, unknown>>): void;
  /** The whole state as seen now. */
  toRecord(): Record<string, unknown>;
}

export function stateView(base: () => State, delta: Record<string, unknown>): StateView {
  return new DeltaStateView(base, delta);
}

/**
 * One object per view, its methods shared (a view is made for every callback's and tool's
 * context, several a turn: closures per view were garbage the collector paid for).
 */
class DeltaStateView implements StateView {
  readonly #base: () => State;
  readonly #delta: Record<string, unknown>;

  constructor(base: () => State, delta: Record<string, unknown>) {
    this.#base = base;
    this.#delta = delta;
  }

  get<T>(key: string, defaultValue?: T): T | undefined {
    const delta = this.#delta;
    const value = hasOwnKey(delta, key) ? delta[key] : ownValue(this.#base(), key);
    return (value === null || value === undefined ? defaultValue : value) as T | undefined;
  }

  set(key: string, value: unknown): void {
    setOwn(this.#delta, key, value === undefined ? null : value);
  }

  has(key: string): boolean {
    const delta = this.#delta;
    return hasOwnKey(delta, key) ? delta[key] !== null : hasOwnKey(this.#base(), key);
  }

  update(changes: Readonly<Record<string, unknown>>): void {
    for (const [key, value] of Object.entries(changes)) this.set(key, value);
  }

  toRecord(): Record<string, unknown> {
    const merged: Record<string, unknown> = { ...this.#base() };
    for (const [key, value] of Object.entries(this.#delta)) {
      if (value === null) delete merged[key];
      else setOwn(merged, key, value);
    }
    return merged;
  }
}
