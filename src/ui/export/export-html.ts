// A session as one standalone, read-only HTML file: no script at all, nothing loaded (images are
// data: URLs, the styles inline), readable offline forever. What must stay true:
// - every string from the session (title, agent, messages, call arguments, results, file names,
//   MIME types, usage lines) is escaped where it goes; answers' Markdown is rendered by the
//   chat's own parser (raw HTML off, links http(s)/mailto only, images never loaded: a link);
// - the Content-Security-Policy meta comes first in <head> and allows no script, no request
//   (`default-src 'none'`), images from data: only and the inline styles: a second lock;
// - an image is shown only as a data: URL of a raster type with base64 bytes (export-text.ts).

import { fitsMarkdown } from '../markdown/load-markdown.ts';
import { createMarkdownParser, type MarkdownIt } from '../markdown/markdown-parser.ts';
import type { ChatItem } from '../chat/chat-model.ts';
import type { ExportBranch, ExportDocument, ExportFile, ExportTurn } from './export-model.ts';
import { EXPORT_CSS } from './export-style.ts';
import {
  CUT_TEXT,
  authorName,
  callTexts,
  documentLines,
  imageUrl,
  isoTime,
  localTime,
  turnUsageText,
} from './export-text.ts';

/** The exported page's policy: nothing runs, nothing is fetched, nothing is sent. */
export const EXPORT_CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

let parser: MarkdownIt | undefined;

/** `text` with every character that could start or end markup written as an entity. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const e = escapeHtml;

export function exportHtml(doc: ExportDocument): string {
  const { meta, totals } = documentLines(doc);
  const title = doc.range ? `${doc.title} (turns ${doc.range.first}–${doc.range.last})` : doc.title;
  const body = [
    '<header>',
    `<h1>${e(title)}</h1>`,
    `<p class="meta">${e(meta)}</p>`,
    ...totals.map((line) => `<p class="totals">${e(line)}</p>`),
    '</header>',
    '<main>',
    ...doc.turns.map((turn) => turnHtml(doc, turn)),
    doc.after.length > 0 ? branchesHtml(doc, doc.after, 'after the last turn') : '',
    doc.turns.length === 0 && doc.after.length === 0 ? '<p class="note">No messages.</p>' : '',
    '</main>',
    '<footer>',
    `<p>Exported from Trellis on <time datetime="${isoTime(doc.exportedAt)}">${e(localTime(doc.exportedAt))}</time>. A read-only copy: nothing in it runs, and it loads nothing from the network.</p>`,
    '</footer>',
  ];
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${EXPORT_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light dark">',
    '<meta name="generator" content="Trellis">',
    `<title>${e(title)}</title>`,
    `<style>${EXPORT_CSS}</style>`,
    '</head>',
    '<body>',
    ...body.filter(Boolean),
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function turnHtml(doc: ExportDocument, turn: ExportTurn): string {
  const name = turn.number !== undefined ? `Turn ${turn.number}` : 'Rewound turn';
  const usage = turnUsageText(turn);
  return [
    `<section class="turn"${turn.number !== undefined ? ` id="turn-${turn.number}"` : ''} aria-label="${e(name)}">`,
    `<h2 class="turn-head"><span>${e(name)}</span> <time datetime="${isoTime(turn.startedAt)}">${e(localTime(turn.startedAt))}</time>${usage ? ` <span class="turn-usage">${e(usage)}</span>` : ''}</h2>`,
    turn.alternatives.length > 0 ? branchesHtml(doc, turn.alternatives, 'of this turn') : '',
    ...turn.items.map((item) => itemHtml(doc, item)),
    turn.files.length > 0 ? filesHtml(turn.files) : '',
    '</section>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** Rewound branches, collapsed where the conversation left them. */
function branchesHtml(doc: ExportDocument, branches: ExportBranch[], where: string): string {
  const count = branches.length;
  const said = `${count} rewound version${count === 1 ? '' : 's'} ${where}`;
  return [
    `<details class="branches"><summary>${e(said)}</summary>`,
    ...branches.map(
      (branch) =>
        `<div class="branch">\n${branch.turns.map((turn) => turnHtml(doc, turn)).join('\n')}\n</div>`,
    ),
    '</details>',
  ].join('\n');
}

function itemHtml(doc: ExportDocument, item: ChatItem): string {
  switch (item.kind) {
    case 'message': {
      const side = item.fromUser ? 'from-user' : 'from-agent';
      const text = !item.text
        ? ''
        : item.json
          ? `<pre class="json"><code>${e(item.text)}</code></pre>`
          : !item.fromUser && fitsMarkdown(item.text)
            ? `<div class="markdown">${(parser ??= createMarkdownParser()).render(item.text)}</div>`
            : `<p class="plain">${e(item.text)}</p>`;
      return [
        `<div class="message ${side}">`,
        `<p class="author">${e(authorName(doc, item.author, item.fromUser))}</p>`,
        text,
        ...(item.attachments ?? []).map((file) =>
          fileHtml({ name: file.name, mimeType: file.mimeType, data: file.data }),
        ),
        item.cut ? `<p class="cut">${e(CUT_TEXT[item.cut])}</p>` : '',
        item.usage ? `<p class="message-usage">${e(item.usage)}</p>` : '',
        '</div>',
      ]
        .filter(Boolean)
        .join('\n');
    }
    case 'tool': {
      const { args, result } = callTexts(item);
      return [
        '<details class="tool">',
        `<summary><code>${e(item.name)}</code> <span class="args">${e(item.args.text)}</span> <span class="status status-${e(item.status.replace(/\s+/g, '-'))}">${e(item.status)}</span></summary>`,
        `<p>Arguments</p>\n<pre><code>${e(args)}</code></pre>`,
        result !== undefined ? `<p>Result</p>\n<pre><code>${e(result)}</code></pre>` : '',
        item.usage ? `<p class="message-usage">${e(item.usage)}</p>` : '',
        '</details>',
      ]
        .filter(Boolean)
        .join('\n');
    }
    case 'error':
      return `<p class="error">${e(item.text)}</p>`;
    case 'note':
      return `<p class="note">${e(item.text)}</p>`;
    case 'compaction':
      return `<p class="compaction" title="${e(item.title)}">${e(item.text)}</p>`;
  }
}

function filesHtml(files: ExportFile[]): string {
  return [
    '<div class="files">',
    '<p class="file">Files saved in this turn:</p>',
    ...files.map(fileHtml),
    '</div>',
  ].join('\n');
}

/** A file: an image inline, a text file's content behind a disclosure, else its name. */
function fileHtml(file: Omit<ExportFile, 'version'> & { version?: number }): string {
  const name = file.version !== undefined ? `${file.name} (version ${file.version})` : file.name;
  const url = imageUrl(file.mimeType, file.data);
  if (url)
    return `<figure><img src="${e(url)}" alt="${e(file.name)}"><figcaption>${e(name)}</figcaption></figure>`;
  if (file.text !== undefined)
    return `<details class="file"><summary>${e(name)}</summary>\n<pre><code>${e(file.text)}</code></pre>\n</details>`;
  return `<p class="file">${e(name)}${file.mimeType ? ` (${e(file.mimeType)})` : ''}</p>`;
}
