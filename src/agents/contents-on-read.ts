// A request's contents as before-model callbacks see them: each content copied the first time a
// callback reads it. They may change what they read (ADK builds the contents afresh for each
// call, so a change there never reaches the session); ours share their parts with the session's
// events and the next calls (contents-cache.ts), so a callback must get copies, but copying the
// whole conversation for each call made every model call of a long session cost O(session) as
// soon as one callback (a plugin's, say) was there, even one that reads nothing.
//
// Invariants:
// - a content a callback reads is a deep copy, the same copy each time it is read;
// - what the callbacks leave is a plain array again (`settle`), with their copies in place of the
//   contents they read, their own changes to the array kept; no copy at all when they read none;
// - writes to the array go to the request's own array (never a shared one: `request.contents` is
//   the request's, see llm-call.ts).

import type { Content } from '../core/content.ts';

export interface ContentsOnRead {
  /** What the callbacks get as `request.contents`. */
  readonly view: Content[];
  /** The contents as the callbacks left them, the view being `current`. */
  settle(current: Content[]): Content[];
}

export function contentsOnRead(contents: Content[]): ContentsOnRead {
  // Made on the first read: most callbacks read nothing (a plugin's that only logs, say).
  let copies: Map<Content, Content> | undefined;
  const copyOf = (content: Content): Content => {
    copies ??= new Map();
    let copy = copies.get(content);
    if (!copy) {
      copy = structuredClone(content);
      copies.set(content, copy);
      // A copy read again (or moved by the callback) is itself, not a copy of a copy.
      copies.set(copy, copy);
    }
    return copy;
  };
  const view = new Proxy(contents, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof key === 'string' && isIndex(key) && isObject(value)
        ? copyOf(value as Content)
        : value;
    },
  });
  return {
    view,
    settle(current) {
      // Replaced by the callback: its array is the request's.
      if (current !== view) return current;
      const copied = copies;
      if (!copied) return contents;
      return Array.from({ length: contents.length }, (_, i) => {
        const content = contents[i]!;
        return copied.get(content) ?? content;
      });
    },
  };
}

function isIndex(key: string): boolean {
  const first = key.charCodeAt(0);
  return first >= 48 && first <= 57 && String(Number(key)) === key;
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}
