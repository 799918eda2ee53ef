// The contents of a request lent to a model instead of copied: the first `length` contents of an
// array that only ever grows at its end (contents-cache's), seen through a view that never
// shows what is appended later and that becomes an array of its own at the first change.
//
// A copy of the whole conversation per model call made a turn's overhead grow with the session;
// a view costs O(1) to make, O(1) to index, and O(length) only for who changes it (once).
//
// Invariants:
// - nobody changes the first `length` contents of the shared array: the cache only appends, and
//   a view never writes to it (a change goes to the view's own copy);
// - a view shows the shared array's first `length` contents until its first change, and an
//   ordinary array of its own (the proxy's target, filled then) from that change on: a request
//   a model keeps shows what it was sent with, whatever later requests do, and a change to it
//   never reaches the next request.
//
// A view is a Proxy, so it is not structured-clonable and devtools show it as one: it is lent
// only to our own models that keep requests for code to read them (ScriptedModel, DemoModel),
// never to another BaseLlm, which may post its request to a worker (see llm-call.ts).

import type { Content } from '../core/content.ts';

/** Node's hook for `console.log` and `util.inspect` (they show a proxy's target, not its traps). */
const INSPECT = Symbol.for('nodejs.util.inspect.custom');

/** A view of the first `length` contents of `shared`, which may grow but never otherwise change. */
export function lendContents(shared: readonly Content[], length: number): Content[] {
  const own: Content[] = [];
  Object.defineProperty(own, INSPECT, {
    configurable: true,
    value(this: Content[], _depth: number, options: object, inspect: Inspect) {
      return inspect(Array.from(this), options);
    },
  });
  return new Proxy(own, new LentContents(shared, length));
}

type Inspect = (value: unknown, options: object) => string;

/** The traps: reads of the shared contents until the first change, the target's after it. */
class LentContents implements ProxyHandler<Content[]> {
  private shared: readonly Content[] | undefined;

  constructor(
    shared: readonly Content[],
    private readonly length: number,
  ) {
    this.shared = shared;
  }

  get(own: Content[], key: string | symbol, receiver: unknown): unknown {
    const shared = this.shared;
    if (shared && typeof key === 'string') {
      if (key === 'length') return this.length;
      const index = this.indexOf(key);
      if (index >= 0) return shared[index];
    }
    return Reflect.get(own, key, receiver);
  }

  has(own: Content[], key: string | symbol): boolean {
    if (this.shared && typeof key === 'string' && this.indexOf(key) >= 0) return true;
    return Reflect.has(own, key);
  }

  getOwnPropertyDescriptor(own: Content[], key: string | symbol): PropertyDescriptor | undefined {
    const shared = this.shared;
    if (shared && typeof key === 'string') {
      if (key === 'length') {
        return { value: this.length, writable: true, enumerable: false, configurable: false };
      }
      const index = this.indexOf(key);
      if (index >= 0) {
        return { value: shared[index], writable: true, enumerable: true, configurable: true };
      }
    }
    return Reflect.getOwnPropertyDescriptor(own, key);
  }

  ownKeys(own: Content[]): (string | symbol)[] {
    if (!this.shared) return Reflect.ownKeys(own);
    const keys: string[] = [];
    for (let i = 0; i < this.length; i++) keys.push(String(i));
    keys.push('length');
    return keys;
  }

  set(own: Content[], key: string | symbol, value: unknown): boolean {
    return Reflect.set(this.owned(own), key, value);
  }

  defineProperty(own: Content[], key: string | symbol, descriptor: PropertyDescriptor): boolean {
    return Reflect.defineProperty(this.owned(own), key, descriptor);
  }

  deleteProperty(own: Content[], key: string | symbol): boolean {
    return Reflect.deleteProperty(this.owned(own), key);
  }

  preventExtensions(own: Content[]): boolean {
    return Reflect.preventExtensions(this.owned(own));
  }

  setPrototypeOf(own: Content[], prototype: object | null): boolean {
    return Reflect.setPrototypeOf(this.owned(own), prototype);
  }

  /** The target, made the view's own copy of the lent contents if it is not yet. */
  private owned(own: Content[]): Content[] {
    const shared = this.shared;
    if (shared) {
      delete (own as unknown as Record<symbol, unknown>)[INSPECT];
      for (let i = 0; i < this.length; i++) own.push(shared[i]!);
      this.shared = undefined;
    }
    return own;
  }

  /** The index `key` names among the lent contents, or -1. */
  private indexOf(key: string): number {
    const first = key.charCodeAt(0);
    if (first < 48 || first > 57) return -1; // not a digit: not an index
    const index = Number(key);
    return index < this.length && String(index) === key ? index : -1;
  }
}
