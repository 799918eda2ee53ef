// markdown-it's HTML made into DOM that is safe to show: DOMPurify with a strict allow-list, then
// the links made to open in a new tab, tables put in a scroll box and code blocks given a Copy
// button. markdown-it (raw HTML off) never emits a tag we did not ask for; this is the second lock,
// and the one a change of parser settings cannot open.
//
// The sanitised DOM is used as DOMPurify returns it (a fragment), never serialised and parsed
// again: a second parse is where mutation XSS lives.

import createDOMPurify, { type Config } from 'dompurify';
import { languageLabel } from './highlight.ts';
import { isSafeLink } from './link-policy.ts';
import { policyFactory } from '../shell/trusted-types.ts';

/** The only elements a rendered message may contain, and the attributes each may keep. */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  p: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  ul: [],
  ol: ['start'],
  li: [],
  strong: [],
  em: [],
  s: [],
  a: ['href', 'title', 'class'],
  code: ['class'],
  pre: [],
  span: ['class'],
  blockquote: [],
  hr: [],
  br: [],
  table: [],
  thead: [],
  tbody: [],
  tr: [],
  th: ['class'],
  td: ['class'],
};

/** Class names we give: highlight.js's scopes, a highlighted language, table alignment, images. */
const CLASS_NAME =
  /^(?:hljs(?:-[a-z_]+)*|[a-z]+_+|language-[a-z]+|align-(?:left|center|right)|image-link)$/;

const CONFIG: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: Object.keys(ALLOWED),
  ALLOWED_ATTR: [...new Set(Object.values(ALLOWED).flat())],
  ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_SELF_CLOSE_IN_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

let purifier: ReturnType<typeof createDOMPurify> | undefined;

/**
 * The Trusted Types policy DOMPurify parses with (src/ui/shell/trusted-types.ts): the HTML it
 * vouches for goes only into DOMPurify's inert document, and is sanitised there before anything
 * shows it. It makes no script URL: no element that takes one is allowed.
 */
function markdownPolicy(): Config['TRUSTED_TYPES_POLICY'] {
  return policyFactory()?.createPolicy('trellis-markdown', {
    createHTML: (html: string) => html,
    createScriptURL: (): string => {
      throw new TypeError('Markdown makes no script URLs');
    },
  }) as Config['TRUSTED_TYPES_POLICY'];
}

/** Our own DOMPurify instance: its hooks touch no other user of the library. */
function purify() {
  if (purifier) return purifier;
  const policy = markdownPolicy();
  if (policy) CONFIG.TRUSTED_TYPES_POLICY = policy;
  purifier = createDOMPurify(window);
  purifier.addHook('uponSanitizeAttribute', (node, event) => {
    const allowed = ALLOWED[node.nodeName.toLowerCase()] ?? [];
    if (!allowed.includes(event.attrName)) {
      event.keepAttr = false;
    } else if (event.attrName === 'class') {
      event.attrValue = event.attrValue
        .split(/\s+/)
        .filter((name) => CLASS_NAME.test(name))
        .join(' ');
    }
  });
  return purifier;
}

/** The DOM of one rendered block of Markdown, in a `div.md-content`. */
export function markdownElement(html: string): HTMLElement {
  const fragment = purify().sanitize(html, CONFIG);
  for (const link of fragment.querySelectorAll('a')) {
    // A link the policy refuses (an empty href included) is its text.
    if (!isSafeLink(link.getAttribute('href'))) {
      link.replaceWith(...link.childNodes);
      continue;
    }
    link.target = '_blank';
    link.rel = 'noopener noreferrer';
  }
  for (const table of fragment.querySelectorAll('table')) {
    const scroll = element('div', 'table-scroll');
    scroll.tabIndex = 0; // a box that scrolls is reachable from the keyboard
    table.replaceWith(scroll);
    scroll.append(table);
  }
  for (const pre of fragment.querySelectorAll('pre')) codeBlock(pre);
  const content = element('div', 'md-content');
  content.append(fragment);
  return content;
}

/** A `<pre>` in a box with its language and a Copy button above it. */
function codeBlock(pre: HTMLPreElement): void {
  const box = element('div', 'code-block');
  const head = element('div', 'code-head');
  const language = /\blanguage-([a-z]+)\b/.exec(pre.querySelector('code')?.className ?? '')?.[1];
  const label = element('span', 'code-language');
  label.textContent = (language && languageLabel(language)) ?? '';
  const copy = element('button', 'copy-code');
  copy.type = 'button';
  copy.setAttribute('aria-label', 'Copy code');
  copy.textContent = 'Copy';
  const status = element('span', 'copy-status');
  status.setAttribute('role', 'status');
  head.append(label, status, copy);
  pre.tabIndex = 0;
  pre.replaceWith(box);
  box.append(head, pre);
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string) {
  const node = document.createElement(tag);
  node.className = className;
  return node;
}
