// Knowledge bases in a backup (issue 34): each base's record, and per document its record, its
// extracted text (with a PDF's page spans), its original file (base64, as artifacts' bytes are)
// and its chunks. Read and written only through the KnowledgeStorage contract. What must stay true:
// - no vectors travel: they are remade (Re-index in the Knowledge view embeds again); until then
//   a search of the restored base is by its words (a hybrid search without vectors is a
//   full-text one, KnowledgeBase.searchOwn);
// - no secret: a base names its embedding provider by id and model only, nothing else of it;
// - a chunk travels without its text: a chunk's text is its document's text between its offsets
//   (types.ts), so it is cut again on restore and cannot say something its document does not;
// - the knowledge part is checked whole before anything is written (checkedKnowledge refuses
//   the file); a restore merges: a base or document here already (same id) is kept as it is,
//   the same counted as unchanged, different named as a conflict; each document is one
//   putDocument (all or nothing), so a restore cut short is finished by restoring again.

import { base64ToBytes, bytesToBase64 } from '../../src/core/content.ts';
import { messageOf } from '../../src/core/errors.ts';
import { checkChunking } from '../../src/knowledge/chunk.ts';
import {
  chunkIdOf,
  type DocumentText,
  type KnowledgeStorage,
} from '../../src/knowledge/knowledge-storage.ts';
import type {
  DocumentKind,
  DocumentStatus,
  KnowledgeBaseInfo,
  KnowledgeChunk,
  KnowledgeDocument,
  PageSpan,
} from '../../src/knowledge/types.ts';

/** A chunk as a backup holds it: its text is its document's between `start` and `end`. */
export interface BackupChunk {
  id: string;
  start: number;
  end: number;
  heading?: string;
  page?: number;
}

export interface BackupKnowledgeDocument {
  record: KnowledgeDocument;
  text: DocumentText;
  /** The original file, its bytes in base64; absent: not kept. */
  file?: { name: string; type: string; data: string };
  chunks: BackupChunk[];
}

export interface BackupKnowledgeBase {
  base: KnowledgeBaseInfo;
  documents: BackupKnowledgeDocument[];
}

/** What a restore says it did (RestoreReport's parts). */
interface Report {
  restored: string[];
  unchanged: number;
  conflicts: string[];
}

const KINDS: readonly DocumentKind[] = ['text', 'markdown', 'html', 'pdf'];
const STATUSES: readonly DocumentStatus[] = ['indexing', 'indexed', 'stopped', 'failed'];
/** Longest of a name, a type, a heading, a description or an error (texts are the file's limit). */
const SHORT = 1000;
const LONG = 10_000;

/** Every base as a backup holds it, the oldest first. */
export async function backupKnowledge(storage: KnowledgeStorage): Promise<BackupKnowledgeBase[]> {
  const bases: BackupKnowledgeBase[] = [];
  for (const info of await storage.bases()) {
    const documents: BackupKnowledgeDocument[] = [];
    for (const record of await storage.documents(info.id)) {
      const [text, file, chunks] = await Promise.all([
        storage.text(info.id, record.id),
        storage.file(info.id, record.id),
        storage.chunks(info.id, record.id),
      ]);
      // A document without its text (it cannot be, but a store may be damaged) is left out.
      if (!text) continue;
      documents.push({
        record,
        text: { text: text.text, ...(text.pages ? { pages: text.pages } : {}) },
        ...(file
          ? { file: { name: file.name, type: file.type, data: bytesToBase64(file.bytes) } }
          : {}),
        chunks: chunks.map(({ id, start, end, heading, page }) => ({
          id,
          start,
          end,
          ...(heading !== undefined ? { heading } : {}),
          ...(page !== undefined ? { page } : {}),
        })),
      });
    }
    bases.push({ base: baseInfo(info), documents });
  }
  return bases;
}

/**
 * A backup's `knowledge`, checked (absent: none, as in files before version 3): every base's and
 * document's record, text, file and chunks as they must be, ids once each. A problem refuses the
 * file (`refuse` throws).
 */
export function checkedKnowledge(
  value: unknown,
  refuse: (problem: string) => never,
): BackupKnowledgeBase[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) refuse('its "knowledge" is not a list');
  const baseIds = new Set<string>();
  const documentIds = new Set<string>();
  return (value as unknown[]).map((item, index) => {
    const at = `knowledge base #${index + 1}`;
    const entry = record(item) ?? refuse(`${at} is not an object`);
    const base = checkedBase(entry.base, at, refuse);
    if (baseIds.has(base.id)) refuse(`"knowledge" has the base id ${base.id} twice`);
    baseIds.add(base.id);
    if (!Array.isArray(entry.documents)) refuse(`the documents of ${at} are not a list`);
    const documents = (entry.documents as unknown[]).map((doc, n) => {
      const checked = checkedDocument(doc, base.id, `document #${n + 1} of ${at}`, refuse);
      if (documentIds.has(checked.record.id))
        refuse(`"knowledge" has the document id ${checked.record.id} twice`);
      documentIds.add(checked.record.id);
      return checked;
    });
    return { base, documents };
  });
}

