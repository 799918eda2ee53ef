// Content and Part, in the camelCase wire format of ADK and the Gemini API.

export interface FunctionCall {
  id?: string;
  name: string;
  args: Record<string, unknown>;
}

export interface FunctionResponse {
  id?: string;
  name: string;
  response: Record<string, unknown>;
}

/** Bytes as base64, so that a Part stays plain JSON. */
export interface InlineData {
  mimeType: string;
  data: string;
  displayName?: string;
}

/**
 * One piece of a message. Exactly one of `text`, `functionCall`, `functionResponse` or
 * `inlineData` is set (the wire format has no discriminant, so neither do we).
 */
export interface Part {
  text?: string;
  /** A model's thought summary: shown, never treated as its answer. */
  thought?: boolean;
  functionCall?: FunctionCall;
  functionResponse?: FunctionResponse;
  inlineData?: InlineData;
}

export type Role = 'user' | 'model';

export interface Content {
  role: Role;
  parts: Part[];
}

export function createUserContent(text: string): Content {
  return { role: 'user', parts: [{ text }] };
}

/** The answer text of a content: its text parts joined, thoughts left out. */
export function textOf(content: Content | undefined): string {
  if (!content) return '';
  let text = '';
  for (const part of content.parts) {
    if (part.text !== undefined && !part.thought) text += part.text;
  }
  return text;
}

export function functionCallsOf(content: Content | undefined): FunctionCall[] {
  const calls: FunctionCall[] = [];
  for (const part of content?.parts ?? []) if (part.functionCall) calls.push(part.functionCall);
  return calls;
}

export function functionResponsesOf(content: Content | undefined): FunctionResponse[] {
  const responses: FunctionResponse[] = [];
  for (const part of content?.parts ?? []) {
    if (part.functionResponse) responses.push(part.functionResponse);
  }
  return responses;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_INDEX = new Map([...BASE64].map((c, i) => [c, i]));

export function bytesToBase64(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += BASE64[n >> 18]! + BASE64[(n >> 12) & 63]! + BASE64[(n >> 6) & 63]! + BASE64[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += BASE64[n >> 18]! + BASE64[(n >> 12) & 63]! + '==';
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += BASE64[n >> 18]! + BASE64[(n >> 12) & 63]! + BASE64[(n >> 6) & 63]! + '=';
  }
  return out;
}

/** Decodes standard or URL-safe base64; throws a TypeError on anything else. */
export function base64ToBytes(base64: string): Uint8Array {
  const clean = base64
    .replace(/[\s=]+/g, '')
    .replace(/-/g, '+')
    .replace(/_/g, '/');
  if (clean.length % 4 === 1) throw new TypeError('Invalid base64: bad length');
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let buffer = 0;
  let bits = 0;
  let j = 0;
  for (const c of clean) {
    const value = BASE64_INDEX.get(c);
    if (value === undefined) throw new TypeError(`Invalid base64: unexpected character '${c}'`);
    buffer = (buffer << 6) | value;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[j++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}
