// A tiny llama-architecture GGUF (v3) with seeded random F32 weights, written by hand, so the
// local-model tests can load a real model into wllama without downloading one. It answers
// nonsense, but a grammar makes even nonsense well-formed, which is what the tests need.
//
// The layout follows llama.cpp's docs/gguf.md: a header (magic, version, tensor and key counts),
// the metadata key/values, the tensor infos (dimensions innermost first, offsets relative to the
// data section), padding to `general.alignment`, then each tensor's data, each aligned too.

const GGUF_MAGIC = 0x46554747; // "GGUF" read as a little-endian u32
const GGUF_VERSION = 3;
const ALIGNMENT = 32;

/** GGUF metadata value types (gguf_metadata_value_type). */
const ValueType = {
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
} as const;

/** ggml_type of a tensor: only F32 here, so no quantisation code is needed. */
const GGML_TYPE_F32 = 0;

/** SentencePiece token types, as llama.cpp reads them from `tokenizer.ggml.token_type`. */
const TokenType = { normal: 1, unknown: 2, control: 3, unused: 5, byte: 6 } as const;

/** A ChatML template: the one Qwen uses, short enough to read. */
export const TINY_CHAT_TEMPLATE =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

export interface TinyGgufOptions {
  /** Seeds the weights: the same seed writes the same file. */
  seed?: number;
  embeddingLength?: number;
  blockCount?: number;
  contextLength?: number;
  /**
   * Pairs (after, next) the model strongly prefers: after the token `after` it writes `next`.
   * A character names its own token ("\n" its byte token), anything else a token by its text
   * ("</s>"). The app's test uses ["\n", "{"]: a reply (which follows the chat template's
   * "assistant\n") starts a tool call whenever a grammar allows one.
   */
  bigrams?: [after: string, next: string][];
}

type Value =
  | { type: 'uint32' | 'int32' | 'float32'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'string'; value: string }
  | { type: 'array'; of: 'string'; value: string[] }
  | { type: 'array'; of: 'float32' | 'int32'; value: number[] };

interface Tensor {
  name: string;
  /** Innermost first, as ggml's ne[]: a matrix mapping n_in to n_out is [n_in, n_out]. */
  dims: number[];
  /** Fills the tensor: random weights, or ones for a norm. */
  fill: 'random' | 'ones';
}

