// What the memory benchmarks remember and ask (test/bench/memory.bench.ts in Node, the memory
// harness in Chromium): sessions of one user, each of 5 turns (a message of 8–20 words, an answer
// of 15–40) in words drawn Zipf-like (a few very common, most rare) by a seeded generator, so
// every run and both environments remember the same text; and queries as a user or
// PRELOAD_MEMORY would ask, common and rare words.

import { createEvent } from '../../src/core/event.ts';
import type { SessionToRemember } from '../../src/store/memory-service.ts';

export const MEMORY_APP = 'bench';
export const MEMORY_USER = 'u';
export const MEMORIES_PER_SESSION = 10;

export const MEMORY_QUERIES = [
  'what did I say about the lisbon trip',
  'favourite fruit',
  'meeting notes budget',
  'kavoru',
  'the',
];

function wordSource(): (words: number) => string {
  let seed = 42;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  const syllables = ['ka', 'vo', 'ru', 'li', 'sbo', 'n', 'me', 'ta', 'pi', 'ne', 'do', 'gu'];
  const vocabulary = [
    ...['the', 'a', 'i', 'to', 'and', 'of', 'it', 'is', 'about', 'what', 'my', 'trip'],
    ...['lisbon', 'fruit', 'favourite', 'meeting', 'notes', 'budget', 'mango', 'said'],
    ...Array.from({ length: 3_000 }, () =>
      Array.from(
        { length: 2 + Math.floor(next() * 3) },
        () => syllables[Math.floor(next() * syllables.length)],
      ).join(''),
    ),
  ];
  const word = () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]!;
  return (words: number) => Array.from({ length: words }, word).join(' ');
}

/** `count` sessions to remember, the same ones at every call. */
export function memorySessions(count: number): SessionToRemember[] {
  const text = wordSource();
  let timestamp = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, s) => ({
    id: `session-${s}`,
    appName: MEMORY_APP,
    userId: MEMORY_USER,
    events: Array.from({ length: MEMORIES_PER_SESSION }, (_, i) => {
      const user = i % 2 === 0;
      return createEvent({
        invocationId: `e-${s}-${i >> 1}`,
        author: user ? 'user' : 'helper',
        timestamp: (timestamp += 30_000),
        content: {
          role: user ? 'user' : 'model',
          parts: [{ text: text(user ? 8 + (i % 13) : 15 + ((i * 7) % 26)) }],
        },
      });
    }),
  }));
}
