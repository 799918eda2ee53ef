// Search across sessions, as stored (store `searchIndex`, out-of-line keys): per session a doc of
// what search finds in it (workers/search/search-docs.ts makes them; its revision names the
// state of the session it was read from) and its turns as records of their own (an append writes
// the one turn it changed), a manifest token renewed by every write, and the search index's
// parts as last saved, each with the revisions it holds. What must stay true:
// - a doc, its turns and the manifest token change in one transaction, so a room that finds the
//   token it wrote last knows no other tab wrote since;
// - the snapshot is only ever a copy: an index loaded from it catches up with the docs whose
//   revisions differ, and a snapshot, doc or manifest of another version reads as missing.

import { DatabaseRef, type IndexedDbServiceOptions } from './connection.ts';
import {
  Stores,
  type SearchDocRecord,
  type SearchIndexKey,
  type SearchIndexRecord,
  type SearchManifestRecord,
  type SearchSnapshotRecord,
  type SearchTurn,
  type SearchTurnRecord,
} from './database.ts';
import { readTransaction, writeTransaction } from './transaction.ts';

export type { SearchDocRecord, SearchSnapshotRecord, SearchTurn } from './database.ts';

/** The shape of what is stored; a record of another version is read as missing. */
export const SEARCH_STORE_VERSION = 1;
const VERSION = SEARCH_STORE_VERSION;
/** The shape of a saved part of the index (1 was the index in one piece). */
const SNAPSHOT_VERSION = 2;

const STORES = [Stores.searchIndex];

/** A part of the index to save: which, MiniSearch's JSON, the doc revisions it holds. */
export interface SearchSnapshotPart {
  bucket: number;
  index: string;
  revs: [sessionId: string, rev: string][];
}

/** A doc to store; its revision names the state of the session it was read from. */
export type SearchDocInput = Omit<SearchDocRecord, 'kind' | 'version'>;

/** A doc's write: its turns that changed (`replace`: its turns are these, and no others). */
export interface SearchDocWrite {
  doc: SearchDocInput;
  turns: readonly SearchTurn[];
  replace: boolean;
}

/** A doc's revision: the state of its session it was read from (its last update, log, title). */
export function revOf(lastUpdateTime: number, seq: number, title: string): string {
  return JSON.stringify([lastUpdateTime, seq, title]);
}

/** What a revision says of its session's last update and title (none: not a revision). */
export function revStamp(rev: string): { lastUpdateTime: number; title: string } | undefined {
  try {
    const value: unknown = JSON.parse(rev);
    if (Array.isArray(value) && typeof value[0] === 'number' && typeof value[2] === 'string')
      return { lastUpdateTime: value[0], title: value[2] };
  } catch {
    // not one of ours
  }
  return undefined;
}

export class IndexedDbSearchStore {
  private readonly database: DatabaseRef;

  constructor(
    private readonly appName: string,
    private readonly userId: string,
    options: IndexedDbServiceOptions = {},
  ) {
    this.database = DatabaseRef.acquire(options.dbName);
  }

  close(): Promise<void> {
    return this.database.release();
  }

  /** The manifest token (`undefined`: none stored, or unreadable: the docs must be read again). */
  async token(): Promise<string | undefined> {
    const db = await this.database.open();
    const found = await db.get(Stores.searchIndex, this.key('manifest'));
    return isManifest(found) ? found.token : undefined;
  }

  /** Every stored doc's revision, by session, and the token they are of. */
  async revs(): Promise<{ token: string | undefined; revs: Map<string, string> }> {
    const db = await this.database.open();
    const [found, docs] = await readTransaction(db, STORES, (tx) => {
      const store = tx.objectStore(Stores.searchIndex);
      return Promise.all([store.get(this.key('manifest')), store.getAll(this.range('doc'))]);
    });
    const revs = new Map<string, string>();
    for (const doc of docs) if (isDoc(doc)) revs.set(doc.sessionId, doc.rev);
    return { token: isManifest(found) ? found.token : undefined, revs };
  }

