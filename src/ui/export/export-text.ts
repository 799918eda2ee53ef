// What the HTML and Markdown writers say alike: times, usage, who wrote a message, a call's
// arguments and result, and which files may be shown as images (a data: URL of a raster image,
// checked: the MIME type from a short list, the bytes base64 and nothing else).

import type { SessionUsage } from '../../core/usage.ts';
import { formatMs, sessionUsageText } from '../common/usage-format.ts';
import type { ChatItem } from '../chat/chat-model.ts';
import type { ExportDocument, ExportTurn } from './export-model.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-11-27 17:22" in the exporter's time zone (the ISO time goes in `datetime`). */
export function localTime(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** "2026-11-27" in the exporter's time zone: a file name's date. */
export function localDate(ms: number): string {
  return localTime(ms).slice(0, 10);
}

export const isoTime = (ms: number) => new Date(ms).toISOString();

/** "3 model calls · 1,200 tokens in · 80 out · 2.1 s" ('' without a call). */
export const usageText = (usage: SessionUsage) => sessionUsageText(usage);

/** A turn's line: its usage, and how long it took when it took a second or more. */
export function turnUsageText(turn: ExportTurn): string {
  const took = turn.endedAt - turn.startedAt;
  return [usageText(turn.usage), took >= 1000 ? `took ${formatMs(took)}` : '']
    .filter(Boolean)
    .join(' · ');
}

/** The header's lines: the agent and times, what is shown, and what it cost. */
export function documentLines(doc: ExportDocument): { meta: string; totals: string[] } {
  const shown = doc.range
    ? `turns ${doc.range.first}–${doc.range.last} of ${doc.range.of}`
    : `${doc.turns.length} turn${doc.turns.length === 1 ? '' : 's'}`;
  const totals = [usageText(doc.usage) && `Usage: ${usageText(doc.usage)}`];
  if (doc.rewoundUsage.calls > 0)
    totals.push(`Rewound branches shown: ${usageText(doc.rewoundUsage)}`);
  return {
    meta: `Agent: ${doc.agent} · started ${localTime(doc.createdAt)} · last updated ${localTime(doc.updatedAt)} · ${shown}`,
    totals: totals.filter(Boolean),
  };
}

/** The name a message's author is shown with. */
export function authorName(doc: ExportDocument, author: string, fromUser: boolean): string {
  return fromUser ? 'You' : (doc.authors.get(author) ?? author);
}

type ToolItem = Extract<ChatItem, { kind: 'tool' }>;

/** Characters of a call's arguments or result written out; the rest is said, not shown. */
export const CALL_CHARS = 100_000;

/** A call's arguments and result as pretty JSON, each cut at CALL_CHARS. */
export function callTexts(item: ToolItem): { args: string; result?: string } {
  const cut = (value: unknown) => {
    const text = JSON.stringify(value, null, 2) ?? String(value);
    return text.length <= CALL_CHARS
      ? text
      : `${text.slice(0, CALL_CHARS)}\n… (${(text.length - CALL_CHARS).toLocaleString('en')} more characters)`;
  };
  return {
    args: cut(item.call.args),
    ...(item.call.result !== undefined ? { result: cut(item.call.result) } : {}),
  };
}

export const CUT_TEXT = {
  stopped: 'Stopped before it finished',
  'cut-off': 'Cut off before it finished',
} as const;

/** Raster images only: an SVG can carry script and links, and other types are not images. */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** A data: URL for an image file, or undefined when it is not one that may be shown. */
export function imageUrl(
  mimeType: string | undefined,
  data: string | undefined,
): string | undefined {
  if (!mimeType || data === undefined || !IMAGE_TYPES.has(mimeType.toLowerCase())) return undefined;
  const standard = data.replace(/-/g, '+').replace(/_/g, '/');
  if (!BASE64.test(standard)) return undefined;
  return `data:${mimeType.toLowerCase()};base64,${standard}`;
}