/** The vocabulary: unk, bos, eos, the ChatML markers, 256 byte tokens and printable characters. */
export function tinyVocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>', '<|im_start|>', '<|im_end|>'];
  const types: number[] = [
    TokenType.unknown,
    TokenType.control,
    TokenType.control,
    TokenType.control,
    TokenType.control,
  ];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, '0')}>`);
    // Only bytes without a token of their own (control characters, DEL) are byte tokens. A
    // byte above 0x7f alone is invalid UTF-8, which wllama's JSON replies cannot carry (random
    // weights would pick one); a printable one would be a second token for its character, which
    // a bigram (below) does not steer. Unused, they still tokenise input (byte fallback finds
    // them by name) but read back as nothing, and a grammar never picks them.
    const ownToken = byte >= 0x20 && byte < 0x7f;
    types.push(byte < 0x80 && !ownToken ? TokenType.byte : TokenType.unused);
  }
  // SentencePiece writes a space as U+2581; the other printable ASCII characters as themselves.
  tokens.push('\u2581');
  types.push(TokenType.normal);
  for (let code = 0x21; code < 0x7f; code++) {
    tokens.push(String.fromCharCode(code));
    types.push(TokenType.normal);
  }
  return { tokens, scores: tokens.map((_, i) => -i), types };
}

/** The GGUF file's bytes. */
export function tinyGguf(options: TinyGgufOptions = {}): Uint8Array {
  const embd = options.embeddingLength ?? 64;
  const blocks = options.blockCount ?? 2;
  const heads = 4;
  const headsKv = 2;
  const headDim = embd / heads;
  const feedForward = embd * 2;
  const vocab = tinyVocabulary();
  const nVocab = vocab.tokens.length;

  const metadata: [string, Value][] = [
    ['general.architecture', { type: 'string', value: 'llama' }],
    ['general.name', { type: 'string', value: 'trellis-tiny' }],
    ['general.alignment', { type: 'uint32', value: ALIGNMENT }],
    ['llama.context_length', { type: 'uint32', value: options.contextLength ?? 2048 }],
    ['llama.embedding_length', { type: 'uint32', value: embd }],
    ['llama.block_count', { type: 'uint32', value: blocks }],
    ['llama.feed_forward_length', { type: 'uint32', value: feedForward }],
    ['llama.attention.head_count', { type: 'uint32', value: heads }],
    ['llama.attention.head_count_kv', { type: 'uint32', value: headsKv }],
    ['llama.attention.layer_norm_rms_epsilon', { type: 'float32', value: 1e-5 }],
    ['llama.rope.dimension_count', { type: 'uint32', value: headDim }],
    ['llama.vocab_size', { type: 'uint32', value: nVocab }],
    ['tokenizer.ggml.model', { type: 'string', value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: 'array', of: 'string', value: vocab.tokens }],
    ['tokenizer.ggml.scores', { type: 'array', of: 'float32', value: vocab.scores }],
    ['tokenizer.ggml.token_type', { type: 'array', of: 'int32', value: vocab.types }],
    ['tokenizer.ggml.unknown_token_id', { type: 'uint32', value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: 'uint32', value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: 'uint32', value: 2 }],
    ['tokenizer.ggml.add_bos_token', { type: 'bool', value: true }],
    ['tokenizer.ggml.add_eos_token', { type: 'bool', value: false }],
    ['tokenizer.chat_template', { type: 'string', value: TINY_CHAT_TEMPLATE }],
  ];

  const tensors: Tensor[] = [
    { name: 'token_embd.weight', dims: [embd, nVocab], fill: 'random' },
    { name: 'output_norm.weight', dims: [embd], fill: 'ones' },
    { name: 'output.weight', dims: [embd, nVocab], fill: 'random' },
  ];
  for (let block = 0; block < blocks; block++) {
    const at = (name: string) => `blk.${block}.${name}.weight`;
    tensors.push(
      { name: at('attn_norm'), dims: [embd], fill: 'ones' },
      { name: at('attn_q'), dims: [embd, embd], fill: 'random' },
      { name: at('attn_k'), dims: [embd, headDim * headsKv], fill: 'random' },
      { name: at('attn_v'), dims: [embd, headDim * headsKv], fill: 'random' },
      { name: at('attn_output'), dims: [embd, embd], fill: 'random' },
      { name: at('ffn_norm'), dims: [embd], fill: 'ones' },
      { name: at('ffn_gate'), dims: [embd, feedForward], fill: 'random' },
      { name: at('ffn_up'), dims: [embd, feedForward], fill: 'random' },
      { name: at('ffn_down'), dims: [feedForward, embd], fill: 'random' },
    );
  }

  const out = new ByteWriter();
  out.u32(GGUF_MAGIC);
  out.u32(GGUF_VERSION);
  out.u64(tensors.length);
  out.u64(metadata.length);
  for (const [key, value] of metadata) {
    out.string(key);
    writeValue(out, value);
  }
  let offset = 0;
  const offsets: number[] = [];
  for (const tensor of tensors) {
    out.string(tensor.name);
    out.u32(tensor.dims.length);
    for (const dim of tensor.dims) out.u64(dim);
    out.u32(GGML_TYPE_F32);
    out.u64(offset);
    offsets.push(offset);
    offset = alignUp(offset + elements(tensor) * 4);
  }
  out.padTo(ALIGNMENT);
  const dataStart = out.length;
  const random = mulberry32(options.seed ?? 18);
  // Small weights keep activations in range through the layers, as a trained model's would be.
  const scale = 1 / Math.sqrt(embd);
  const values = tensors.map((tensor) =>
    Float32Array.from({ length: elements(tensor) }, () =>
      tensor.fill === 'ones' ? 1 : (random() * 2 - 1) * scale,
    ),
  );
  if (options.bigrams?.length) {
    const byName = (name: string) => values[tensors.findIndex((t) => t.name === name)]!;
    steer(options.bigrams, vocab.tokens, embd, byName, blocks);
  }
  tensors.forEach((tensor, i) => {
    out.padTo(ALIGNMENT);
    if (out.length - dataStart !== offsets[i]) throw new Error(`${tensor.name} is misplaced`);
    for (const value of values[i]!) out.f32(value);
  });
  return out.bytes();
}

/**
 * Makes the model a bigram model for `pairs`: the layers' outputs shrink, so the last hidden
 * state is close to the last token's embedding, and the output row of `next` is pointed along
 * the embedding of `after`, so that its logit after `after` stands far above the rest.
 */
function steer(
  pairs: [string, string][],
  tokens: string[],
  embd: number,
  tensor: (name: string) => Float32Array,
  blocks: number,
): void {
  const id = (text: string) => {
    const name =
      text === ' '
        ? '\u2581'
        : text.length === 1 && (text < '!' || text > '~')
          ? `<0x${text.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}>`
          : text;
    const index = tokens.indexOf(name);
    if (index < 0) throw new Error(`no token for ${JSON.stringify(text)}`);
    return index;
  };
  for (let block = 0; block < blocks; block++)
    for (const name of ['attn_output', 'ffn_down'])
      tensor(`blk.${block}.${name}.weight`).forEach((v, i, a) => (a[i] = v * 0.01));
  const embeddings = tensor('token_embd.weight');
  const output = tensor('output.weight');
  for (const [after, next] of pairs) {
    const from = embeddings.subarray(id(after) * embd, (id(after) + 1) * embd);
    const rms = Math.sqrt(from.reduce((sum, v) => sum + v * v, 0) / embd);
    const row = output.subarray(id(next) * embd, (id(next) + 1) * embd);
    // The normalised state has length √embd: this adds 4·√embd to the logit, some thirty
    // times the spread of the random ones.
    for (let j = 0; j < embd; j++) row[j] = row[j]! + (4 / Math.sqrt(embd)) * (from[j]! / rms);
  }
}

function elements(tensor: Tensor): number {
  return tensor.dims.reduce((a, b) => a * b, 1);
}

function alignUp(n: number): number {
  return Math.ceil(n / ALIGNMENT) * ALIGNMENT;
}

function writeValue(out: ByteWriter, value: Value): void {
  out.u32(ValueType[value.type]);
  switch (value.type) {
    case 'uint32':
      return out.u32(value.value);
    case 'int32':
      return out.i32(value.value);
    case 'float32':
      return out.f32(value.value);
    case 'bool':
      return out.u8(value.value ? 1 : 0);
    case 'string':
      return out.string(value.value);
    case 'array':
      out.u32(ValueType[value.of]);
      out.u64(value.value.length);
      for (const item of value.value) {
        if (typeof item === 'string') out.string(item);
        else if (value.of === 'int32') out.i32(item);
        else out.f32(item);
      }
  }
}

/** A seeded PRNG: the same seed, the same weights, the same (nonsense) answers. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Little-endian bytes into a buffer that grows as needed. */
class ByteWriter {
  private buffer = new Uint8Array(1 << 16);
  private view = new DataView(this.buffer.buffer);
  length = 0;

  /** Room for n more bytes, at the returned offset; may replace the buffer and its view. */
  private reserve(n: number): number {
    if (this.length + n > this.buffer.length) {
      const bigger = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
      bigger.set(this.buffer);
      this.buffer = bigger;
      this.view = new DataView(bigger.buffer);
    }
    const at = this.length;
    this.length += n;
    return at;
  }

  u8(n: number): void {
    const at = this.reserve(1);
    this.view.setUint8(at, n);
  }
  u32(n: number): void {
    const at = this.reserve(4);
    this.view.setUint32(at, n, true);
  }
  i32(n: number): void {
    const at = this.reserve(4);
    this.view.setInt32(at, n, true);
  }
  u64(n: number): void {
    const at = this.reserve(8);
    this.view.setBigUint64(at, BigInt(n), true);
  }
  f32(n: number): void {
    const at = this.reserve(4);
    this.view.setFloat32(at, n, true);
  }
  string(s: string): void {
    const bytes = new TextEncoder().encode(s);
    this.u64(bytes.length);
    const at = this.reserve(bytes.length); // may replace the buffer: reserve before reading it
    this.buffer.set(bytes, at);
  }
  padTo(alignment: number): void {
    this.reserve((alignment - (this.length % alignment)) % alignment);
  }
  bytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}
