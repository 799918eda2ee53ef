// The Knowledge view's pure parts: the new-base form's draft and its checks, the files it takes,
// and how documents, progress and settings changes are said in words. No worker, no DOM: the
// unit tests pin them (test/unit/ui/knowledge-format.test.ts).
//
// What must stay true: a draft that has problems is never sent (the worker checks again); the
// files the view takes are the ones the worker can read (text, Markdown, HTML, PDF), by name when
// the browser gives no type.

import { DEFAULT_EMBEDDING_MODELS } from '../../knowledge/embedders.ts';
import {
  CHUNKING_LIMITS,
  DEFAULT_CHUNKING,
  type KnowledgeBaseDraft,
  type KnowledgeBaseInfo,
  type KnowledgeDocument,
  type KnowledgeProgress,
  type ProviderInfo,
} from '../../../workers/protocol.ts';

/** The form of a base as typed: numbers as the inputs hold them, the model as two fields. */
export interface BaseForm {
  name: string;
  description: string;
  size: string;
  overlap: string;
  /** '' : full-text only. */
  providerId: string;
  model: string;
}

export function emptyForm(): BaseForm {
  return {
    name: '',
    description: '',
    size: String(DEFAULT_CHUNKING.size),
    overlap: String(DEFAULT_CHUNKING.overlap),
    providerId: '',
    model: '',
  };
}

export function formOf(base: KnowledgeBaseInfo): BaseForm {
  return {
    name: base.name,
    description: base.description,
    size: String(base.chunking.size),
    overlap: String(base.chunking.overlap),
    providerId: base.embedding?.providerId ?? '',
    model: base.embedding?.model ?? '',
  };
}

/** What is wrong with the form, in sentences (none: it can be saved). */
export function formProblems(form: BaseForm, providers: readonly ProviderInfo[]): string[] {
  const problems: string[] = [];
  if (!form.name.trim()) problems.push('Give the knowledge base a name.');
  const size = wholeNumber(form.size);
  const overlap = wholeNumber(form.overlap);
  const { minSize, maxSize } = CHUNKING_LIMITS;
  if (size === undefined || size < minSize || size > maxSize)
    problems.push(
      `Chunk size: a whole number of characters from ${minSize.toLocaleString('en')} to ${maxSize.toLocaleString('en')}.`,
    );
  if (overlap === undefined || overlap < 0)
    problems.push('Overlap: a whole number of characters, 0 or more.');
  else if (size !== undefined && overlap * 2 >= size)
    problems.push('Overlap: less than half the chunk size.');
  if (form.providerId) {
    if (!providers.some((provider) => provider.id === form.providerId))
      problems.push('The embedding provider is gone: choose another, or full-text only.');
    else if (!form.model.trim()) problems.push('Name the embedding model.');
  }
  return problems;
}

/** What the worker is sent for a form without problems. */
export function draftOf(form: BaseForm): KnowledgeBaseDraft {
  return {
    name: form.name.trim(),
    description: form.description.trim(),
    chunking: { size: Number(form.size), overlap: Number(form.overlap) },
    embedding: form.providerId ? { providerId: form.providerId, model: form.model.trim() } : null,
  };
}

/**
 * The model a provider's embeddings start from: the kind's usual one (embedders.ts); a local
 * GGUF's is its own file.
 */
export function defaultEmbeddingModel(provider: ProviderInfo | undefined): string {
  if (!provider) return '';
  if (provider.kind === 'local-gguf') return provider.localFile?.name ?? provider.defaultModel;
  return DEFAULT_EMBEDDING_MODELS[provider.kind];
}

function wholeNumber(text: string): number | undefined {
  return /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
}

/**
 * What saving a changed form will do to the base's documents, to say before Save: a change of
 * chunking re-indexes them, a change of model embeds them again. Undefined: nothing of that.
 */
export function changeEffect(base: KnowledgeBaseInfo, form: BaseForm): string | undefined {
  const said: string[] = [];
  const size = Number(form.size);
  const overlap = Number(form.overlap);
  if (size !== base.chunking.size || overlap !== base.chunking.overlap)
    said.push('the new chunking re-indexes every document');
  const before = base.embedding ? `${base.embedding.providerId}/${base.embedding.model}` : '';
  const after = form.providerId ? `${form.providerId}/${form.model.trim()}` : '';
  if (before !== after)
    said.push(
      after ? 'the new embedding model embeds every chunk again' : 'search becomes full-text only',
    );
  if (said.length === 0) return undefined;
  const text = said.join(', and ');
  return `Saving: ${text}.`;
}

