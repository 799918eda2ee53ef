// Bounded previews of the texts and values the page shows (state values, messages, tool calls,
// events, artifacts), and of the long state values the worker sends the page in their place: the
// start of the text, and whether there is more. A preview costs time in
// proportion to what it keeps, never to the value: a 20 MB string, or an object holding one,
// previews as fast as a short one. What must stay true:
// - a string is shown as it is, anything else as JSON (as `JSON.stringify` writes it, with the
//   same indentation), so that a preview is the start of what Show all and Download give;
// - no whole value is ever serialised or scanned to make a preview: strings are cut before they
//   are escaped, objects and arrays stop being walked once the budget is spent, nesting deeper
//   than MAX_DEPTH is elided (no stack overflow), and a value met again inside itself (a cycle:
//   impossible in JSON, but the page may be handed anything) is written as "[Circular]".

export interface Preview {
  /** The start of the text: at most the characters asked for, without an ellipsis. */
  text: string;
  /** The whole text is longer than (or, for an elided value, not the same as) `text`. */
  truncated: boolean;
  /** The whole text is short enough to lay out on request (Show all); else it is downloaded. */
  showable: boolean;
  /** Characters in the whole text, when known without writing it all. */
  length?: number;
}

/** Characters a preview keeps unless told otherwise. */
export const PREVIEW_CHARS = 2000;

/**
 * The longest run of characters with no place to break a line that a preview keeps. A browser
 * lays out such a run (a key, a base64 blob, a 64 KB "word") in time that grows with its length
 * at every layout, where text of the same length in words costs little: a preview stops at the
 * run's first UNBROKEN_CHARS characters.
 */
export const UNBROKEN_CHARS = 4096;

/** The longest text Show all lays out (about 512 KB); a longer one can only be downloaded. */
export const SHOW_ALL_CHARS = 512 * 1024;

/** Characters of a session title shown (one whose file gave it a longer one is cut). */
export const TITLE_CHARS = 120;

/** Nesting beyond this depth is written as `[…]` or `{…}`. */
export const MAX_DEPTH = 64;

export interface PreviewOptions {
  /** Characters kept (default PREVIEW_CHARS). */
  max?: number;
  /** Spaces per level of JSON indentation (default 0: compact). */
  indent?: number;
}

/** The preview of a value: a string as it is, anything else as JSON. */
export function previewOf(
  value: unknown,
  { max = PREVIEW_CHARS, indent = 0 }: PreviewOptions = {},
): Preview {
  if (typeof value === 'string') {
    const cut = unbrokenCut(value, max);
    return {
      text: head(value, cut),
      truncated: value.length > cut,
      showable: showable(value),
      length: value.length,
    };
  }
  const out = new BoundedText(max);
  writeJson(out, value, indent, 0, new Set(), '');
  const written = out.text();
  const cut = unbrokenCut(written, max);
  const truncated = out.size > cut || out.elided;
  return {
    text: head(written, cut),
    truncated,
    showable: !truncated || showable(value),
    ...(truncated ? {} : { length: out.size }),
  };
}

/** Whether a value's whole text is short enough for Show all (about SHOW_ALL_CHARS or fewer). */
export function showable(value: unknown): boolean {
  return typeof value === 'string' ? value.length <= SHOW_ALL_CHARS : fitsIn(value, SHOW_ALL_CHARS);
}

/**
 * The whole text of a value: a string as it is, anything else as JSON. Only for an explicit
 * request (Show all, Download): it costs the whole value.
 */
export function wholeText(value: unknown, indent = 0): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, indent) ?? '';
  } catch {
    // A cycle or a BigInt, which JSON cannot write: the bounded writer can, without a bound.
    const out = new BoundedText(Infinity);
    writeJson(out, value, indent, 0, new Set(), '');
    return out.text();
  }
}

/**
 * The same preview keeping at most `max` characters of its text: a long state value's preview,
 * sent by the worker, for a panel that shows fewer.
 */
export function shorterPreview(preview: Preview, max: number): Preview {
  if (preview.text.length <= max) return preview;
  return { ...preview, text: head(preview.text, max), truncated: true };
}

/**
 * Where to cut the first `max` characters of `text` so that no run of them without a break
 * opportunity (whitespace, a hyphen or slash, a zero-width space, a CJK character, which breaks
 * anywhere) is longer than `run`: `max` (or the text's length) when none is, else the end of the
 * first run's first `run` characters. It reads at most `max` characters.
 */