/** Merges the backup's bases into `storage` (see the rules at the top). */
export async function restoreKnowledge(
  storage: KnowledgeStorage,
  bases: readonly BackupKnowledgeBase[],
  report: Report,
): Promise<void> {
  for (const { base, documents } of bases) {
    const here = await storage.base(base.id);
    if (here && !same(comparableBase(here), comparableBase(base))) {
      report.conflicts.push(
        `The knowledge base "${here.name}" here differs from the backup's "${base.name}" (same id ${base.id}): yours is kept, with its documents`,
      );
      continue;
    }
    if (here) report.unchanged++;
    else {
      await storage.putBase(base);
      report.restored.push(`knowledge base ${base.name}`);
    }
    for (const document of documents) await restoreDocument(storage, document, report);
  }
}

async function restoreDocument(
  storage: KnowledgeStorage,
  { record, text, file, chunks }: BackupKnowledgeDocument,
  report: Report,
): Promise<void> {
  const here = await storage.document(record.id);
  if (here) {
    if (here.baseId === record.baseId && same(comparableDocument(here), comparableDocument(record)))
      report.unchanged++;
    else
      report.conflicts.push(
        `The knowledge document "${here.name}" here differs from the backup's "${record.name}" (same id ${record.id}): yours is kept`,
      );
    return;
  }
  await storage.putDocument(record, {
    text,
    ...(file
      ? { file: { name: file.name, type: file.type, bytes: base64ToBytes(file.data) } }
      : {}),
    chunks: chunks.map((chunk, seq) => ({
      ...chunk,
      baseId: record.baseId,
      documentId: record.id,
      seq,
      text: text.text.slice(chunk.start, chunk.end),
    })) satisfies KnowledgeChunk[],
  });
  report.restored.push(`knowledge document ${record.name}`);
}

function checkedBase(value: unknown, at: string, refuse: (problem: string) => never) {
  const base = record(value) ?? refuse(`${at} has no record`);
  const id = text(base.id, 200) || refuse(`${at} has no id`);
  const name = text(base.name, 200) || refuse(`${at} has no name (at most 200 characters)`);
  const description = text(base.description, LONG);
  if (description === undefined) refuse(`the description of ${at} is not text`);
  const chunking = record(base.chunking) ?? refuse(`${at} has no chunking`);
  try {
    checkChunking({ size: chunking.size as number, overlap: chunking.overlap as number });
  } catch (error) {
    refuse(`the chunking of ${at} is not valid (${messageOf(error)})`);
  }
  let embedding: KnowledgeBaseInfo['embedding'];
  if (base.embedding !== undefined) {
    const choice = record(base.embedding);
    const providerId = text(choice?.providerId, 200);
    const model = text(choice?.model, 200);
    if (!providerId || !model) refuse(`the embedding model of ${at} names no provider and model`);
    embedding = { providerId: providerId!, model: model! };
  }
  if (!isTime(base.createdAt) || !isTime(base.updatedAt)) refuse(`${at} has no dates`);
  return baseInfo({
    id,
    name,
    description: description!,
    chunking: { size: chunking.size as number, overlap: chunking.overlap as number },
    ...(embedding ? { embedding } : {}),
    createdAt: base.createdAt as number,
    updatedAt: base.updatedAt as number,
  });
}

