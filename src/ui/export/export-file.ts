// Share and export, from the page: a session (or a range of its active turns) as a file to
// download. HTML and Markdown are rendered here from the worker's source (the chat's reading of
// events and the Markdown parser are the page's); JSON is the worker's session file. Loaded
// lazily (it brings markdown-it and highlight.js), the first time the user exports.

import type { ExportRequest, ExportSource, TurnRange } from '../../../workers/protocol.ts';
import { exportDocument } from './export-model.ts';
import { exportHtml } from './export-html.ts';
import { exportMarkdown } from './export-markdown.ts';
import { localDate } from './export-text.ts';

/** The worker's methods an export uses (the runtime client's, or a test's). */
export interface ExportRuntime {
  exportSource(sessionId: string): Promise<ExportSource>;
  exportSession(sessionId: string): Promise<{ filename: string; json: string }>;
  exportRange(sessionId: string, range: TurnRange): Promise<{ filename: string; json: string }>;
}

export interface ExportedFile {
  filename: string;
  text: string;
  type: string;
}

export interface ExportContext {
  agentName?: string | undefined;
  authors?: ReadonlyMap<string, string> | undefined;
  now?: number;
}

const TYPES = {
  html: { extension: 'html', type: 'text/html' },
  markdown: { extension: 'md', type: 'text/markdown' },
  json: { extension: 'trellis.json', type: 'application/json' },
} as const;

export async function exportFile(
  runtime: ExportRuntime,
  sessionId: string,
  request: ExportRequest,
  context: ExportContext = {},
): Promise<ExportedFile> {
  const now = context.now ?? Date.now();
  const { extension, type } = TYPES[request.format];
  if (request.format === 'json') {
    const file = request.range
      ? await runtime.exportRange(sessionId, request.range)
      : await runtime.exportSession(sessionId);
    const stem = file.filename.replace(/\.trellis\.json$/, '');
    return { filename: `${stem}-${localDate(now)}.${extension}`, text: file.json, type };
  }
  const source = await runtime.exportSource(sessionId);
  const doc = exportDocument(source, {
    range: request.range,
    agentName: context.agentName,
    authors: context.authors,
    exportedAt: now,
  });
  const part = doc.range
    ? doc.range.first === doc.range.last
      ? `-turn-${doc.range.first}`
      : `-turns-${doc.range.first}-${doc.range.last}`
    : '';
  return {
    filename: `${source.fileStem}${part}-${localDate(now)}.${extension}`,
    text: request.format === 'html' ? exportHtml(doc) : exportMarkdown(doc),
    type: `${type};charset=utf-8`,
  };
}
