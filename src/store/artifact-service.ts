// The artifact service contract: versioned files, scoped to a session, or to the user when the
// file name starts with `user:`.

import type { Part } from '../core/content.ts';
import { base64ToBytes } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import { StatePrefix } from '../core/state.ts';

export interface ArtifactKey {
  appName: string;
  userId: string;
  sessionId: string;
  filename: string;
}

export interface SaveArtifactRequest extends ArtifactKey {
  /** An `inlineData` part (bytes as base64) or a `text` part. */
  artifact: Part;
  /**
   * Who saves it, for a save that may be made again: while the file's latest version is one saved
   * with the same `savedBy`, that version is returned and nothing is written (a tool run again
   * when its run is resumed after a crash saves its file once).
   */
  savedBy?: string;
}

export interface LoadArtifactRequest extends ArtifactKey {
  /** The latest when omitted. */
  version?: number;
}

export interface ListArtifactKeysRequest {
  appName: string;
  userId: string;
  sessionId: string;
}

export abstract class BaseArtifactService {
  /**
   * Saves a new version (0, 1, 2, …) of the file and returns its number (with `savedBy`, the
   * latest version instead when that one was saved with the same `savedBy`).
   */
  abstract saveArtifact(request: SaveArtifactRequest): Promise<number>;

  /** The file's latest (or given) version; `undefined` if there is none, or it was removed. */
  abstract loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined>;

  /** File names of the session's artifacts and of the user's, sorted; removed files left out. */
  abstract listArtifactKeys(request: ListArtifactKeysRequest): Promise<string[]>;

  /** Every version number of the file, ascending (`[]` for an unknown file). */
  abstract listVersions(request: ArtifactKey): Promise<number[]>;

  /** Removes every version of the file. */
  abstract deleteArtifact(request: ArtifactKey): Promise<void>;
}

/** User-scoped artifacts are stored under the session id `''`. */
export function artifactSessionId(sessionId: string, filename: string): string {
  return isUserArtifact(filename) ? '' : sessionId;
}

export function isUserArtifact(filename: string): boolean {
  return filename.startsWith(StatePrefix.user);
}

/** An artifact's content, checked: bytes for inline data, or text. */
export type ArtifactContent =
  | { kind: 'inline'; mimeType: string; bytes: Uint8Array; displayName?: string }
  | { kind: 'text'; mimeType: string; text: string };

/** Checks a save request; throws InvalidRequestError for a bad file name or part. */
export function artifactContentOf(request: SaveArtifactRequest): ArtifactContent {
  checkFilename(request.filename);
  const { artifact } = request;
  if (artifact?.inlineData) {
    const { mimeType, data, displayName } = artifact.inlineData;
    if (typeof mimeType !== 'string' || typeof data !== 'string') {
      throw new InvalidRequestError(
        'An inlineData artifact needs a string mimeType and base64 data',
      );
    }
    let bytes: Uint8Array;
    try {
      bytes = base64ToBytes(data);
    } catch (error) {
      throw new InvalidRequestError(`Artifact ${request.filename}: ${(error as Error).message}`);
    }
    return { kind: 'inline', mimeType, bytes, ...(displayName ? { displayName } : {}) };
  }
  if (typeof artifact?.text === 'string') {
    return { kind: 'text', mimeType: 'text/plain', text: artifact.text };
  }
  throw new InvalidRequestError(
    `Artifact ${request.filename} must be an inlineData part or a text part`,
  );
}

export function checkFilename(filename: string): void {
  if (typeof filename !== 'string' || filename.trim() === '' || filename === StatePrefix.user) {
    throw new InvalidRequestError('An artifact needs a non-empty file name');
  }
}

export function checkVersion(version: number | undefined): void {
  if (version !== undefined && !(Number.isInteger(version) && version >= 0)) {
    throw new InvalidRequestError(`Artifact version must be a whole number ≥ 0, got ${version}`);
  }
}

/** An import into a session id whose artifacts are still stored (a session deleted without them). */
export function leftoverArtifacts({ sessionId }: { sessionId: string }): InvalidRequestError {
  return new InvalidRequestError(
    `Artifacts of an earlier session ${sessionId} are still stored: delete them, or import under another id`,
  );
}
