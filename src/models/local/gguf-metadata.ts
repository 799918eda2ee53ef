// What a GGUF file says of itself, read from its header before wllama loads it: the context
// length it was trained for and the shape its context cache takes, from which the context to
// load it with is chosen (local-context.ts). llama.cpp's docs/gguf.md gives the layout: magic,
// version, tensor and key counts, then the keys, each a string, a type and a value; arrays
// (the vocabulary: megabytes) are skipped, not kept. Only the keys are read, in slices of the
// file, never the tensors.

import type { ModelShape } from './local-memory.ts';

const MAGIC = 'GGUF';
/** How much of a file the header may take before the reader gives up on it. */
const MAX_HEADER_BYTES = 128 * 1024 * 1024;
const SLICE = 1024 * 1024;

/** Bytes of a scalar GGUF value of each type (gguf_metadata_value_type). */
export const GGUF_SCALAR_BYTES: Readonly<Record<number, number>> = {
  0: 1,
  1: 1,
  2: 2,
  3: 2,
  4: 4,
  5: 4,
  6: 4,
  7: 1,
  10: 8,
  11: 8,
  12: 8,
};
/** The value types of a string and of an array. */
export const GGUF_STRING = 8;
export const GGUF_ARRAY = 9;

export interface GgufFacts extends ModelShape {
  /** `<arch>.context_length`: the context it was trained for, in tokens. */
  contextLength?: number;
}

/**
 * The facts of the GGUF `file` (its first part, for a split model), or `undefined` when it is
 * not a GGUF of version 2 or later or its header cannot be read: the caller then goes on
 * without them, as the loader will say what is wrong with the file.
 */
export async function readGgufFacts(file: Blob): Promise<GgufFacts | undefined> {
  try {
    const reader = new SliceReader(file);
    if ((await reader.text(4)) !== MAGIC) return undefined;
    const version = await reader.u32();
    if (version < 2) return undefined;
    await reader.u64(); // tensor count
    const keys = await reader.u64();
    const meta: Record<string, string> = {};
    for (let i = 0; i < keys; i++) {
      const key = await reader.string();
      const type = await reader.u32();
      const value = await reader.value(type);
      if (value !== undefined) meta[key] = value;
    }
    return factsOf(meta);
  } catch {
    // A header cut short or malformed: the facts are a nicety, the loader reports the file.
    return undefined;
  }
}

function factsOf(meta: Record<string, string>): GgufFacts {
  const arch = meta['general.architecture'] ?? '';
  const number = (key: string) => Number(meta[`${arch}.${key}`]) || 0;
  const contextLength = number('context_length');
  return {
    hparams: { nEmbd: number('embedding_length'), nLayer: number('block_count') },
    meta,
    ...(contextLength > 0 ? { contextLength } : {}),
  };
}

/** Little-endian reads from a Blob, a slice at a time. */
class SliceReader {
  private buffer = new Uint8Array(0);
  /** Where `buffer` starts in the file. */
  private start = 0;
  private at = 0;

  constructor(private readonly file: Blob) {}

  async u32(): Promise<number> {
    return new DataView((await this.take(4)).buffer).getUint32(0, true);
  }

  async u64(): Promise<number> {
    const value = new DataView((await this.take(8)).buffer).getBigUint64(0, true);
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error('a count too large');
    return Number(value);
  }

  async text(length: number): Promise<string> {
    return new TextDecoder().decode(await this.take(length));
  }

  async string(): Promise<string> {
    return this.text(await this.u64());
  }

  /** A scalar or string as text; an array is skipped (`undefined`). */
  async value(type: number): Promise<string | undefined> {
    if (type === GGUF_STRING) return this.string();
    if (type === GGUF_ARRAY) {
      const of = await this.u32();
      const count = await this.u64();
      if (of === GGUF_STRING) for (let i = 0; i < count; i++) this.skip(await this.u64());
      else if (GGUF_SCALAR_BYTES[of] !== undefined) this.skip(count * GGUF_SCALAR_BYTES[of]);
      else throw new Error(`an array of type ${of}`);
      return undefined;
    }
    const size = GGUF_SCALAR_BYTES[type];
    if (size === undefined) throw new Error(`a value of type ${type}`);
    // take() returns a copy of its own, so its buffer starts with the value.
    const bytes = new DataView((await this.take(size)).buffer);
    switch (type) {
      case 0:
        return String(bytes.getUint8(0));
      case 1:
        return String(bytes.getInt8(0));
      case 2:
        return String(bytes.getUint16(0, true));
      case 3:
        return String(bytes.getInt16(0, true));
      case 4:
        return String(bytes.getUint32(0, true));
      case 5:
        return String(bytes.getInt32(0, true));
      case 6:
        return String(bytes.getFloat32(0, true));
      case 7:
        return String(bytes.getUint8(0) !== 0);
      case 10:
        return String(bytes.getBigUint64(0, true));
      case 11:
        return String(bytes.getBigInt64(0, true));
      default:
        return String(bytes.getFloat64(0, true));
    }
  }

  private skip(length: number): void {
    this.at += length;
  }

  /** The next `length` bytes (a copy when they straddle slices). */
  private async take(length: number): Promise<Uint8Array> {
    const end = this.at + length;
    if (end > MAX_HEADER_BYTES || end > this.file.size) throw new Error('past the header');
    if (this.at < this.start || end > this.start + this.buffer.length) {
      this.start = this.at;
      const slice = this.file.slice(
        this.at,
        Math.min(this.file.size, this.at + Math.max(SLICE, length)),
      );
      this.buffer = new Uint8Array(await slice.arrayBuffer());
    }
    const from = this.at - this.start;
    this.at = end;
    return this.buffer.slice(from, from + length);
  }
}