export function unbrokenCut(text: string, max: number, run = UNBROKEN_CHARS): number {
  const end = Math.min(text.length, max);
  let length = 0;
  for (let i = 0; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code <= 32 || code === 45 || code === 47 || code === 0x200b || code >= 0x2e80) length = 0;
    else if (++length > run) return i;
  }
  return end;
}

/** A one-line label of at most `max` characters, an ellipsis ending a cut one (titles, turns). */
export function clip(text: string, max: number): string {
  return text.length > max ? `${head(text, max - 1)}…` : text;
}

/** The first `max` characters, never ending in half of a surrogate pair. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.charCodeAt(max - 1);
  return text.slice(0, cut >= 0xd800 && cut <= 0xdbff ? max - 1 : max);
}

/** Text written up to one character past a budget: enough to know whether it went over. */
class BoundedText {
  private readonly parts: string[] = [];
  size = 0;
  /** Something was left out other than by the budget (deep nesting, a cycle). */
  elided = false;

  constructor(private readonly budget: number) {}

  /** Characters that may still be written. */
  get room(): number {
    return this.budget + 1 - this.size;
  }

  get full(): boolean {
    return this.room <= 0;
  }

  write(text: string): void {
    const room = this.room;
    if (room <= 0) return;
    const piece = text.length > room ? text.slice(0, room) : text;
    this.parts.push(piece);
    this.size += piece.length;
  }

  text(): string {
    return this.parts.join('');
  }
}

/** JSON.stringify's output for `value`, written into `out` until its budget is spent. */
function writeJson(
  out: BoundedText,
  value: unknown,
  indent: number,
  depth: number,
  ancestors: Set<object>,
  key: string,
): void {
  if (out.full) return;
  const toJSON = (value as { toJSON?: unknown } | null | undefined)?.toJSON;
  if (typeof toJSON === 'function') value = toJSON.call(value, key);
  switch (typeof value) {
    case 'string':
      // Escape only what can be kept: a cut string's closing quote lands past the budget.
      out.write(JSON.stringify(value.length > out.room ? value.slice(0, out.room) : value));
      return;
    case 'number':
      out.write(Number.isFinite(value) ? String(value) : 'null');
      return;
    case 'boolean':
    case 'bigint':
      out.write(String(value));
      return;
    case 'undefined':
    case 'function':
    case 'symbol':
      out.write('null'); // as in an array; an object skips such members before this
      return;
  }
  if (value === null) {
    out.write('null');
    return;
  }
  const object = value as object;
  if (ancestors.has(object) || depth >= MAX_DEPTH) {
    out.elided = true;
    out.write(ancestors.has(object) ? '"[Circular]"' : Array.isArray(object) ? '[…]' : '{…}');
    return;
  }
  ancestors.add(object);
  const newline = indent > 0 ? `\n${' '.repeat(indent * (depth + 1))}` : '';
  const close = indent > 0 ? `\n${' '.repeat(indent * depth)}` : '';
  if (Array.isArray(object)) {
    out.write('[');
    for (let i = 0; i < object.length && !out.full; i++) {
      out.write(i === 0 ? newline : `,${newline}`);
      writeJson(out, object[i], indent, depth + 1, ancestors, String(i));
    }
    out.write(object.length === 0 ? ']' : `${close}]`);
  } else {
    const record = object as Record<string, unknown>;
    let first = true;
    out.write('{');
    for (const name of Object.keys(record)) {
      if (out.full) break;
      const member = record[name];
      if (member === undefined || typeof member === 'function' || typeof member === 'symbol')
        continue;
      out.write(first ? newline : `,${newline}`);
      out.write(`${JSON.stringify(name)}:${indent > 0 ? ' ' : ''}`);
      writeJson(out, member, indent, depth + 1, ancestors, name);
      first = false;
    }
    out.write(first ? '}' : `${close}}`);
  }
  ancestors.delete(object);
}

/**
 * Whether a value's compact JSON is about `limit` characters or fewer (strings counted by their
 * length, before escaping). It walks at most about `limit` characters' worth of the value, one
 * step at a time (no recursion), so a cycle or deep nesting only makes it give up sooner.
 */
function fitsIn(value: unknown, limit: number): boolean {
  let size = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === 'string') size += item.length + 2;
    else if (item === null || typeof item !== 'object') size += 5;
    else if (Array.isArray(item)) {
      size += item.length + 2;
      if (size > limit) return false;
      for (const member of item) stack.push(member);
    } else {
      const names = Object.keys(item);
      size += names.length + 2;
      if (size > limit) return false;
      for (const name of names) {
        size += name.length + 3;
        stack.push((item as Record<string, unknown>)[name]);
      }
    }
    if (size > limit) return false;
  }
  return true;
}
