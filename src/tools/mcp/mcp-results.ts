// An MCP tool's result as the function response the model reads: text as text, structured
// content as JSON, images, audio and other binary content saved as session artifacts (the model
// is told their names and versions: the bytes never go into the log), and a result marked
// `isError` as an error the model can act on.

import type { Part } from '../../core/content.ts';

/** The parts of MCP's CallToolResult the response is made of. */
export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; data: string; mimeType: string }
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string; text?: string; blob?: string };
    }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
  | { type: string; [key: string]: unknown };

/** Saves a file as an artifact of the session; resolves its version. */
export type SaveArtifact = (filename: string, part: Part) => Promise<number>;

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/mpeg': 'mp3',
  'application/pdf': 'pdf',
};

export async function mcpResponse(
  result: McpCallResult,
  save: SaveArtifact,
): Promise<Record<string, unknown>> {
  const texts: string[] = [];
  const files: { filename: string; version: number; mimeType: string }[] = [];
  const links: { uri: string; name?: string }[] = [];
  for (const [index, item] of (result.content ?? []).entries()) {
    if (item.type === 'text' && typeof item.text === 'string') texts.push(item.text);
    else if ((item.type === 'image' || item.type === 'audio') && typeof item.data === 'string') {
      const mimeType = String(item.mimeType ?? 'application/octet-stream');
      const filename = `mcp-${index + 1}.${EXTENSIONS[mimeType] ?? 'bin'}`;
      files.push({
        filename,
        mimeType,
        version: await save(filename, inline(mimeType, item.data)),
      });
    } else if (item.type === 'resource' && isRecord(item.resource)) {
      const resource = item.resource as {
        uri: string;
        mimeType?: string;
        text?: string;
        blob?: string;
      };
      if (typeof resource.text === 'string') texts.push(resource.text);
      else if (typeof resource.blob === 'string') {
        const mimeType = resource.mimeType ?? 'application/octet-stream';
        const filename = fileNameOf(resource.uri, index, mimeType);
        files.push({
          filename,
          mimeType,
          version: await save(filename, inline(mimeType, resource.blob)),
        });
      }
    } else if (item.type === 'resource_link' && typeof item.uri === 'string') {
      links.push({ uri: item.uri, ...(typeof item.name === 'string' ? { name: item.name } : {}) });
    }
  }
  const text = texts.join('\n');
  if (result.isError) return { error: text || 'The tool reported an error' };
  return {
    ...(text ? { result: text } : {}),
    ...(result.structuredContent ? { structured: result.structuredContent } : {}),
    ...(files.length > 0 ? { artifacts: files } : {}),
    ...(links.length > 0 ? { links } : {}),
  };
}

function inline(mimeType: string, data: string): Part {
  return { inlineData: { mimeType, data } };
}

/** A file name from a resource's URI (its last segment, made safe), else one by position. */
function fileNameOf(uri: string, index: number, mimeType: string): string {
  const last = uri.split(/[/?#]/).filter(Boolean).at(-1) ?? '';
  const safe = last.replace(/[^\w.-]+/g, '_').slice(0, 100);
  return safe || `mcp-${index + 1}.${EXTENSIONS[mimeType] ?? 'bin'}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
