// What the page's document viewer and "Download" read of a knowledge base (workers/knowledge/
// knowledge.ts's `open` and `file`), and the room's page-facing methods as one object: a chunk
// shown in its document (a PDF's page, else the text around it), the original file when kept.

import { KnowledgeNotFoundError } from '../../src/core/errors.ts';
import type { KnowledgeStorage } from '../../src/knowledge/knowledge-storage.ts';
import { placeOf } from '../../src/knowledge/types.ts';
import type { KnowledgeApi, KnowledgeChunkView } from './knowledge-protocol.ts';

/** Characters of a document shown around a chunk that is not on a PDF's page. */
const VIEW_AROUND = 3000;

export async function chunkView(
  storage: KnowledgeStorage,
  chunkId: string,
): Promise<KnowledgeChunkView> {
  const chunk = await storage.chunk(chunkId);
  if (!chunk)
    throw new KnowledgeNotFoundError(
      'That passage is no longer in the knowledge base: its document was removed or re-indexed',
    );
  const [document, stored] = await Promise.all([
    storage.document(chunk.documentId),
    storage.text(chunk.baseId, chunk.documentId),
  ]);
  if (!document || !stored)
    throw new KnowledgeNotFoundError('That document was removed from the knowledge base');
  const page = stored.pages?.find((span) => span.page === chunk.page);
  const from = page ? page.start : Math.max(0, chunk.start - VIEW_AROUND);
  const to = page
    ? Math.max(page.end, chunk.end)
    : Math.min(stored.text.length, chunk.end + VIEW_AROUND);
  return {
    baseId: chunk.baseId,
    documentId: chunk.documentId,
    document: document.name,
    kind: document.kind,
    place: placeOf(chunk),
    text: stored.text.slice(from, to),
    start: chunk.start - from,
    end: chunk.end - from,
    hasFile: Boolean(await storage.file(chunk.baseId, chunk.documentId)),
  };
}

export async function documentFile(
  storage: KnowledgeStorage,
  documentId: string,
): Promise<{ name: string; type: string; bytes: ArrayBuffer }> {
  const document = await storage.document(documentId);
  const file = document && (await storage.file(document.baseId, documentId));
  if (!file) throw new KnowledgeNotFoundError('That document’s file is not kept');
  const bytes = file.bytes.slice().buffer;
  return { name: file.name, type: file.type, bytes };
}

/**
 * The room's page-facing methods as a plain object of functions (Comlink calls them through
 * `api.knowledge`): the page reaches nothing else of it, not `hits` nor `toolFor`.
 */
export function knowledgeApi(room: KnowledgeApi): KnowledgeApi {
  return {
    list: () => room.list(),
    create: (draft) => room.create(draft),
    update: (baseId, draft) => room.update(baseId, draft),
    remove: (baseId) => room.remove(baseId),
    addFiles: (baseId, files) => room.addFiles(baseId, files),
    addText: (baseId, input) => room.addText(baseId, input),
    stop: (baseId) => room.stop(baseId),
    reindex: (baseId) => room.reindex(baseId),
    removeDocument: (baseId, documentId) => room.removeDocument(baseId, documentId),
    search: (baseIds, query, options) => room.search(baseIds, query, options),
    open: (chunkId) => room.open(chunkId),
    file: (documentId) => room.file(documentId),
  };
}
