// Limits on untrusted JSON (an imported session, flow or agent file), checked before anything is
// made of it, so that a hostile or broken file gets a message of ours that says what and where,
// never a browser's: JSON.parse handles any nesting, but structured clone (IndexedDB, postMessage)
// and our own recursive walks overflow the stack past a few thousand levels ("Failed to execute
// 'add' on 'IDBObjectStore': Maximum call stack size exceeded"), and one huge string or a lone
// surrogate is never what a person meant.
//
// The walk is iterative (it is the one walk that must not overflow) and stops at the first problem.

export interface JsonLimits {
  /** The longest text, in characters (UTF-16 units). */
  maxChars: number;
  /** The deepest nesting of objects and arrays (the top value is at depth 1). */
  maxDepth: number;
  /** The longest string value, in characters. */
  maxString: number;
  /** The longest object key, in characters. */
  maxKey: number;
}

const MB = 1024 * 1024;

/** The limits of a session file: its text, and any JSON value of it (an event's content, say). */
export const SESSION_FILE_LIMITS: JsonLimits = {
  maxChars: 64 * MB,
  maxDepth: 100,
  // An artifact's bytes travel as one base64 string: up to 12 MB of bytes.
  maxString: 16 * MB,
  maxKey: 1024,
};

/** The limits of a flow file and of an agent file (small, hand-editable files). */
export const DEFINITION_FILE_LIMITS: JsonLimits = {
  maxChars: 1 * MB,
  maxDepth: 100,
  maxString: 100_000,
  maxKey: 1024,
};

/** What is wrong with `text` as the text of a file of `what`, before parsing it, if anything. */
export function jsonTextProblem(
  text: unknown,
  limits: JsonLimits,
  what: string,
): string | undefined {
  if (typeof text !== 'string') return `${what} is not text`;
  if (text.length > limits.maxChars) {
    return `${what} is ${megabytes(text.length)} long; the most Trellis reads is ${megabytes(limits.maxChars)}`;
  }
  return undefined;
}

interface Frame {
  /** Where this container is (a path such as `events[3].content`). */
  path: string;
  depth: number;
  /** The children still to check: [key or index, value]. */
  entries: [string | number, unknown][];
  next: number;
}

/**
 * The first problem of a parsed JSON value against `limits` (too deep, a string or key too long, a
 * string that is not valid Unicode), said with where it is; undefined when there is none. `root`
 * names the value in messages (`''`: the file itself).
 */
export function jsonTreeProblem(value: unknown, limits: JsonLimits, root = ''): string | undefined {
  const first = leafProblem(value, root || 'the file', limits);
  if (first !== undefined || !isContainer(value)) return first;
  const stack: Frame[] = [frameOf(value, root, 1)];
  while (stack.length > 0) {
    const frame = stack.at(-1)!;
    if (frame.next >= frame.entries.length) {
      stack.pop();
      continue;
    }
    const [key, child] = frame.entries[frame.next++]!;
    const path = childPath(frame.path, key);
    if (typeof key === 'string') {
      if (key.length > limits.maxKey)
        return `${shortPath(frame.path)} has a key of ${count(key.length)} characters; keys have at most ${count(limits.maxKey)}`;
      if (!isWellFormed(key))
        return `${shortPath(frame.path)} has a key that is not valid Unicode text (it holds a lone surrogate)`;
    }
    const problem = leafProblem(child, path, limits);
    if (problem !== undefined) return problem;
    if (!isContainer(child)) continue;
    if (frame.depth + 1 > limits.maxDepth) {
      return `${shortPath(path)} is nested more than ${limits.maxDepth} levels deep`;
    }
    stack.push(frameOf(child, path, frame.depth + 1));
  }
  return undefined;
}

function leafProblem(value: unknown, path: string, limits: JsonLimits): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.length > limits.maxString) {
    return `${shortPath(path)} is a text of ${count(value.length)} characters; the most allowed is ${count(limits.maxString)}`;
  }
  if (!isWellFormed(value))
    return `${shortPath(path)} is not valid Unicode text (it holds a lone surrogate)`;
  return undefined;
}

function frameOf(value: object, path: string, depth: number): Frame {
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((item, i) => [i, item])
    : Object.entries(value);
  return { path, depth, entries, next: 0 };
}

function isContainer(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function childPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return parent ? `${parent}.${key}` : key;
  const shown = key.length > 40 ? `${key.slice(0, 40)}…` : key;
  return `${parent}[${JSON.stringify(shown)}]`;
}

/** A path for a message: a deep one keeps its start and its end. */
function shortPath(path: string): string {
  if (path === '') return 'the file';
  return path.length > 160 ? `${path.slice(0, 80)}…${path.slice(-60)}` : path;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether `text` is valid Unicode (no lone surrogate, as `\ud800` in JSON can make). */
export function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function megabytes(chars: number): string {
  const mb = chars / MB;
  return `${mb >= 10 ? Math.round(mb) : Math.round(mb * 10) / 10} MB`;
}