  /** The docs of these sessions that are stored and readable, with their turns. */
  async docs(sessionIds: readonly string[]): Promise<SearchDocRecord[]> {
    const db = await this.database.open();
    const found = await readTransaction(db, STORES, (tx) => {
      const store = tx.objectStore(Stores.searchIndex);
      return Promise.all(
        sessionIds.map(async (id) => {
          const [doc, turns] = await Promise.all([
            store.get(this.key('doc', id)),
            store.getAll(this.range('turn', id)),
          ]);
          return isDoc(doc) ? withTurns(doc, turns) : undefined;
        }),
      );
    });
    return found.filter((doc) => doc !== undefined);
  }

  /** Every readable doc (a rebuild of the index reads them all at once). */
  async allDocs(): Promise<SearchDocRecord[]> {
    const db = await this.database.open();
    const [docs, turns] = await readTransaction(db, STORES, (tx) => {
      const store = tx.objectStore(Stores.searchIndex);
      return Promise.all([store.getAll(this.range('doc')), store.getAll(this.range('turn'))]);
    });
    const bySession = new Map<string, SearchIndexRecord[]>();
    for (const turn of turns) {
      if (!isTurn(turn)) continue;
      const held = bySession.get(turn.sessionId);
      if (held) held.push(turn);
      else bySession.set(turn.sessionId, [turn]);
    }
    return docs.flatMap((doc) =>
      isDoc(doc) ? [withTurns(doc, bySession.get(doc.sessionId) ?? [])] : [],
    );
  }

  /**
   * Stores docs (their changed turns) and drops others, and renews the token, in one
   * transaction. A doc is not written over one of the same revision, nor over one read from a
   * later state of its session (a tab that read the session later has written already). Says
   * which it wrote, and the token before and after.
   */
  async write(writes: readonly SearchDocWrite[], removed: readonly string[] = []) {
    const db = await this.database.open();
    return writeTransaction(db, STORES, async (tx) => {
      const store = tx.objectStore(Stores.searchIndex);
      const [found, ...held] = await Promise.all([
        store.get(this.key('manifest')),
        ...writes.map(({ doc }) => store.get(this.key('doc', doc.sessionId))),
      ]);
      const before = isManifest(found) ? found.token : undefined;
      const written: string[] = [];
      const requests: Promise<unknown>[] = [];
      writes.forEach(({ doc, turns, replace }, i) => {
        const stored = held[i];
        if (isDoc(stored) && (stored.rev === doc.rev || stored.lastUpdateTime > doc.lastUpdateTime))
          return;
        const { sessionId } = doc;
        const record: SearchDocRecord = { ...doc, turns: [], kind: 'doc', version: VERSION };
        if (replace) requests.push(store.delete(this.range('turn', sessionId)));
        requests.push(store.put(record, this.key('doc', sessionId)));
        for (const turn of turns) {
          const kept: SearchTurnRecord = { kind: 'turn', version: VERSION, sessionId, turn };
          requests.push(store.put(kept, this.key('turn', sessionId, turn.invocationId)));
        }
        written.push(sessionId);
      });
      for (const id of removed)
        requests.push(store.delete(this.key('doc', id)), store.delete(this.range('turn', id)));
      if (requests.length === 0) return { written, before, after: before };
      const after = crypto.randomUUID();
      const manifest: SearchManifestRecord = { kind: 'manifest', version: VERSION, token: after };
      requests.push(store.put(manifest, this.key('manifest')));
      await Promise.all(requests);
      return { written, before, after };
    });
  }