/** What the file input takes. */
export const ACCEPTED_FILES =
  '.txt,.md,.markdown,.html,.htm,.pdf,text/plain,text/markdown,text/html,application/pdf';

const EXTENSIONS = /\.(txt|md|markdown|html?|pdf)$/i;
const TYPES = new Set([
  'text/plain',
  'text/markdown',
  'text/x-markdown',
  'text/html',
  'application/pdf',
]);

/** Whether the worker can read a file of this name and type. */
export function acceptedFile(file: { name: string; type: string }): boolean {
  return EXTENSIONS.test(file.name) || TYPES.has(file.type);
}

/** The files it can read, and a sentence naming the others (undefined: none left out). */
export function sortFiles<F extends { name: string; type: string }>(
  files: readonly F[],
): { taken: F[]; refused: string | undefined } {
  const taken = files.filter(acceptedFile);
  const left = files.filter((file) => !acceptedFile(file)).map((file) => `“${file.name}”`);
  const refused =
    left.length === 0
      ? undefined
      : `${left.join(', ')} ${left.length === 1 ? 'is' : 'are'} not text, Markdown, HTML or PDF: left out.`;
  return { taken, refused };
}

/** "12 KB", "1.4 MB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const KINDS: Record<KnowledgeDocument['kind'], string> = {
  text: 'Text',
  markdown: 'Markdown',
  html: 'HTML',
  pdf: 'PDF',
};

/** "PDF · 1.4 MB · 12 pages · 40 chunks". */
export function documentFacts(doc: KnowledgeDocument): string {
  const facts = [KINDS[doc.kind], formatSize(doc.size)];
  if (doc.pages !== undefined) facts.push(plural(doc.pages, 'page'));
  facts.push(plural(doc.chunkCount, 'chunk'));
  return facts.join(' · ');
}

/** A document's status in words (a failed one says why). */
export function documentStatus(doc: KnowledgeDocument): string {
  switch (doc.status) {
    case 'indexed':
      return 'Indexed';
    case 'indexing':
      return 'Indexing…';
    case 'stopped':
      return 'Stopped before it was indexed';
    case 'failed':
      return doc.error ? `Failed: ${doc.error}` : 'Failed';
  }
}

/** A progress bar's words: "Reading notes.pdf (2 of 5 documents)". */
export function progressText(progress: KnowledgeProgress): string {
  const { phase, document, done, total } = progress;
  const of = (unit: string) => `${done.toLocaleString('en')} of ${plural(total, unit)}`;
  switch (phase) {
    case 'reading':
      return document ? `Reading ${document} (${of('document')})` : `Reading (${of('document')})`;
    case 'indexing':
      return document ? `Indexing ${document} (${of('document')})` : `Indexing (${of('document')})`;
    case 'embedding':
      return `Embedding (${of('chunk')})`;
    case 'done':
      return 'Done.';
    case 'stopped':
      return 'Stopped: what was done is kept.';
    case 'failed':
      return progress.error ? `Failed: ${progress.error}` : 'Failed.';
  }
}

/** Whether a job is still under way (Stop is offered). */
export function running(progress: KnowledgeProgress | undefined): boolean {
  return (
    progress !== undefined &&
    (progress.phase === 'reading' ||
      progress.phase === 'indexing' ||
      progress.phase === 'embedding')
  );
}

/** "Full-text search" or "Hybrid search with text-embedding-004 (Gemini)". */
export function searchKind(base: KnowledgeBaseInfo, providers: readonly ProviderInfo[]): string {
  if (!base.embedding) return 'Full-text search';
  const provider = providers.find((item) => item.id === base.embedding!.providerId);
  return `Hybrid search with ${base.embedding.model} (${provider?.name ?? 'a removed provider'})`;
}

export function plural(count: number, unit: string): string {
  return `${count.toLocaleString('en')} ${unit}${count === 1 ? '' : 's'}`;
}
