// The files a message carries, as the composer holds them before sending: what kind each is
// (the browser's MIME type, or what its first bytes say when the browser has none), a preview for
// images, and their bytes once the message goes.

import {
  IMAGE_TYPES,
  attachmentKindOf,
  attachmentProblems,
  type AttachmentFile,
  type AttachmentKind,
  type AttachmentPolicy,
} from '../../models/attachments.ts';
import type { OutgoingAttachment } from '../../../workers/protocol.ts';

export interface DraftFile extends AttachmentFile {
  id: string;
  file: File;
  kind: AttachmentKind | undefined;
  /** An object URL of an image (revoke it with `releaseDraft`). */
  previewUrl?: string;
}

let nextId = 0;

/** A picked, pasted or dropped file, its type settled. */
export async function draftFile(file: File): Promise<DraftFile> {
  const mimeType =
    file.type && file.type !== 'application/octet-stream' ? file.type : await sniff(file);
  const kind = attachmentKindOf(mimeType);
  return {
    id: `file-${++nextId}`,
    file,
    name: file.name || `pasted.${extensionOf(mimeType)}`,
    mimeType,
    size: file.size,
    kind,
    ...(kind === 'image' ? { previewUrl: URL.createObjectURL(file) } : {}),
  };
}

/** An agent that takes no files (an ADK server's, for now). */
const NO_FILES: AttachmentPolicy = {
  kinds: [],
  maxFileBytes: 0,
  maxTotalBytes: 0,
  takenBy: 'agent',
};

/**
 * What is wrong with the files held for the next message, for the agent's `policy`, as soon as
 * they are attached (and again when the agent changes), rather than at Send: the problems, one
 * sentence each, and the ids of the files that cannot go.
 */
export function draftProblems(
  files: readonly DraftFile[],
  policy: AttachmentPolicy | undefined,
): { problems: string[]; refused: ReadonlySet<string> } {
  if (files.length === 0) return { problems: [], refused: new Set() };
  const rules = policy ?? NO_FILES;
  const refused = new Set(
    files.filter((file) => attachmentProblems([file], rules).length > 0).map((file) => file.id),
  );
  return { problems: attachmentProblems(files, rules), refused };
}

export function releaseDraft(draft: DraftFile): void {
  if (draft.previewUrl) URL.revokeObjectURL(draft.previewUrl);
}

export async function toAttachment(draft: DraftFile): Promise<OutgoingAttachment> {
  return {
    name: draft.name,
    mimeType: draft.mimeType,
    bytes: new Uint8Array(await draft.file.arrayBuffer()),
  };
}

const MAGIC: { type: string; bytes: number[] }[] = [
  { type: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { type: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { type: 'image/gif', bytes: [0x47, 0x49, 0x46, 0x38] },
  { type: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46] },
];

/**
 * What the first bytes say a file without a browser type is (source code, a log, a `.md`: the
 * browser knows few text extensions): a known image or PDF by its signature, text when they
 * decode as UTF-8 without NULs, else nothing.
 */
export async function sniff(file: Blob): Promise<string> {
  const head = new Uint8Array(await file.slice(0, 8192).arrayBuffer());
  for (const { type, bytes } of MAGIC) if (bytes.every((byte, i) => head[i] === byte)) return type;
  if (isWebp(head)) return 'image/webp';
  if (head.includes(0)) return '';
  try {
    // A multi-byte character cut at the end of the slice is not an error.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return 'text/plain';
  } catch {
    return '';
  }
}

function isWebp(head: Uint8Array): boolean {
  const ascii = (from: number, to: number) => String.fromCharCode(...head.slice(from, to));
  return ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP';
}

function extensionOf(mimeType: string): string {
  if ((IMAGE_TYPES as readonly string[]).includes(mimeType)) return mimeType.slice(6);
  if (mimeType === 'application/pdf') return 'pdf';
  return 'txt';
}
