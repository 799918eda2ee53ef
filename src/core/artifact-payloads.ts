// An exported session carries the bytes of its artifacts where ADK's Session JSON allows
// something of Trellis's own: in an event's `customMetadata`. The event whose `artifactDelta`
// names a session-scoped version carries that version, as the Part the artifact service loads:
//
//   customMetadata: { trellis: { artifacts: { "notes.txt": { text: "…" },
//                                             "chart.png": { inlineData: { mimeType, data } } } } }
//
// A stored event never carries them (the artifact store holds the bytes): export adds them,
// import takes them out and writes the versions. A version an event names without bytes (ADK's
// own files carry none, and a removed version has none) is imported as a tombstone.

import type { Part } from './content.ts';
import type { Event } from './event.ts';
import { StatePrefix, ownValue, setOwn } from './state.ts';

/** The key of Trellis's own metadata inside an event's `customMetadata`. */
export const TRELLIS_METADATA = 'trellis';

/** File name → the bytes of the version the event's artifactDelta names. */
export type ArtifactPayloads = Record<string, Part>;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The artifact payloads an event carries (checked by `artifactPayloadProblems` first). */
export function artifactPayloadsOf(event: Event): ArtifactPayloads | undefined {
  const trellis = ownValue(event.customMetadata, TRELLIS_METADATA);
  return ownValue(trellis ?? undefined, 'artifacts') as ArtifactPayloads | undefined;
}

/** The event with `payloads` in its customMetadata (the event itself when there are none). */
export function withArtifactPayloads(event: Event, payloads: ArtifactPayloads): Event {
  if (Object.keys(payloads).length === 0) return event;
  const metadata = { ...event.customMetadata };
  const trellis = { ...(ownValue(metadata, TRELLIS_METADATA) as object | undefined) };
  setOwn(trellis, 'artifacts', payloads);
  setOwn(metadata, TRELLIS_METADATA, trellis);
  return { ...event, customMetadata: metadata };
}

/** The event without artifact payloads (and without a customMetadata left empty by that). */
export function withoutArtifactPayloads(event: Event): Event {
  if (artifactPayloadsOf(event) === undefined) return event;
  const { customMetadata, ...rest } = event;
  const metadata: Record<string, unknown> = { ...customMetadata };
  const trellis: Record<string, unknown> = { ...(metadata[TRELLIS_METADATA] as object) };
  delete trellis.artifacts;
  if (Object.keys(trellis).length > 0) setOwn(metadata, TRELLIS_METADATA, trellis);
  else delete metadata[TRELLIS_METADATA];
  return Object.keys(metadata).length > 0 ? { ...rest, customMetadata: metadata } : rest;
}

/**
 * What is wrong with the artifact payloads of an event (its raw fields, unchecked), each problem
 * said with where it is (`at`: the event's path).
 */
export function artifactPayloadProblems(
  customMetadata: unknown,
  artifactDelta: unknown,
  at: string,
): string[] {
  if (customMetadata === undefined) return [];
  if (!isRecord(customMetadata)) return [`${at}.customMetadata must be an object`];
  const trellis = ownValue(customMetadata, TRELLIS_METADATA);
  if (trellis === undefined || trellis === null) return [];
  const where = `${at}.customMetadata.trellis`;
  if (!isRecord(trellis)) return [`${where} must be an object`];
  const payloads = ownValue(trellis, 'artifacts');
  if (payloads === undefined) return [];
  if (!isRecord(payloads)) return [`${where}.artifacts must map file names to their bytes`];
  const problems: string[] = [];
  const named = isRecord(artifactDelta) ? artifactDelta : {};
  for (const [filename, payload] of Object.entries(payloads)) {
    const path = `${where}.artifacts[${JSON.stringify(short(filename))}]`;
    if (filename.startsWith(StatePrefix.user)) {
      problems.push(`${path}: a user: artifact belongs to the user, not to the session`);
    } else if (!Object.hasOwn(named, filename)) {
      problems.push(`${path}: the event's artifactDelta names no version of this file`);
    } else {
      const problem = partProblem(payload);
      if (problem) problems.push(`${path} ${problem}`);
    }
  }
  return problems;
}

function partProblem(payload: unknown): string | undefined {
  if (!isRecord(payload)) return 'must be { text } or { inlineData: { mimeType, data } }';
  const keys = Object.keys(payload);
  if (keys.length === 1 && typeof payload.text === 'string') return undefined;
  const inline = payload.inlineData;
  if (keys.length !== 1 || !isRecord(inline))
    return 'must be { text } or { inlineData: { mimeType, data } }';
  if (typeof inline.mimeType !== 'string' || inline.mimeType === '')
    return 'needs inlineData.mimeType (text)';
  if (typeof inline.data !== 'string' || !BASE64.test(inline.data) || inline.data.length % 4 !== 0)
    return 'needs inlineData.data: the bytes as standard base64';
  if (inline.displayName !== undefined && typeof inline.displayName !== 'string')
    return 'has an inlineData.displayName that is not text';
  return undefined;
}

function short(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
