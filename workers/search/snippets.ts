// Where in a session the words the index matched are: its title, each turn (active or rewound),
// state, artifact names; each with a short snippet and the matched words' ranges in it. Plain
// text and offsets only: the page marks them up itself, never as HTML.

import type { SearchDocRecord } from '../../src/store/search-store.ts';
import { SESSION_HITS, type SearchHit, type SearchSessionHits } from './search-protocol.ts';

/** Characters of text around the first match a snippet shows. */
const BEFORE = 40;
const SNIPPET_CHARS = 160;

/** A word as MiniSearch's default tokenizer cuts text (between spaces and punctuation). */
const WORD = /[^\n\r\p{Z}\p{P}]+/gu;

interface Found {
  ranges: [number, number][];
  /** Different matched words in it. */
  words: number;
}

function find(text: string, terms: ReadonlySet<string>): Found | undefined {
  const ranges: [number, number][] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const word = match[0].toLowerCase();
    if (!terms.has(word)) continue;
    ranges.push([match.index, match.index + match[0].length]);
    seen.add(word);
  }
  return ranges.length === 0 ? undefined : { ranges, words: seen.size };
}

/** The text around the first range, with the ranges inside it moved to its offsets. */
function snippetOf(text: string, ranges: readonly [number, number][]) {
  const first = ranges[0]![0];
  let start = Math.max(0, first - BEFORE);
  // Start at a word's beginning when one is near.
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    if (space >= 0 && first - space <= BEFORE + 15) start = space + 1;
  }
  const end = Math.min(text.length, start + SNIPPET_CHARS);
  const head = start > 0 ? '…' : '';
  // One space for each line break or tab: the offsets stay true.
  const body = text.slice(start, end).replace(/\s/g, ' ');
  const marks: [number, number][] = [];
  for (const [from, to] of ranges) {
    if (from >= end) break;
    if (to > end) continue;
    marks.push([from - start + head.length, to - start + head.length]);
  }
  return {
    snippet: head + body + (end < text.length ? '…' : ''),
    marks,
  };
}

/** The session's hits for the matched `terms`: title, then messages, state, artifacts. */
export function hitsOf(doc: SearchDocRecord, terms: readonly string[]): SearchSessionHits {
  const wanted = new Set(terms);
  const hits: SearchHit[] = [];
  const title = find(doc.title, wanted);
  if (title) hits.push({ kind: 'title', ...snippetOf(doc.title, title.ranges) });
  const turns = doc.turns
    .flatMap((turn) => {
      const found = turn.text ? find(turn.text, wanted) : undefined;
      return found ? [{ turn, found }] : [];
    })
    // The turns with more of the words first, then the latest.
    .sort((a, b) => b.found.words - a.found.words || b.turn.time - a.turn.time);
  for (const { turn, found } of turns.slice(0, SESSION_HITS)) {
    hits.push({
      kind: 'message',
      invocationId: turn.invocationId,
      active: turn.active,
      time: turn.time,
      ...snippetOf(turn.text, found.ranges),
    });
  }
  for (const [key, value] of doc.state) {
    const text = `${key}: ${value}`;
    const found = find(text, wanted);
    if (found) hits.push({ kind: 'state', name: key, ...snippetOf(text, found.ranges) });
  }
  for (const name of doc.artifacts) {
    const found = find(name, wanted);
    if (found) hits.push({ kind: 'artifact', name, ...snippetOf(name, found.ranges) });
  }
  return {
    sessionId: doc.sessionId,
    title: doc.title,
    lastUpdateTime: doc.lastUpdateTime,
    hits: hits.slice(0, SESSION_HITS + 3),
  };
}
