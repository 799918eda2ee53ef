// Artifacts in IndexedDB, one record per version, bytes as Blobs.

import { bytesToBase64, type Part } from '../core/content.ts';
import {
  Stores,
  sessionRange,
  type ArtifactRecord,
  type ArtifactRecordKey,
  type TrellisDb,
} from './database.ts';
import { DatabaseRef, withStorageErrors, type IndexedDbServiceOptions } from './connection.ts';
import {
  BaseArtifactService,
  artifactContentOf,
  artifactSessionId,
  checkVersion,
  leftoverArtifacts,
  type ArtifactKey,
  type ListArtifactKeysRequest,
  type LoadArtifactRequest,
  type SaveArtifactRequest,
} from './artifact-service.ts';
import type { ImportedArtifacts } from './session-import.ts';
import { readTransaction, writeTransaction } from './transaction.ts';

export class IndexedDbArtifactService extends BaseArtifactService {
  private readonly database: DatabaseRef;

  constructor(options: IndexedDbServiceOptions = {}) {
    super();
    this.database = DatabaseRef.acquire(options.dbName);
  }

  get dbName(): string {
    return this.database.name;
  }

  /** @internal The shared connection, for writes that span services (rewind). */
  openDatabase(): Promise<TrellisDb> {
    return this.database.open();
  }

  /** Releases this service's hold on the database connection. */
  close(): Promise<void> {
    return this.database.release();
  }

  override async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const content = versionContentOf(request);
    const db = await this.database.open();
    return writeTransaction(db, [Stores.artifacts], (tx) =>
      putVersionInTx(tx, request, content, request.savedBy),
    );
  }

  override async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    checkVersion(request.version);
    const db = await this.database.open();
    const record = await readTransaction(db, [Stores.artifacts], async (tx) => {
      const store = tx.objectStore(Stores.artifacts);
      if (request.version !== undefined) return store.get([...fileKey(request), request.version]);
      const cursor = await store.openCursor(fileRange(request), 'prev');
      return cursor?.value;
    });
    return record && partOf(record);
  }

  override async listArtifactKeys({
    appName,
    userId,
    sessionId,
  }: ListArtifactKeysRequest): Promise<string[]> {
    const db = await this.database.open();
    const records = await readTransaction(db, [Stores.artifacts], async (tx) => {
      const store = tx.objectStore(Stores.artifacts);
      const [own, users] = await Promise.all([
        store.getAll(sessionRange(appName, userId, sessionId)),
        sessionId === '' ? [] : store.getAll(sessionRange(appName, userId, '')),
      ]);
      return [...own, ...users];
    });
    // Records come sorted by file name, then version: the last one of each name is its latest.
    const latest = new Map<string, ArtifactRecord>();
    for (const record of records) latest.set(record.filename, record);
    return [...latest.values()]
      .filter((record) => record.kind !== 'tombstone')
      .map((record) => record.filename)
      .sort();
  }

  override async listVersions(request: ArtifactKey): Promise<number[]> {
    const db = await this.database.open();
    const keys = await withStorageErrors(
      () => db.getAllKeys(Stores.artifacts, fileRange(request)),
      'read',
    );
    return keys.map((key) => key[4]);
  }

  override async deleteArtifact(request: ArtifactKey): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.artifacts], (tx) =>
      tx.objectStore(Stores.artifacts).delete(fileRange(request)),
    );
  }
}

/** The part of a readwrite transaction that writes artifact versions (any wider store list). */
export interface ArtifactWriter {
  objectStore(name: typeof Stores.artifacts): {
    openKeyCursor(
      range: IDBKeyRange,
      direction: IDBCursorDirection,
    ): Promise<{ key: ArtifactRecordKey } | null>;
    get(key: ArtifactRecordKey): Promise<ArtifactRecord | undefined>;
    add(record: ArtifactRecord): Promise<unknown>;
  };
}

export type VersionContent = Pick<ArtifactRecord, 'kind' | 'mimeType' | 'blob' | 'displayName'>;

/** What a save stores of a part, checked: its kind, type and bytes as a Blob. */
export function versionContentOf(request: SaveArtifactRequest): VersionContent {
  const content = artifactContentOf(request);
  const blob =
    content.kind === 'text'
      ? new Blob([content.text], { type: content.mimeType })
      : new Blob([content.bytes as Uint8Array<ArrayBuffer>], { type: content.mimeType });
  return {
    kind: content.kind,
    mimeType: content.mimeType,
    blob,
    ...(content.kind === 'inline' && content.displayName
      ? { displayName: content.displayName }
      : {}),
  };
}

/**
 * For import, before its transaction: the records of each file's versions, under their numbers
 * (a version the log skips is simply absent, which reads as a tombstone does).
 */
