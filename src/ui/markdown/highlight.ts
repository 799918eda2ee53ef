// Syntax highlighting of fenced code: highlight.js's core with a small set of common languages.
// A fence names its language or gets none: no auto-detection (it tries every grammar on the
// whole block, too slow to run on each streamed chunk).

import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  go,
  java,
  javascript,
  json,
  markdown,
  python,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};

/** Every name a fence may use (ids and highlight.js's aliases: js, ts, py, sh, html, yml…) → id. */
const IDS = new Map<string, string>();
for (const [id, language] of Object.entries(LANGUAGES)) {
  hljs.registerLanguage(id, language);
  IDS.set(id, id);
  for (const alias of hljs.getLanguage(id)?.aliases ?? []) IDS.set(alias.toLowerCase(), id);
}

/** The registered language a fence's info string names (its first word), if any. */
export function languageOf(info: string): string | undefined {
  const name = info.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
  return IDS.get(name);
}

/** The name to show for a registered language id ('javascript' → 'JavaScript'). */
export function languageLabel(id: string): string | undefined {
  return IDS.get(id) === id ? (hljs.getLanguage(id)?.name ?? id) : undefined;
}

/** `code` as highlight.js's HTML (text escaped, tokens in `<span class="hljs-…">`). */
export function highlight(code: string, language: string): string {
  return hljs.highlight(code, { language, ignoreIllegals: true }).value;
}
