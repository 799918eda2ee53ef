// Splits a GGUF file into parts as llama.cpp's `llama-gguf-split` does, for tests of split models
// without the tool: every part is a GGUF file of its own with `split.no` (0-based, uint16),
// `split.count` (uint16) and `split.tensors.count` (int32) in its metadata; the first part also
// has all of the model's metadata; the tensors are dealt out in order, each part with its own
// tensor infos and data section. Only what tiny-gguf.ts writes is read (no quantised types).

import {
  GGUF_ARRAY as ARRAY,
  GGUF_SCALAR_BYTES as SCALAR_BYTES,
  GGUF_STRING as STRING,
} from '../../src/models/local/gguf-metadata.ts';

const ALIGNMENT = 32; // GGUF's default, and tiny-gguf's

const GGML_TYPE_F32 = 0;

interface TensorInfo {
  name: Uint8Array;
  dims: bigint[];
  type: number;
  offset: number;
  bytes: number;
}

/** `model` split into `count` parts (tensors dealt as evenly as they go). */
export function splitGguf(model: Uint8Array, count: number): Uint8Array[] {
  const view = new DataView(model.buffer, model.byteOffset, model.byteLength);
  let at = 0;
  const u32 = () => ((at += 4), view.getUint32(at - 4, true));
  const u64 = () => ((at += 8), view.getBigUint64(at - 8, true));
  const skipString = () => {
    const length = Number(u64());
    at += length;
  };
  const skipValue = (type: number): void => {
    if (type === STRING) return skipString();
    if (type === ARRAY) {
      const of = u32();
      const length = Number(u64());
      for (let i = 0; i < length; i++) skipValue(of);
      return;
    }
    const bytes = SCALAR_BYTES[type];
    if (bytes === undefined) throw new Error(`Unknown GGUF value type ${type}`);
    at += bytes;
  };

  if (u32() !== 0x46554747) throw new Error('Not a GGUF file');
  const version = u32();
  const tensorCount = Number(u64());
  const kvCount = Number(u64());
  const kvStart = at;
  for (let i = 0; i < kvCount; i++) {
    skipString();
    skipValue(u32());
  }
  const kvBytes = model.subarray(kvStart, at);
  const tensors: TensorInfo[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const nameLength = Number(u64());
    const name = model.subarray(at, at + nameLength);
    at += nameLength;
    const dims = Array.from({ length: u32() }, () => u64());
    const type = u32();
    if (type !== GGML_TYPE_F32) throw new Error('Only F32 tensors are split here');
    const offset = Number(u64());
    const bytes = dims.reduce((n, d) => n * Number(d), 1) * 4;
    tensors.push({ name, dims, type, offset, bytes });
  }
  const dataStart = alignUp(at);

  const perPart = Math.ceil(tensorCount / count);
  return Array.from({ length: count }, (_, no) => {
    const mine = tensors.slice(no * perPart, (no + 1) * perPart);
    const out: number[] = [];
    const push = (bytes: ArrayLike<number>) => {
      for (let i = 0; i < bytes.length; i++) out.push(bytes[i]!);
    };
    const le = (bits: 16 | 32 | 64, n: number | bigint) => {
      const buffer = new DataView(new ArrayBuffer(bits / 8));
      if (bits === 16) buffer.setUint16(0, Number(n), true);
      else if (bits === 32) buffer.setUint32(0, Number(n), true);
      else buffer.setBigUint64(0, BigInt(n), true);
      push(new Uint8Array(buffer.buffer));
    };
    const key = (name: string) => {
      const bytes = new TextEncoder().encode(name);
      le(64, bytes.length);
      push(bytes);
    };
    le(32, 0x46554747);
    le(32, version);
    le(64, mine.length);
    le(64, (no === 0 ? kvCount : 0) + 3);
    if (no === 0) push(kvBytes);
    key('split.no');
    le(32, 2); // uint16
    le(16, no);
    key('split.count');
    le(32, 2);
    le(16, count);
    key('split.tensors.count');
    le(32, 5); // int32
    le(32, tensorCount);
    let offset = 0;
    for (const tensor of mine) {
      le(64, tensor.name.length);
      push(tensor.name);
      le(32, tensor.dims.length);
      for (const dim of tensor.dims) le(64, dim);
      le(32, tensor.type);
      le(64, offset);
      offset = alignUp(offset + tensor.bytes);
    }
    while (out.length % ALIGNMENT) out.push(0);
    const start = out.length;
    for (const tensor of mine) {
      while ((out.length - start) % ALIGNMENT) out.push(0);
      push(model.subarray(dataStart + tensor.offset, dataStart + tensor.offset + tensor.bytes));
    }
    return Uint8Array.from(out);
  });
}

function alignUp(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}
