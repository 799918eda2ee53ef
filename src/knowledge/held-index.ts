// A knowledge base's search index as this KnowledgeBase holds it (knowledge-index.ts is the index
// itself). What must stay true: the index handed out is a copy of storage at the revision stored
// now; it moves along with this base's own writes (`follow`) and is built again, from one bulk
// read, when storage's revision is another (another tab or writer) or another embedder's vectors
// are asked for. Searches that need the same build share it.

import { KnowledgeIndex } from './knowledge-index.ts';
import { baseNotFound, type KnowledgeStorage, type Revision } from './knowledge-storage.ts';

export class HeldIndex {
  /** The index, as of its `revision`; absent until the first search or after a change it missed. */
  private index: KnowledgeIndex | undefined;
  /** Builds under way, by revision and embedder key. */
  private readonly building = new Map<string, Promise<KnowledgeIndex>>();

  constructor(
    private readonly storage: KnowledgeStorage,
    private readonly baseId: string,
  ) {}

  /** The index as of storage's revision now, with `vectorKey`'s vectors when asked. */
  async current(vectorKey: string | undefined): Promise<KnowledgeIndex> {
    const revision = await this.storage.revision(this.baseId);
    if (revision === undefined) throw baseNotFound(this.baseId);
    const held = this.index;
    if (held?.revision === revision && (vectorKey === undefined || held.vectorKey === vectorKey))
      return held;
    const key = `${revision}\n${vectorKey ?? ''}`;
    let building = this.building.get(key);
    if (!building) {
      building = this.build(revision, vectorKey).finally(() => this.building.delete(key));
      this.building.set(key, building);
    }
    return building;
  }

  /**
   * Moves the index along with a write of this base: applied when the index is of the revision
   * the write replaced, else dropped (another writer came between; the next search builds it).
   * `apply` returns false when it cannot follow (the index must be built again).
   */
  follow(revision: Revision, apply: (index: KnowledgeIndex) => boolean | void): void {
    const index = this.index;
    if (!index || index.revision === revision.after) return;
    if (index.revision === revision.before && apply(index) !== false)
      index.revision = revision.after;
    else this.index = undefined;
  }

  drop(): void {
    this.index = undefined;
  }

  /**
   * Builds the index from storage. The revision was read before the content: content as new or
   * newer than its label makes at worst one build too many, never an index that looks current
   * but is not.
   */
  private async build(revision: string, vectorKey: string | undefined): Promise<KnowledgeIndex> {
    const [documents, chunks, vectors] = await Promise.all([
      this.storage.documents(this.baseId),
      this.storage.chunks(this.baseId),
      vectorKey ? this.storage.vectors(this.baseId, vectorKey) : undefined,
    ]);
    const names = new Map(documents.map((document) => [document.id, document.name]));
    const index = await KnowledgeIndex.build({
      chunks,
      names,
      revision,
      ...(vectorKey && vectors ? { vectors: { key: vectorKey, byChunk: vectors } } : {}),
    });
    this.index = index;
    return index;
  }
}
