// What a model can be given as attachments to a user's message: the kinds of file (images, PDFs,
// text), and how large. Files become `inlineData` parts (see core/content); each provider sends
// them in its own wire format (gemini-wire, openai-wire). The composer checks a message's files
// against its agent's policy before anything is sent, so that nothing is half sent.
//
// Data only: the page imports it.

import { formatBytes } from '../core/format.ts';
import type { ProviderKind } from './provider-spec.ts';

export type AttachmentKind = 'image' | 'pdf' | 'text';

export interface AttachmentPolicy {
  /** The kinds this agent's model takes. */
  kinds: readonly AttachmentKind[];
  /** The largest file (bytes). */
  maxFileBytes: number;
  /** All the files of one message together (bytes). */
  maxTotalBytes: number;
  /** Who takes them, for messages ("Gemini", "this OpenAI-compatible server"). */
  takenBy: string;
}

/** Images every provider we speak takes as pictures (SVG is text: it is XML, not a bitmap). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;

const MB = 1024 * 1024;

/**
 * Gemini takes images, PDFs and text inline in a request of up to 20 MB; OpenAI-compatible
 * servers take images (as data URLs) and text, and no PDFs (Ollama, LM Studio and llama.cpp have
 * no file input). A demo agent reads none of them, but keeps them as artifacts.
 */
export function attachmentPolicy(provider: ProviderKind | 'demo'): AttachmentPolicy {
  switch (provider) {
    case 'gemini':
      return { kinds: ['image', 'pdf', 'text'], ...SIZES, takenBy: 'Gemini' };
    case 'openai-compatible':
      return { kinds: ['image', 'text'], ...SIZES, takenBy: 'this OpenAI-compatible server' };
    case 'local-gguf':
      // Text-only models through a chat template: no file reaches them.
      return { kinds: [], ...SIZES, takenBy: 'a local model' };
    case 'demo':
      return { kinds: ['image', 'pdf', 'text'], ...SIZES, takenBy: 'this agent' };
    default:
      throw new Error(`Unhandled provider kind: ${String(provider satisfies never)}`);
  }
}

const SIZES = { maxFileBytes: 10 * MB, maxTotalBytes: 18 * MB };

/** The kind of a file of this MIME type, or undefined for one no model here takes. */
export function attachmentKindOf(mimeType: string): AttachmentKind | undefined {
  const type = mimeType.toLowerCase().split(';')[0]!.trim();
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return 'image';
  if (type === 'application/pdf') return 'pdf';
  if (type.startsWith('text/') || TEXT_TYPES.has(type) || /\+(xml|json)$/.test(type)) return 'text';
  return undefined;
}

const TEXT_TYPES = new Set([
  'application/json',
  'application/xml',
  'application/javascript',
  'application/x-javascript',
  'application/typescript',
  'application/x-sh',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/sql',
]);

/** A file the user attached, as the composer hands it on. */
export interface AttachmentFile {
  name: string;
  /** As the browser said, or as found by looking at the bytes (see the composer). */
  mimeType: string;
  size: number;
}

/**
 * Why these files cannot go with a message to an agent of this policy, one sentence per file
 * (and one for the total); [] when they can.
 */
export function attachmentProblems(
  files: readonly AttachmentFile[],
  policy: AttachmentPolicy,
): string[] {
  const problems: string[] = [];
  let total = 0;
  for (const file of files) {
    total += file.size;
    const kind = attachmentKindOf(file.mimeType);
    if (kind === undefined) {
      problems.push(
        `${file.name} (${file.mimeType || 'unknown type'}) can't be attached: only images (PNG, JPEG, WebP, GIF), PDFs and text files can.`,
      );
    } else if (!policy.kinds.includes(kind)) {
      problems.push(
        `${file.name} can't go to ${policy.takenBy}: it takes ${listKinds(policy.kinds)}, not ${KIND_NAMES[kind]}.`,
      );
    } else if (file.size > policy.maxFileBytes) {
      problems.push(
        `${file.name} is ${formatBytes(file.size)}: the limit is ${formatBytes(policy.maxFileBytes)} a file.`,
      );
    } else if (file.size === 0) {
      problems.push(`${file.name} is empty.`);
    }
  }
  if (problems.length === 0 && total > policy.maxTotalBytes) {
    problems.push(
      `These files come to ${formatBytes(total)}: a message can carry ${formatBytes(policy.maxTotalBytes)} at most.`,
    );
  }
  return problems;
}

const KIND_NAMES: Record<AttachmentKind, string> = {
  image: 'images',
  pdf: 'PDFs',
  text: 'text files',
};

function listKinds(kinds: readonly AttachmentKind[]): string {
  const names = kinds.map((kind) => KIND_NAMES[kind]);
  return names.length <= 1
    ? (names[0] ?? 'no files')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
