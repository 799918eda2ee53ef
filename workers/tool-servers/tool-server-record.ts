// A tool server as the worker stores it (setting `toolServers`) and as the page may see it: its
// header values (plain, or sealed by the key vault) never leave the worker but as masked hints.

import type { StoredSecret } from '../keys/key-vault.ts';
import type { ToolInfo, ToolServerInfo } from '../protocol.ts';

/** A tool server as stored: its header values included (sealed, with a passphrase). */
export interface ToolServerRecord {
  id: string;
  name: string;
  url: string;
  headers: StoredHeader[];
  /** Tools the user switched off. */
  disabledTools: string[];
  /** The tools the server listed when last tested (absent in records from before). */
  tools?: ToolInfo[];
  updatedAt: number;
}

/** How much of a server's listing is kept for the forms. */
const LISTING_LIMITS = { tools: 500, name: 200, description: 1000 };

/** A header as stored: its value plain or sealed; a sealed one keeps its masked hint beside it. */
export interface StoredHeader {
  name: string;
  value: StoredSecret;
  hint?: string;
}

/** A tool server with its header values opened: for connecting, in this worker only. */
export type OpenedToolServer = Omit<ToolServerRecord, 'headers'> & {
  headers: { name: string; value: string }[];
};

/** Where a server's header values sit, bound into their sealed form. */
export const toolServerPlace = (id: string) => `tool-server:${id}`;

/** A tool listing as stored: names and descriptions capped, each name once. */
export function listing(tools: readonly ToolInfo[]): ToolInfo[] {
  const seen = new Set<string>();
  const kept: ToolInfo[] = [];
  for (const tool of tools) {
    const name = String(tool?.name ?? '').slice(0, LISTING_LIMITS.name);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    kept.push({
      name,
      description: String(tool.description ?? '').slice(0, LISTING_LIMITS.description),
    });
    if (kept.length === LISTING_LIMITS.tools) break;
  }
  return kept;
}

/** What the page may see of a server: each header's value only as a masked hint. */
export function infoOf(record: ToolServerRecord): ToolServerInfo {
  const { id, name, url, disabledTools, updatedAt } = record;
  return {
    id,
    name,
    url,
    disabledTools,
    tools: record.tools ?? [],
    updatedAt,
    headers: record.headers.map(({ name, value, hint }) => ({
      name,
      hint: typeof value === 'string' ? headerHint(value) : (hint ?? '••••'),
    })),
  };
}

export function withoutKept({
  kept: _kept,
  ...header
}: StoredHeader & { kept?: boolean }): StoredHeader {
  return header;
}

/** A value's hint: its last four characters (none for an empty one). */
export function headerHint(value: string): string {
  if (!value) return '';
  return value.length <= 4 ? '••••' : `••••${value.slice(-4)}`;
}
