// Artifacts in memory: for tests, demos and InMemoryRunner.

import type { Part } from '../core/content.ts';
import { deepFreeze } from './session-log.ts';
import {
  BaseArtifactService,
  artifactContentOf,
  artifactSessionId,
  checkVersion,
  type ArtifactKey,
  type ListArtifactKeysRequest,
  type LoadArtifactRequest,
  type SaveArtifactRequest,
} from './artifact-service.ts';

/** A stored version: the part as saved (frozen), or `null` for a removal (tombstone). */
type StoredVersion = Part | null;

const keyOf = (...parts: string[]) => JSON.stringify(parts);

export class InMemoryArtifactService extends BaseArtifactService {
  /** [app, user, session or '', filename] → versions. */
  private readonly files = new Map<string, StoredVersion[]>();

  override async saveArtifact(request: SaveArtifactRequest): Promise<number> {
    const content = artifactContentOf(request);
    const part: Part =
      content.kind === 'text'
        ? { text: content.text }
        : { inlineData: { ...request.artifact.inlineData! } };
    return this.saveVersion(request, deepFreeze(part));
  }

  /** @internal Saves a version as it is (a part, or `null` for a tombstone). */
  saveVersion(key: ArtifactKey, version: StoredVersion): number {
    const fileKey = this.keyOf(key);
    const versions = this.files.get(fileKey) ?? [];
    versions.push(version);
    this.files.set(fileKey, versions);
    return versions.length - 1;
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
    this.files.delete(this.keyOf(request));
  }

  private keyOf({ appName, userId, sessionId, filename }: ArtifactKey): string {
    return keyOf(appName, userId, artifactSessionId(sessionId, filename), filename);
  }
}
