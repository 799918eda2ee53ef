// The embedding endpoints of the test model server (model-server.ts): Gemini's
// `models/{model}:batchEmbedContents` and OpenAI's `/v1/embeddings`, answering deterministic
// vectors, so embedders and knowledge bases are tested over real HTTP.
//
// A vector is a hashed bag of the text's lower-cased words (EMBEDDING_DIMENSIONS of them, unit
// length), with a few synonyms folded together so that a paraphrase can match ("automobile" ≈
// "car"). The model's name, up to an optional '@tag', says how to answer (EMBEDDING_SCENARIOS);
// the requests (bodies, headers) are in the server's `requests`, to count and read.

import type { ServerResponse } from 'node:http';

export const EMBEDDING_DIMENSIONS = 64;

/** Words that embed as another, so a paraphrase finds what it paraphrases. */
const SYNONYMS: Record<string, string> = {
  automobile: 'car',
  cars: 'car',
  vehicle: 'car',
  physician: 'doctor',
  purchase: 'buy',
  large: 'big',
  huge: 'big',
  quick: 'fast',
  rapid: 'fast',
};

/** The vector the server answers for `text`: the same text, the same vector. */
export function fakeEmbedding(text: string): number[] {
  const vector = new Array<number>(EMBEDDING_DIMENSIONS).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const hash = fnv1a(SYNONYMS[word] ?? word);
    vector[hash % EMBEDDING_DIMENSIONS]! += hash & 0x10000 ? 1 : -1;
  }
  const length = Math.hypot(...vector);
  // A text without words still gets a vector of unit length (cosine needs one).
  if (length === 0) return vector.map((_, i) => (i === 0 ? 1 : 0));
  return vector.map((value) => value / length);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

type EmbeddingProtocol = 'openai' | 'gemini';

/** How a model answers: vectors (possibly spoiled), an error status, a cut answer, or nothing. */
type EmbeddingReply =
  | { vectors: 'ok' | 'shuffled' | 'short' | 'not-numbers' | 'dims' }
  | { status: number; retryAfter?: string; echoKey?: boolean }
  | { cut: true }
  | { hang: true };

/**
 * The models: 'embed' answers; 'embed-shuffled' gives OpenAI's data in reverse order (each with
 * its index); 'embed-short' one vector too few; 'embed-not-numbers' a vector of strings;
 * 'embed-dims' vectors of two dimensions; 'embed-status-N' HTTP N every time; 'embed-429-then-ok'
 * and 'embed-500-then-ok' fail the first time only; 'embed-401-echo' rejects the key quoting it
 * back; 'embed-cut' drops the connection halfway through its answer; 'embed-hang' never answers.
 * Any other name: HTTP 404 (an unknown model).
 */
const EMBEDDING_SCENARIOS: Record<string, (attempt: number) => EmbeddingReply> = {
  embed: () => ({ vectors: 'ok' }),
  'embed-shuffled': () => ({ vectors: 'shuffled' }),
  'embed-short': () => ({ vectors: 'short' }),
  'embed-not-numbers': () => ({ vectors: 'not-numbers' }),
  'embed-dims': () => ({ vectors: 'dims' }),
  'embed-429-then-ok': (attempt) =>
    attempt === 0 ? { status: 429, retryAfter: '0' } : { vectors: 'ok' },
  'embed-500-then-ok': (attempt) => (attempt === 0 ? { status: 500 } : { vectors: 'ok' }),
  'embed-401-echo': () => ({ status: 401, echoKey: true }),
  'embed-cut': () => ({ cut: true }),
  'embed-hang': () => ({ hang: true }),
};

/** The embedding request `pathname` names, if it is one: its protocol and model. */
export function embeddingRoute(
  method: string | undefined,
  pathname: string,
  body: { model?: unknown } | undefined,
): { protocol: EmbeddingProtocol; model: string } | undefined {
  if (method !== 'POST') return undefined;
  if (pathname === '/v1/embeddings') return { protocol: 'openai', model: String(body?.model) };
  const gemini = /^\/v1beta\/models\/([^:]+):batchEmbedContents$/.exec(pathname);
  return gemini ? { protocol: 'gemini', model: decodeURIComponent(gemini[1]!) } : undefined;
}

/** Answers an embedding request (the `attempt`-th for its model, from 0). */
export async function sendEmbeddings(
  res: ServerResponse,
  { protocol, model }: { protocol: EmbeddingProtocol; model: string },
  attempt: number,
  body: any,
  headers: Record<string, string>,
  cors: Record<string, string>,
): Promise<void> {
  const name = model.split('@')[0]!;
  const status = /^embed-status-(\d{3})$/.exec(name)?.[1];
  const reply: EmbeddingReply = status
    ? { status: Number(status) }
    : (EMBEDDING_SCENARIOS[name]?.(attempt) ?? { status: 404 });
  if ('hang' in reply) return; // the client's abort or idle timeout must end it
  const json = { ...cors, 'content-type': 'application/json; charset=UTF-8' };
  if ('status' in reply) {
    const key = headers['x-goog-api-key'] ?? headers.authorization?.replace(/^Bearer /, '') ?? '';
    const message = reply.echoKey
      ? `Incorrect API key provided: ${key}`
      : reply.status === 404
        ? `model "${model}" not found`
        : `embedding failed with status ${reply.status}`;
    const error =
      protocol === 'gemini'
        ? { error: { code: reply.status, message, status: 'FAILED' } }
        : { error: { message, type: 'invalid_request_error' } };
    const extra = reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {};
    return void res.writeHead(reply.status, { ...json, ...extra }).end(JSON.stringify(error));
  }
  const texts: string[] =
    protocol === 'gemini'
      ? (body.requests as { content: { parts: { text: string }[] } }[]).map((request) =>
          request.content.parts.map((part) => part.text).join(''),
        )
      : Array.isArray(body.input)
        ? body.input
        : [body.input];
  const answer = JSON.stringify(embeddingAnswer(protocol, texts, 'vectors' in reply ? reply : {}));
  if ('cut' in reply) {
    res.writeHead(200, json);
    res.write(answer.slice(0, Math.floor(answer.length / 2)));
    // A moment first, so the client has the first half before the reset.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return void res.socket?.destroy();
  }
  res.writeHead(200, json).end(answer);
}

function embeddingAnswer(
  protocol: EmbeddingProtocol,
  texts: string[],
  { vectors = 'ok' }: { vectors?: string },
): unknown {
  let list: unknown[] = texts.map(fakeEmbedding);
  if (vectors === 'short') list = list.slice(1);
  if (vectors === 'not-numbers') list[0] = (list[0] as number[]).map(String);
  if (vectors === 'dims') list[list.length - 1] = (list.at(-1) as number[]).slice(1);
  if (protocol === 'gemini') return { embeddings: list.map((values) => ({ values })) };
  const data = list.map((embedding, index) => ({ object: 'embedding', index, embedding }));
  if (vectors === 'shuffled') data.reverse();
  return { object: 'list', data, model: 'embed', usage: { prompt_tokens: 0, total_tokens: 0 } };
}