export function importedVersionRecords(
  scope: Omit<ArtifactKey, 'filename'>,
  files: ImportedArtifacts,
): ArtifactRecord[] {
  const records: ArtifactRecord[] = [];
  const savedAt = Date.now();
  for (const [filename, versions] of files) {
    const key = { ...scope, filename };
    const [appName, userId, sessionId] = fileKey(key);
    for (const [version, part] of versions) {
      const content = part ? versionContentOf({ ...key, artifact: part }) : TOMBSTONE;
      records.push({ appName, userId, sessionId, filename, version, ...content, savedAt });
    }
  }
  return records;
}

/**
 * For import, inside its transaction: adds the records of `importedVersionRecords`. The session
 * is new: if artifacts of an earlier session with its id are still stored, their numbers would
 * not be the log's, so that is refused.
 */
export async function addImportedVersionsInTx(
  tx: ArtifactWriter,
  scope: Omit<ArtifactKey, 'filename'>,
  records: readonly ArtifactRecord[],
): Promise<void> {
  const store = tx.objectStore(Stores.artifacts);
  const { appName, userId, sessionId } = scope;
  if (await store.openKeyCursor(sessionRange(appName, userId, sessionId), 'next'))
    throw leftoverArtifacts(scope);
  await Promise.all(records.map((record) => store.add(record)));
}

const TOMBSTONE: VersionContent = { kind: 'tombstone', mimeType: 'application/octet-stream' };

/**
 * For rewind, inside its transaction: saves a copy of an earlier version of a file (the same
 * Blob, no bytes read) or, when it did not exist then, a tombstone. Returns the new version.
 */
export async function restoreVersionInTx(
  tx: ArtifactWriter,
  key: ArtifactKey,
  restoreVersion: number | undefined,
): Promise<number> {
  const old =
    restoreVersion === undefined
      ? undefined
      : await tx.objectStore(Stores.artifacts).get([...fileKey(key), restoreVersion]);
  return putVersionInTx(tx, key, old ? contentOf(old) : TOMBSTONE);
}

/** For fork, inside its transaction: copies versions 0…head of each file, keeping their numbers. */
export async function copyVersionsInTx(
  tx: ArtifactWriter,
  from: Omit<ArtifactKey, 'filename'>,
  toSessionId: string,
  heads: Readonly<Record<string, number>>,
): Promise<void> {
  const store = tx.objectStore(Stores.artifacts);
  const { appName, userId } = from;
  for (const [filename, head] of Object.entries(heads)) {
    const prefix = fileKey({ ...from, filename });
    for (let version = 0; version <= head; version++) {
      const old = await store.get([...prefix, version]);
      const content = old ? contentOf(old) : TOMBSTONE;
      await store.add({
        appName,
        userId,
        sessionId: toSessionId,
        filename,
        version,
        ...content,
        savedAt: Date.now(),
      });
    }
  }
}

function contentOf(record: ArtifactRecord): VersionContent {
  const { kind, mimeType, blob, displayName } = record;
  return { kind, mimeType, ...(blob ? { blob } : {}), ...(displayName ? { displayName } : {}) };
}

/**
 * Writes the next version of a file inside `tx` and returns its number; with `savedBy`, returns
 * the latest version instead when it was saved with the same `savedBy`. Rewind calls it inside
 * its own transaction, so that the versions it writes commit with its marker event.
 */
export async function putVersionInTx(
  tx: ArtifactWriter,
  key: ArtifactKey,
  content: VersionContent,
  savedBy?: string,
): Promise<number> {
  const store = tx.objectStore(Stores.artifacts);
  const last = await store.openKeyCursor(fileRange(key), 'prev');
  if (last && savedBy !== undefined && (await store.get(last.key))?.savedBy === savedBy)
    return last.key[4];
  const version = last ? last.key[4] + 1 : 0;
  const [appName, userId, sessionId, filename] = fileKey(key);
  await store.add({
    appName,
    userId,
    sessionId,
    filename,
    version,
    ...content,
    savedAt: Date.now(),
    ...(savedBy !== undefined ? { savedBy } : {}),
  });
  return version;
}

async function partOf(record: ArtifactRecord): Promise<Part | undefined> {
  switch (record.kind) {
    case 'tombstone':
      return undefined;
    case 'text':
      return { text: await record.blob!.text() };
    case 'inline': {
      const data = bytesToBase64(new Uint8Array(await record.blob!.arrayBuffer()));
      const { mimeType, displayName } = record;
      return { inlineData: { mimeType, data, ...(displayName ? { displayName } : {}) } };
    }
  }
}

function fileKey(key: ArtifactKey): [string, string, string, string] {
  return [key.appName, key.userId, artifactSessionId(key.sessionId, key.filename), key.filename];
}

function fileRange(key: ArtifactKey): IDBKeyRange {
  const prefix = fileKey(key);
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}
