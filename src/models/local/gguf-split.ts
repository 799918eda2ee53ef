// Models split into several GGUF files, as llama.cpp's `llama-gguf-split` writes them:
// `<name>-00001-of-00003.gguf`, `…-00002-of-00003.gguf`… Each part is a GGUF file of its own
// (with `split.no`, `split.count` and `split.tensors.count` in its metadata, and the model's
// metadata in the first); wllama loads them as one model from several blobs. Splitting is how a
// model larger than wllama's limit for one file runs at all.

import { formatBytes } from '../../core/format.ts';

/**
 * The largest file wllama loads as one blob (its README: "Max file size is 2GB", as one file is
 * read into one ArrayBuffer). A larger model must be split into parts no larger than this.
 */
export const MAX_PART_BYTES = 2 * 1024 ** 3;

const PART_NAME = /-(\d{5})-of-(\d{5})\.gguf$/i;

export interface SplitPart {
  /** 1-based, as in the file name. */
  no: number;
  count: number;
  /** The name without `-0000n-of-0000m.gguf`: the same for every part of one model. */
  base: string;
}

/** The part a file name says it is, or undefined for a whole (unsplit) model file. */
export function splitPart(name: string): SplitPart | undefined {
  const match = PART_NAME.exec(name);
  if (!match) return undefined;
  const no = Number(match[1]);
  const count = Number(match[2]);
  if (no < 1 || count < 1 || no > count) return undefined;
  return { no, count, base: name.slice(0, match.index) };
}

/** The name of part `no` of `count` of the model named `base`. */
export function partName(base: string, no: number, count: number): string {
  const pad = (n: number) => String(n).padStart(5, '0');
  return `${base}-${pad(no)}-of-${pad(count)}.gguf`;
}

/**
 * The files of one model in load order (part 1 first), or the reason they are not one model:
 * a part without the others, parts of different models, a part twice, or a file over the limit
 * (with how to split it). The reasons are for the user, in full sentences.
 */
export function modelParts<T extends { name: string; size: number }>(
  files: readonly T[],
): { parts: T[] } | { problem: string } {
  const tooLarge = files.find((file) => sizeProblem(file));
  if (tooLarge) return { problem: sizeProblem(tooLarge)! };
  if (files.length === 0) return { problem: 'No file was picked' };
  const parts = files.map((file) => ({ file, part: splitPart(file.name) }));
  const first = parts[0]!;
  if (files.length === 1) {
    if (!first.part || first.part.count === 1) return { parts: [first.file] };
    return {
      problem: `${first.file.name} is part ${first.part.no} of a model split into ${first.part.count} files: pick all ${first.part.count} parts together`,
    };
  }
  const { part } = first;
  if (!part || parts.some((p) => p.part?.base !== part.base || p.part.count !== part.count))
    return {
      problem:
        'Several files were picked that are not the parts of one split model (name-00001-of-0000N.gguf, name-00002-of-0000N.gguf…): pick one model file, or all the parts of one',
    };
  const missing: number[] = [];
  for (let no = 1; no <= part.count; no++)
    if (!parts.some((p) => p.part!.no === no)) missing.push(no);
  if (missing.length > 0 || parts.length !== part.count)
    return {
      problem: `${part.base} is split into ${part.count} parts: pick all of them, once each${missing.length ? ` (missing: ${missing.map((no) => partName(part.base, no, part.count)).join(', ')})` : ''}`,
    };
  return { parts: [...parts].sort((a, b) => a.part!.no - b.part!.no).map((p) => p.file) };
}

/** Why a file is too large for wllama, with how to split it; undefined when it is not. */
export function sizeProblem(file: { name: string; size: number }): string | undefined {
  if (file.size <= MAX_PART_BYTES) return undefined;
  return (
    `${file.name} is ${formatBytes(file.size)}, larger than the ${formatBytes(MAX_PART_BYTES)} ` +
    'a browser model can load from one file. Split it into parts with llama.cpp: ' +
    '`llama-gguf-split --split-max-size 1G model.gguf model` writes model-00001-of-0000N.gguf…; ' +
    'then pick all the parts together (or download the first part’s URL)'
  );
}