  /** A token where none is readable (the docs are then read again from the sessions). */
  async startToken(): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, STORES, async (tx) => {
      const store = tx.objectStore(Stores.searchIndex);
      if (isManifest(await store.get(this.key('manifest')))) return;
      const manifest: SearchManifestRecord = {
        kind: 'manifest',
        version: VERSION,
        token: crypto.randomUUID(),
      };
      await store.put(manifest, this.key('manifest'));
    });
  }

  /** A part of the saved index (missing: never saved, of another version, or damaged). */
  async snapshot(bucket: number, buckets: number): Promise<SearchSnapshotRecord | undefined> {
    const db = await this.database.open();
    const found = await db.get(Stores.searchIndex, this.key('snapshot', String(bucket)));
    return isSnapshot(found) && found.bucket === bucket && found.buckets === buckets
      ? found
      : undefined;
  }

  /**
   * Saves parts of the index, in one transaction; whichever tab saves a part last wins, with the
   * revisions it holds. The one-piece snapshot of the first version goes.
   */
  async saveSnapshots(parts: readonly SearchSnapshotPart[], buckets: number): Promise<void> {
    if (parts.length === 0) return;
    const db = await this.database.open();
    await writeTransaction(db, STORES, (tx) => {
      const store = tx.objectStore(Stores.searchIndex);
      return Promise.all([
        store.delete(this.key('snapshot')),
        ...parts.map(({ bucket, index, revs }) => {
          const record: SearchSnapshotRecord = {
            kind: 'snapshot',
            version: SNAPSHOT_VERSION,
            bucket,
            buckets,
            revs,
            index,
          };
          return store.put(record, this.key('snapshot', String(bucket)));
        }),
      ]);
    });
  }

  private key(kind: SearchIndexRecord['kind'], ...rest: string[]): SearchIndexKey {
    return [kind, this.appName, this.userId, ...rest];
  }

  /** Every record of a kind (of one session, if given). */
  private range(kind: SearchIndexRecord['kind'], sessionId?: string): IDBKeyRange {
    const key = sessionId === undefined ? this.key(kind) : this.key(kind, sessionId);
    // An array sorts after every string, so `[…, []]` bounds any longer key.
    return IDBKeyRange.bound(key, [...key, []]);
  }
}

// What is read is checked: a record written by another version, or damaged, reads as missing.
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

const isPairs = (value: unknown): value is [string, string][] =>
  Array.isArray(value) &&
  value.every(
    (pair) =>
      Array.isArray(pair) &&
      pair.length === 2 &&
      typeof pair[0] === 'string' &&
      typeof pair[1] === 'string',
  );

function isManifest(value: unknown): value is SearchManifestRecord {
  return (
    isRecord(value) &&
    value['kind'] === 'manifest' &&
    value['version'] === SEARCH_STORE_VERSION &&
    typeof value['token'] === 'string'
  );
}

function isSnapshot(value: unknown): value is SearchSnapshotRecord {
  return (
    isRecord(value) &&
    value['kind'] === 'snapshot' &&
    value['version'] === SNAPSHOT_VERSION &&
    typeof value['bucket'] === 'number' &&
    typeof value['buckets'] === 'number' &&
    isPairs(value['revs']) &&
    typeof value['index'] === 'string'
  );
}

function isTurn(value: unknown): value is SearchTurnRecord {
  if (!isRecord(value) || value['kind'] !== 'turn' || value['version'] !== VERSION) return false;
  const turn = value['turn'];
  return (
    typeof value['sessionId'] === 'string' &&
    isRecord(turn) &&
    typeof turn['invocationId'] === 'string' &&
    typeof turn['text'] === 'string' &&
    typeof turn['active'] === 'boolean' &&
    typeof turn['time'] === 'number'
  );
}

/** The doc with its turns, in time order. */
function withTurns(doc: SearchDocRecord, turns: readonly unknown[]): SearchDocRecord {
  const held = turns.filter(isTurn).map((record) => record.turn);
  return { ...doc, turns: held.sort((a, b) => a.time - b.time) };
}

function isDoc(value: unknown): value is SearchDocRecord {
  return (
    isRecord(value) &&
    value['kind'] === 'doc' &&
    value['version'] === SEARCH_STORE_VERSION &&
    typeof value['sessionId'] === 'string' &&
    typeof value['title'] === 'string' &&
    typeof value['seq'] === 'number' &&
    typeof value['rev'] === 'string' &&
    Array.isArray(value['turns']) &&
    isPairs(value['state']) &&
    Array.isArray(value['artifacts'])
  );
}