function checkedDocument(
  value: unknown,
  baseId: string,
  at: string,
  refuse: (problem: string) => never,
): BackupKnowledgeDocument {
  const entry = record(value) ?? refuse(`${at} is not an object`);
  const doc = record(entry.record) ?? refuse(`${at} has no record`);
  const id = text(doc.id, 200) || refuse(`${at} has no id`);
  if (doc.baseId !== baseId) refuse(`${at} is not of its base`);
  const name = text(doc.name, SHORT) || refuse(`${at} has no name (at most ${SHORT} characters)`);
  if (!KINDS.includes(doc.kind as DocumentKind)) refuse(`${at} is of an unknown kind`);
  if (!STATUSES.includes(doc.status as DocumentStatus)) refuse(`${at} has an unknown status`);
  if (doc.error !== undefined && text(doc.error, LONG) === undefined)
    refuse(`the error of ${at} is not text`);
  const content = record(entry.text) ?? refuse(`${at} has no text`);
  if (typeof content.text !== 'string') refuse(`${at} has no text`);
  const length = (content.text as string).length;
  const inText = (start: unknown, end: unknown) =>
    count(start) && count(end) && (start as number) <= (end as number) && (end as number) <= length;
  let pages: PageSpan[] | undefined;
  if (content.pages !== undefined) {
    if (!Array.isArray(content.pages)) refuse(`the pages of ${at} are not a list`);
    pages = (content.pages as unknown[]).map((item, n) => {
      const span = record(item);
      if (!span || !count(span.page) || span.page === 0 || !inText(span.start, span.end))
        refuse(`page #${n + 1} of ${at} lies outside its text`);
      return { page: span!.page as number, start: span!.start as number, end: span!.end as number };
    });
  }
  let file: BackupKnowledgeDocument['file'];
  if (entry.file !== undefined) {
    const kept = record(entry.file);
    const fileName = text(kept?.name, SHORT);
    const type = text(kept?.type, SHORT);
    if (!kept || fileName === undefined || type === undefined || typeof kept.data !== 'string')
      refuse(`the file of ${at} has no name, type or bytes`);
    try {
      base64ToBytes(kept!.data as string);
    } catch {
      refuse(`the file of ${at} is not base64`);
    }
    file = { name: fileName!, type: type!, data: kept!.data as string };
  }
  if (!Array.isArray(entry.chunks)) refuse(`the chunks of ${at} are not a list`);
  const chunks = (entry.chunks as unknown[]).map((item, seq): BackupChunk => {
    const chunk = record(item);
    if (!chunk || chunk.id !== chunkIdOf(id, seq))
      refuse(`chunk #${seq + 1} of ${at} is not chunk ${seq} of its document`);
    if (!inText(chunk!.start, chunk!.end))
      refuse(`chunk #${seq + 1} of ${at} lies outside its text`);
    const heading = chunk!.heading === undefined ? undefined : text(chunk!.heading, LONG);
    if (chunk!.heading !== undefined && heading === undefined)
      refuse(`the heading of chunk #${seq + 1} of ${at} is not text`);
    if (chunk!.page !== undefined && (!count(chunk!.page) || chunk!.page === 0))
      refuse(`the page of chunk #${seq + 1} of ${at} is not a page number`);
    return {
      id: chunk!.id as string,
      start: chunk!.start as number,
      end: chunk!.end as number,
      ...(heading !== undefined ? { heading } : {}),
      ...(chunk!.page !== undefined ? { page: chunk!.page as number } : {}),
    };
  });
  if (!count(doc.size) || !isTime(doc.addedAt)) refuse(`${at} has no size or date`);
  if (doc.chars !== length)
    refuse(`${at} says ${String(doc.chars)} characters; its text has ${length}`);
  if (doc.chunkCount !== chunks.length)
    refuse(`${at} says ${String(doc.chunkCount)} chunks; it has ${chunks.length}`);
  if (doc.pages !== undefined && !count(doc.pages)) refuse(`the page count of ${at} is not one`);
  return {
    // The record's own fields only: nothing else of the file is stored.
    record: {
      id,
      baseId,
      name,
      kind: doc.kind as DocumentKind,
      size: doc.size as number,
      chars: length,
      ...(doc.pages !== undefined ? { pages: doc.pages as number } : {}),
      chunkCount: chunks.length,
      status: doc.status as DocumentStatus,
      ...(doc.error !== undefined ? { error: doc.error as string } : {}),
      addedAt: doc.addedAt as number,
    },
    text: { text: content.text as string, ...(pages ? { pages } : {}) },
    ...(file ? { file } : {}),
    chunks,
  };
}

/** A base's record with nothing but its own fields (an embedding choice: provider id and model). */
function baseInfo(info: KnowledgeBaseInfo): KnowledgeBaseInfo {
  const { id, name, description, chunking, embedding, createdAt, updatedAt } = info;
  return {
    id,
    name,
    description,
    chunking: { size: chunking.size, overlap: chunking.overlap },
    ...(embedding
      ? { embedding: { providerId: embedding.providerId, model: embedding.model } }
      : {}),
    createdAt,
    updatedAt,
  };
}

/** What makes a base another: its record but when it last changed. */
const comparableBase = (info: KnowledgeBaseInfo) => ({ ...baseInfo(info), updatedAt: undefined });

/**
 * What makes a document another, in an order of its own (stored records' fields may come in
 * another): not its status or error (embedding here changes them), nor its chunk count (a
 * re-index here cuts it anew; it is the same document).
 */
const comparableDocument = (document: KnowledgeDocument) =>
  Object.entries(document)
    .filter(
      ([name, value]) => value !== undefined && !['status', 'error', 'chunkCount'].includes(name),
    )
    .sort(([a], [b]) => (a < b ? -1 : 1));

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** The value when it is text of at most `max` characters. */
function text(value: unknown, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

function count(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
