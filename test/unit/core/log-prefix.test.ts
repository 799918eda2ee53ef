// Snapshots of a log that share its array: what each holder sees, whoever appends after it.

import { describe, expect, it } from 'vitest';
import { appendEvent, LogPrefix, logOf, withLogEvents } from '../../../src/core/log-prefix.ts';
import { createEvent, type Event } from '../../../src/index.ts';

const event = (text: string): Event =>
  createEvent({
    invocationId: 'i',
    author: 'a',
    content: { role: 'model', parts: [{ text }] },
  });
const texts = (events: readonly Event[]) => events.map((e) => e.content!.parts[0]!.text);
const textsOf = (log: LogPrefix) => texts(log.toArray());

describe('a prefix of a log', () => {
  it('sees only the events there were when it was taken, however the log grows', () => {
    const store = [event('a'), event('b')];
    const snapshot = LogPrefix.of(store);
    store.push(event('c'));
    expect(textsOf(snapshot)).toEqual(['a', 'b']);
    expect(snapshot.last).toBe(store[1]);
    expect(LogPrefix.of(store, 1).last).toBe(store[0]);
    expect(LogPrefix.EMPTY.last).toBeUndefined();
  });

  it('follows the store when it appends what the store appended, sharing its array', () => {
    const store = [event('a')];
    const working = LogPrefix.of(store);
    const next = event('b');
    store.push(next);
    const grown = working.plus(next);
    expect(grown.events).toBe(store);
    expect(textsOf(grown)).toEqual(['a', 'b']);
  });

  it('never writes into a store’s array: it copies it, once, and extends its copy', () => {
    const store = [event('a')];
    const first = LogPrefix.of(store).plus(event('b'));
    expect(store).toHaveLength(1);
    const second = first.plus(event('c'));
    expect(second.events).toBe(first.events);
    expect(textsOf(first)).toEqual(['a', 'b']);
    expect(textsOf(second)).toEqual(['a', 'b', 'c']);
  });

  it('goes its own way when the log it shared went another (two appends to one snapshot)', () => {
    const base = LogPrefix.of([event('a')]).plus(event('b'));
    const left = base.plus(event('left'));
    const right = base.plus(event('right'));
    expect(textsOf(base)).toEqual(['a', 'b']);
    expect(textsOf(left)).toEqual(['a', 'b', 'left']);
    expect(textsOf(right)).toEqual(['a', 'b', 'right']);
  });
});

describe('an object whose events are a log prefix', () => {
  it('has events like any other property: enumerable, cloned, serialised, equal to an array', () => {
    const store = [event('a'), event('b')];
    const session = withLogEvents({ id: 's', state: {} }, LogPrefix.of(store));
    store.push(event('c'));
    expect(Object.keys(session)).toEqual(['id', 'state', 'events']);
    expect(texts(session.events)).toEqual(['a', 'b']);
    expect(session.events).toBe(session.events);
    expect(structuredClone(session)).toEqual({ id: 's', state: {}, events: store.slice(0, 2) });
    expect(JSON.parse(JSON.stringify(session)).events).toHaveLength(2);
    expect(session).toEqual({ id: 's', state: {}, events: store.slice(0, 2) });
  });

  it('gives its log without a copy, or its array once someone read (and maybe changed) it', () => {
    const store = [event('a')];
    const untouched = withLogEvents({}, LogPrefix.of(store));
    expect(logOf(untouched).events).toBe(store);
    const read = withLogEvents({}, LogPrefix.of(store));
    read.events.push(event('mine'));
    expect(textsOf(logOf(read))).toEqual(['a', 'mine']);
    expect(textsOf(logOf({ events: [event('plain')] }))).toEqual(['plain']);
  });

  it('grows with appendEvent, before and after its events are read', () => {
    const store = [event('a')];
    const working = withLogEvents({}, LogPrefix.of(store));
    appendEvent(working, event('b'));
    expect(textsOf(logOf(working))).toEqual(['a', 'b']);
    const read = working.events;
    appendEvent(working, event('c'));
    expect(texts(read)).toEqual(['a', 'b', 'c']);
    expect(textsOf(logOf(working))).toEqual(['a', 'b', 'c']);
    expect(texts(store)).toEqual(['a']);
    const plain = { events: [event('x')] };
    appendEvent(plain, event('y'));
    expect(texts(plain.events)).toEqual(['x', 'y']);
  });
});
