// A session as Markdown: the active conversation's turns, each with its messages, calls (their
// arguments and results in JSON code blocks), files by name and usage; rewound branches quoted
// (`> `) where the conversation left them. A viewer renders it, so what must stay true is that
// nothing from the session becomes markup there either:
// - plain text (the user's messages, names, notes, errors) has Markdown's and HTML's special
//   characters escaped (`escapeMarkdown`);
// - an answer keeps its Markdown, but raw HTML outside code is written as text (`&lt;`) and a
//   link to any scheme but http(s) and mailto is broken into text (`safeAnswer`), as the chat
//   shows it;
// - a code block's fence is longer than any run of backticks inside it.
// Images are not inlined (a Markdown file is text): they are named.

import type { ChatItem } from '../chat/chat-model.ts';
import type { ExportBranch, ExportDocument, ExportTurn } from './export-model.ts';
import {
  CUT_TEXT,
  authorName,
  callTexts,
  documentLines,
  localTime,
  turnUsageText,
} from './export-text.ts';

const ENTITIES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;' };

/**
 * Plain text as Markdown that shows exactly that text: emphasis, code, link and table characters
 * escaped everywhere, a line's heading, list or rule mark at its start, HTML's as entities.
 */
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`)
    .replace(/[<>&]/g, (c) => ENTITIES[c]!)
    .replace(/^([ \t]*)(#|[-+=]|\d+[.)])/gm, (_, space: string, mark: string) => {
      return `${space}${mark.slice(0, -1)}\\${mark.slice(-1)}`;
    })
    .replace(/\n/g, '  \n');
}

/** A fenced code block that `text` cannot close early. */
export function codeBlock(text: string, language = ''): string {
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${language}\n${text}\n${fence}`;
}

/** Schemes an answer's links may keep (as the chat's link-policy.ts). */
const SAFE_SCHEME = /^(?:https?|mailto):/i;

/**
 * An answer's Markdown with raw HTML and unsafe links made text, code left as written: `<`
 * outside code spans and fences becomes `&lt;`; `](scheme:` and a reference definition to a
 * scheme other than http(s) or mailto get a backslash that keeps them from being links.
 */
export function safeAnswer(markdown: string): string {
  const out: string[] = [];
  let fence: string | undefined;
  for (const line of markdown.split('\n')) {
    const opens = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fence !== undefined) {
      if (opens && opens[0] === fence[0] && opens.length >= fence.length) fence = undefined;
      out.push(line);
      continue;
    }
    if (opens) {
      fence = opens;
      out.push(line);
      continue;
    }
    out.push(safeLine(line));
  }
  return out.join('\n');
}

function safeLine(line: string): string {
  // Code spans stay as they are; what lies between them is made safe.
  const parts = line.split(/(`+[^`]*`+)/);
  const safe = parts.map((part, i) => (i % 2 === 1 ? part : safeText(part))).join('');
  const definition = /^( {0,3}\[[^\]]*\]:\s*<?\s*)([a-z][a-z0-9+.-]*:)/i.exec(safe);
  if (definition && !SAFE_SCHEME.test(definition[2]!)) return `\\${safe.trimStart()}`;
  return safe;
}

function safeText(text: string): string {
  return text
    .replace(/</g, '&lt;')
    .replace(/\]\(\s*(&lt;)?\s*([a-z][a-z0-9+.-]*:)/gi, (all, _lt, scheme: string) =>
      SAFE_SCHEME.test(scheme) ? all : `]\\(${all.slice(2)}`,
    );
}

export function exportMarkdown(doc: ExportDocument): string {
  const { meta, totals } = documentLines(doc);
  const title = doc.range ? `${doc.title} (turns ${doc.range.first}–${doc.range.last})` : doc.title;
  const blocks = [
    `# ${escapeMarkdown(title)}`,
    escapeMarkdown(meta),
    ...totals.map(escapeMarkdown),
    ...doc.turns.map((turn) => turnMarkdown(doc, turn)),
    ...(doc.after.length > 0 ? [branchesMarkdown(doc, doc.after, 'after the last turn')] : []),
    '---',
    escapeMarkdown(`Exported from Trellis on ${localTime(doc.exportedAt)}.`),
  ];
  return `${blocks.join('\n\n')}\n`;
}

function turnMarkdown(doc: ExportDocument, turn: ExportTurn): string {
  const name = turn.number !== undefined ? `Turn ${turn.number}` : 'Rewound turn';
  const usage = turnUsageText(turn);
  const head = `## ${name} · ${localTime(turn.startedAt)}`;
  return [
    turn.number !== undefined ? escapeHeading(head) : `**${escapeMarkdown(head.slice(3))}**`,
    ...(usage ? [`*${escapeMarkdown(usage)}*`] : []),
    ...(turn.alternatives.length > 0
      ? [branchesMarkdown(doc, turn.alternatives, 'of this turn')]
      : []),
    ...turn.items.map((item) => itemMarkdown(doc, item)),
    ...turn.files.map(
      (file) =>
        `*File saved:* ${escapeMarkdown(`${file.name} (version ${file.version}${file.mimeType ? `, ${file.mimeType}` : ''})`)}`,
    ),
  ].join('\n\n');
}

const escapeHeading = (head: string) => `## ${escapeMarkdown(head.slice(3))}`;

/** Rewound branches as quotes, where the conversation left them. */
function branchesMarkdown(doc: ExportDocument, branches: ExportBranch[], where: string): string {
  const count = branches.length;
  const said = `${count} rewound version${count === 1 ? '' : 's'} ${where}:`;
  const quoted = branches
    .map((branch) => branch.turns.map((turn) => turnMarkdown(doc, turn)).join('\n\n'))
    .join('\n\n---\n\n');
  return [`*${escapeMarkdown(said)}*`, quote(quoted)].join('\n\n');
}

const quote = (text: string) =>
  text
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');

function itemMarkdown(doc: ExportDocument, item: ChatItem): string {
  switch (item.kind) {
    case 'message': {
      const author = `**${escapeMarkdown(authorName(doc, item.author, item.fromUser))}:**`;
      const text = !item.text
        ? ''
        : item.json
          ? codeBlock(item.text, 'json')
          : item.fromUser
            ? escapeMarkdown(item.text)
            : safeAnswer(item.text);
      const files = (item.attachments ?? []).map(
        (file) => `*Attached:* ${escapeMarkdown(`${file.name} (${file.mimeType})`)}`,
      );
      return [
        author,
        text,
        ...files,
        item.cut ? `*${CUT_TEXT[item.cut]}*` : '',
        item.usage ? `*${escapeMarkdown(item.usage)}*` : '',
      ]
        .filter(Boolean)
        .join('\n\n');
    }
    case 'tool': {
      const { args, result } = callTexts(item);
      return [
        `*Tool call* \`${item.name.replace(/[`\n]/g, "'")}\` · ${escapeMarkdown(item.status)}`,
        codeBlock(args, 'json'),
        ...(result !== undefined ? ['*Result:*', codeBlock(result, 'json')] : []),
      ].join('\n\n');
    }
    case 'error':
      return `**Error:** ${escapeMarkdown(item.text)}`;
    case 'note':
    case 'compaction':
      return `*${escapeMarkdown(item.text)}*`;
  }
}
