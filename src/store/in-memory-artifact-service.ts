// Artifacts in memory: for tests, demos and InMemoryRunner.

import type { Part } from '../core/content.ts';
import type { ArtifactRestore } from '../core/rewind.ts';
import { setOwn } from '../core/state.ts';
import { artifactsNotAtomic, deepFreeze } from './session-log.ts';
import type { ImportedArtifacts } from './session-import.ts';
import {
  BaseArtifactService,
  leftoverArtifacts,
  artifactContentOf,
  artifactSessionId,
  checkVersion,
  type ArtifactKey,
  type ListArtifactKeysRequest,
  type LoadArtifactRequest,
  type SaveArtifactRequest,
} from './artifact-service.ts';

/** The part a save stores, checked (a copy: the caller's object is not kept). */
function storedPart(request: SaveArtifactRequest): Part {
  const content = artifactContentOf(request);
  return content.kind === 'text'
    ? { text: content.text }
    : { inlineData: { ...request.artifact.inlineData! } };
}

/** A stored version: the part as saved (frozen), or `null` for a removal (tombstone). */
type StoredVersion = Part | null;

type ArtifactScope = Omit<ArtifactKey, 'filename'>;

const keyOf = (...parts: string[]) => JSON.stringify(parts);

export class InMemoryArtifactService extends BaseArtifactService {
  /** [app, user, session or '', filename] → versions. */
  private readonly files = new Map<string, StoredVersion[]>();
  /** File key → its latest version and who saved it, when saved with a `savedBy`. */
  private readonly savers = new Map<string, { version: number; savedBy: string }>();
  /** While an all-or-nothing write runs: file key → its number of versions before it. */
  private journal: Map<string, number> | undefined;

  override async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const fileKey = this.keyOf(request);
    const { savedBy } = request;
    const latest = this.savers.get(fileKey);
    if (savedBy !== undefined && latest?.savedBy === savedBy) return latest.version;
    const version = this.saveVersion(request, deepFreeze(storedPart(request)));
    if (savedBy !== undefined) this.savers.set(fileKey, { version, savedBy });
    return version;
  }

  /** @internal Saves a part (checked) as the file's next version, whoever saved before. */
  savePart(request: SaveArtifactRequest): number {
    return this.saveVersion(request, deepFreeze(storedPart(request)));
  }

  /** @internal Saves a version as it is (a part, or `null` for a tombstone). */
  saveVersion(key: ArtifactKey, version: StoredVersion): number {
    const fileKey = this.keyOf(key);
    this.savers.delete(fileKey);
    const versions = this.files.get(fileKey) ?? [];
    if (this.journal && !this.journal.has(fileKey)) this.journal.set(fileKey, versions.length);
    versions.push(version);
    this.files.set(fileKey, versions);
    return versions.length - 1;
  }

  /**
   * @internal For rewind: saves, for each file, a copy of an earlier version (or a tombstone
   * when it did not exist then). Returns file name → the version written.
   */
  restoreVersions(
    scope: ArtifactScope,
    restores: readonly ArtifactRestore[],
  ): Record<string, number> {
    const written: Record<string, number> = {};
    for (const { filename, restoreVersion } of restores) {
      const key = { ...scope, filename };
      const old =
        restoreVersion === undefined
          ? null
          : (this.files.get(this.keyOf(key))?.[restoreVersion] ?? null);
      setOwn(written, filename, this.saveVersion(key, old));
    }
    return written;
  }

  /**
   * @internal For fork: copies versions 0…head of each file to another session, keeping their
   * numbers.
   */
  copyVersions(
    from: ArtifactScope,
    toSessionId: string,
    heads: Readonly<Record<string, number>>,
  ): void {
    for (const [filename, head] of Object.entries(heads)) {
      const versions = this.files.get(this.keyOf({ ...from, filename })) ?? [];
      for (let version = 0; version <= head; version++) {
        this.saveVersion({ ...from, sessionId: toSessionId, filename }, versions[version] ?? null);
      }
    }
  }

  /**
   * @internal For import: writes each file's versions under their numbers (a version the log skips
   * reads as absent, like a tombstone). The session is new: a file that has versions already is
   * refused, since its numbers would not be the log's.
   */
  importVersions(scope: ArtifactScope, files: ImportedArtifacts): void {
    for (const [filename, versions] of files) {
      const key = { ...scope, filename };
      if ((this.files.get(this.keyOf(key))?.length ?? 0) > 0) throw leftoverArtifacts(scope);
      for (const [version, content] of versions) {
        while ((this.files.get(this.keyOf(key))?.length ?? 0) < version)
          this.saveVersion(key, null);
        this.saveVersion(key, content && deepFreeze(storedPart({ ...key, artifact: content })));
      }
    }
  }

  /**
   * @internal Runs synchronous writes all or nothing: if one throws, the versions written so far
   * are taken back. The in-memory session service runs a rewind or fork inside it.
   */
  atomically<T>(writes: () => T): T {
    const journal = new Map<string, number>();
    this.journal = journal;
    try {
      return writes();
    } catch (error) {
      for (const [key, length] of journal) {
        if (length === 0) this.files.delete(key);
        else this.files.get(key)!.length = length;
      }
      throw error;
    } finally {
      this.journal = undefined;
    }
  }

  override async loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    checkVersion(request.version);
    const versions = this.files.get(this.keyOf(request));
    if (!versions) return undefined;
    return versions[request.version ?? versions.length - 1] ?? undefined;
  }

  override async listArtifactKeys({
    appName,
    userId,
    sessionId,
  }: ListArtifactKeysRequest): Promise<string[]> {
    const names: string[] = [];
    for (const [key, versions] of this.files) {
      const [app, user, session, filename] = JSON.parse(key) as string[];
      if (app !== appName || user !== userId) continue;
      if (session !== sessionId && session !== '') continue;
      if (versions.at(-1) !== null) names.push(filename!);
    }
    return names.sort();
  }

  override async listVersions(request: ArtifactKey): Promise<number[]> {
    return (this.files.get(this.keyOf(request)) ?? []).map((_, version) => version);
  }

  override async deleteArtifact(request: ArtifactKey): Promise<void> {
    const fileKey = this.keyOf(request);
    this.files.delete(fileKey);
    this.savers.delete(fileKey);
  }

  private keyOf({ appName, userId, sessionId, filename }: ArtifactKey): string {
    return keyOf(appName, userId, artifactSessionId(sessionId, filename), filename);
  }
}

/**
 * The artifact service to restore or copy artifacts in, if there is work for it: only in-memory
 * artifacts can be written in the same all-or-nothing step as in-memory sessions.
 */
export function compatibleArtifacts(
  service: BaseArtifactService | undefined,
  needed: boolean,
): InMemoryArtifactService | undefined {
  if (!needed || !service) return undefined;
  if (service instanceof InMemoryArtifactService) return service;
  throw artifactsNotAtomic();
}

/** Synchronous writes to sessions (and artifacts, if any), all or nothing. */
export function atomically<T>(artifacts: InMemoryArtifactService | undefined, writes: () => T): T {
  return artifacts ? artifacts.atomically(writes) : writes();
}
