// A local model server for tests: it speaks Gemini's REST API and OpenAI's chat completions from
// recorded wire transcripts (test/fixtures/models/), so providers are tested over real HTTP.
//
// The scenario is the requested model's name, up to an optional '@tag': 'fixture-text',
// 'fixture-429-then-ok@a'. Counters (for "fail first, then succeed") are kept per full name, so
// a test that needs a fresh one adds its own tag. Any other name is an unknown model (404).
// It also answers embedding requests (model-embeddings.ts: deterministic vectors).

import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { TITLE_TASK } from '../../workers/sessions/title-prompt.ts';
import { embeddingRoute, sendEmbeddings } from './model-embeddings.ts';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. '/v1beta/models/fixture-text:streamGenerateContent?alt=sse'. */
  path: string;
  /** Lower-case names, as Node gives them. */
  headers: Record<string, string>;
  /** The JSON body, parsed (undefined for none). */
  body: any;
  /** When it came (Date.now()). */
  at: number;
}

export interface ModelServer {
  /** e.g. 'http://127.0.0.1:40123': OpenAI's base URL is `${url}/v1`, Gemini's `${url}/v1beta`. */
  url: string;
  /** Every request but the title requests: a conversation's calls, listings, preflights. */
  requests: RecordedRequest[];
  /** The requests for a session's title (sessions/model-titles.ts), kept apart. */
  titleRequests: RecordedRequest[];
  close(): Promise<void>;
}

type Protocol = 'openai' | 'gemini';

/** What to answer: a fixture (JSON, or an SSE transcript and how the stream ends) or an error. */
type Reply =
  | {
      fixture: string;
      end?: 'close' | 'stall' | 'disconnect';
      whole?: boolean;
      /** {{name}}s of the fixture this answer fills, JSON-string-escaped (a scripted answer). */
      vars?: Record<string, string>;
    }
  | {
      status: number;
      fixture: string;
      retryAfter?: string;
      /**
       * Lists Retry-After in Access-Control-Expose-Headers: without it, a page on another
       * origin cannot read the header (fetch's `headers.get` says null), as with most providers.
       */
      exposed?: boolean;
    }
  | { hang: true };

interface Call {
  protocol: Protocol;
  stream: boolean;
  /** How many requests named this model before this one. */
  attempt: number;
  body: any;
}

const FIXTURES = join(import.meta.dirname, '../fixtures/models');

/** Whether the conversation already holds a tool result (the model is to answer it). */
function hasToolResult({ protocol, body }: Call): boolean {
  return protocol === 'openai'
    ? body.messages.some((m: { role: string }) => m.role === 'tool')
    : body.contents.some((c: { parts: object[] }) => c.parts.some((p) => 'functionResponse' in p));
}

const SCENARIOS: Record<string, (call: Call) => Reply> = {
  'fixture-text': () => ({ fixture: 'text' }),
  // Cut at the max output tokens (finish_reason "length") the first time, whole after.
  'fixture-length': ({ attempt }) => ({ fixture: attempt === 0 ? 'length' : 'text' }),
  'fixture-tool-call': (call) => ({ fixture: hasToolResult(call) ? 'follow-up' : 'tool-call' }),
  'fixture-two-tool-calls': (call) => ({
    fixture: hasToolResult(call) ? 'follow-up-two' : 'two-tool-calls',
  }),
  'fixture-json': () => ({ fixture: 'json' }),
  // Streaming only: a call to the built-in `calculator` tool, then the answer once it has the result.
  'fixture-calculator': (call) => ({
    fixture: hasToolResult(call) ? 'calculator-answer' : 'calculator',
  }),
  // The same, but the first answer after the tool result stalls after its first words (a run to
  // cut off by a reload or Stop); any later request answers in full (the resumed run).
  'fixture-calculator-stall': (call) =>
    !hasToolResult(call)
      ? { fixture: 'calculator' }
      : call.attempt === 1
        ? { fixture: 'calculator-stall', end: 'stall' }
        : { fixture: 'calculator-answer' },
  // OpenAI, streaming only: a question to the user through the built-in `ask_user` tool for each
  // message, then an answer once the last message is the user's reply (the tool's result).
  'fixture-ask-user': ({ body }) => ({
    fixture: body.messages.at(-1)?.role === 'tool' ? 'ask-user-answer' : 'ask-user',
  }),
  // OpenAI, streaming only: a call to the MCP test server's `echo` tool, then an answer once the
  // last message is the tool's result.
  'fixture-mcp-echo': ({ body }) => ({
    fixture: body.messages.at(-1)?.role === 'tool' ? 'mcp-echo-answer' : 'mcp-echo',
  }),
  // The same with the MCP test server's `slow` tool (2.5 s): a run to reload in the middle of.
  'fixture-mcp-slow': ({ body }) => ({
    fixture: body.messages.at(-1)?.role === 'tool' ? 'mcp-echo-answer' : 'mcp-slow',
  }),
  // A server that answers a streaming request with one JSON body (some do, in some modes)
  'fixture-ignores-stream': () => ({ fixture: 'text', whole: true }),
  'fixture-safety': () => ({ fixture: 'safety' }),
  'fixture-blocked': () => ({ fixture: 'blocked' }),
  'fixture-bad-arguments': () => ({ fixture: 'bad-arguments' }),
  'fixture-stream-error': () => ({ fixture: 'stream-error' }),
  'fixture-malformed': () => ({ fixture: 'malformed' }),
  'fixture-truncated': () => ({ fixture: 'truncated' }),
  'fixture-disconnect': () => ({ fixture: 'truncated', end: 'disconnect' }),
  'fixture-stall': () => ({ fixture: 'stall', end: 'stall' }),
  'fixture-hang': () => ({ hang: true }),
  'fixture-400-key': () => ({ status: 400, fixture: 'error-400-key' }),
  'fixture-401': () => ({ status: 401, fixture: 'error-401' }),
  'fixture-403': () => ({ status: 403, fixture: 'error-403' }),
  'fixture-429': () => ({ status: 429, fixture: 'error-429', retryAfter: '0' }),
  'fixture-429-then-ok': ({ attempt }) =>
    attempt === 0 ? { status: 429, fixture: 'error-429', retryAfter: '1' } : { fixture: 'text' },
  'fixture-500-then-ok': ({ attempt }) =>
    attempt === 0 ? { status: 500, fixture: 'error-500' } : { fixture: 'text' },
  'fixture-503': () => ({ status: 503, fixture: 'error-503' }),
  // A first answer that fails, then every later one answers in full (Continue, Retry): stalled
  // after its first words (to Stop), cut off by a dropped connection, or a malformed stream.
  'fixture-stall-then-ok': ({ attempt }) =>
    attempt === 0 ? { fixture: 'stall', end: 'stall' } : { fixture: 'text' },
  'fixture-disconnect-then-ok': ({ attempt }) =>
    attempt === 0 ? { fixture: 'truncated', end: 'disconnect' } : { fixture: 'text' },
  'fixture-malformed-then-ok': ({ attempt }) =>
    attempt === 0 ? { fixture: 'malformed' } : { fixture: 'text' },
  'fixture-401-then-ok': ({ attempt }) =>
    attempt === 0 ? { status: 401, fixture: 'error-401' } : { fixture: 'text' },
  // Rate limits that say how long to wait: 2 s, readable by the page (exposed); 20 s, hidden from
  // it (OpenAI's body still says "try again in 1s"); an hour (more than the app waits); and 30 s
  // every time (a wait to Stop).
  'fixture-429-wait-then-ok': ({ attempt }) =>
    attempt === 0
      ? { status: 429, fixture: 'error-429', retryAfter: '2', exposed: true }
      : { fixture: 'text' },
  'fixture-429-hidden-then-ok': ({ attempt }) =>
    attempt === 0 ? { status: 429, fixture: 'error-429', retryAfter: '20' } : { fixture: 'text' },
  'fixture-429-hour-then-ok': ({ attempt }) =>
    attempt === 0
      ? { status: 429, fixture: 'error-429', retryAfter: '3600', exposed: true }
      : { fixture: 'text' },
  'fixture-429-wait-long': () => ({
    status: 429,
    fixture: 'error-429',
    retryAfter: '30',
    exposed: true,
  }),
  // Answers in Markdown (test/e2e/markdown*.test.ts): a heading, lists, a table, a link and a
  // Python code block; the same answer stalled inside its code block (a fence still open); and
  // the XSS corpus of test/e2e/markdown-corpus.ts as one answer.
  'fixture-markdown': () => ({ fixture: 'markdown' }),
  'fixture-markdown-stall': () => ({ fixture: 'markdown-stall', end: 'stall' }),
  // The same, stalled the first time only: a Markdown answer to Stop, then Continue.
  'fixture-markdown-stall-then-ok': ({ attempt }) =>
    attempt === 0 ? { fixture: 'markdown-stall', end: 'stall' } : { fixture: 'markdown' },
  'fixture-markdown-xss': () => ({ fixture: 'markdown-xss' }),
  // OpenAI, streaming only, an agent with memory (test/e2e/agent-memory.test.ts): a question (a
  // message ending in '?') is a `load_memory` call with the question as its query, then an
  // answer of what came back; anything else is noted.
  'fixture-memory': ({ body }) => memoryReply(body.messages),
  // OpenAI, streaming only, an agent that calls another agent as a tool (test/e2e/agent-tool):
  // the first tool it is offered is called with the user's message as its `request`; its result
  // is then reported ("Through <tool>: <result>").
  'fixture-agent-caller': ({ body }) => agentCallerReply(body),
  // OpenAI, streaming only, an agent with knowledge bases (test/e2e/knowledge-ui.test.ts): a
  // message is a `search_knowledge` call with it as the query; then an answer that cites the
  // first source that came back ("… [1]"), or says nothing was found.
  'fixture-knowledge': ({ body }) => knowledgeReply(body),
  // OpenAI, streaming only: the agent called, which answers "Helper done: <its request>".
  'fixture-agent-helper': ({ body }) => ({
    fixture: 'say',
    vars: { text: escaped(`Helper done: ${lastText(body.messages)}`) },
  }),
  // OpenAI: an answer to every message that reports the request's prompt tokens (a token for
  // four characters of its messages, {{promptTokens}}), so a long chat passes a small window;
  // a request to summarise a conversation (context compaction's LlmSummarizer) gets a summary.
  'fixture-count': ({ body }) => ({
    fixture: JSON.stringify(body.messages).includes('Please summarize the conversation')
      ? 'summary'
      : 'counted',
  }),
};

/**
 * Titles written by the model (workers/sessions/model-titles.ts): what these models answer a title
 * request (told by its instruction); a chat's message gets `text`'s answer. A title with what
 * cleaning takes off (JSON-escaped: it goes into the stream as it is), a failure (500, 401, a cut
 * stream), an empty answer, an answer cut at the length limit.
 */
const TITLES: Record<string, Reply> = {
  'fixture-titles': { fixture: 'say', vars: { text: '**Title:** \\"Sky colour.\\"' } },
  'fixture-titles-500': { status: 500, fixture: 'error-500' },
  'fixture-titles-401': { status: 401, fixture: 'error-401' },
  'fixture-titles-cut': { fixture: 'truncated', end: 'disconnect' },
  'fixture-titles-empty': { fixture: 'say', vars: { text: '' } },
  'fixture-titles-length': { fixture: 'length' },
};
for (const name of Object.keys(TITLES)) SCENARIOS[name] = () => ({ fixture: 'text' });

/**
 * Any other model has no title to give (404, as an unknown model): the app then keeps the first
 * message's title, so the other tests' sessions keep theirs.
 */
const NO_TITLE: Reply = { status: 404, fixture: 'error-404' };

const isTitleRequest = (body: unknown) => JSON.stringify(body ?? '').includes(TITLE_TASK);

/** A text for a {{var}} inside the JSON of a stream. */
const escaped = (text: string) => JSON.stringify(text).slice(1, -1);

/** The text of the last message of an OpenAI conversation. */
function lastText(messages: { content: unknown }[]): string {
  const content = messages.at(-1)?.content;
  return typeof content === 'string'
    ? content
    : ((content as { text?: string }[] | undefined) ?? []).map((p) => p.text).join(' ');
}

function agentCallerReply(body: {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}): Reply {
  const tool = body.tools?.[0]?.function.name ?? 'none';
  if (body.messages.at(-1)?.role === 'tool') {
    const text = `Through ${tool}: ${lastText(body.messages)}`;
    return { fixture: 'say', vars: { text: escaped(text) } };
  }
  // The arguments are a JSON text inside the JSON of the stream: escaped twice.
  const args = escaped(JSON.stringify({ request: lastText(body.messages) }));
  return { fixture: 'call-tool', vars: { tool, args } };
}

function knowledgeReply(body: {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}): Reply {
  const names = body.tools?.map((tool) => tool.function.name) ?? [];
  const tool = names.find((name) => name === 'search_knowledge') ?? names[0] ?? 'none';
  if (body.messages.at(-1)?.role === 'tool') {
    const { sources = [] } = JSON.parse(lastText(body.messages)) as {
      sources?: { source: number; document: string; text: string }[];
    };
    const first = sources[0];
    const text = first
      ? `From ${first.document}: ${firstLine(first.text)} [${first.source}]`
      : 'Nothing in the knowledge base says.';
    return { fixture: 'say', vars: { text: escaped(text) } };
  }
  // The arguments are a JSON text inside the JSON of the stream: escaped twice.
  const args = escaped(JSON.stringify({ query: lastText(body.messages) }));
  return { fixture: 'call-tool', vars: { tool, args } };
}

/** A passage's first line that is not a Markdown heading, cut short. */
const firstLine = (text: string) =>
  (text.split('\n').find((line) => line.trim() && !line.startsWith('#')) ?? text).slice(0, 80);

/** The scripted answer of `fixture-memory` to an OpenAI conversation. */
function memoryReply(messages: { role: string; content: unknown }[]): Reply {
  const last = messages.at(-1);
  const escaped = (text: string) => JSON.stringify(text).slice(1, -1);
  if (last?.role === 'tool') {
    const { memories = [] } = JSON.parse(String(last.content)) as {
      memories?: { content: string }[];
    };
    const recalled = memories.length
      ? `From memory: ${memories.map((memory) => memory.content).join(' | ')}`
      : 'I do not remember that.';
    return { fixture: 'memory-answer', vars: { recalled: escaped(recalled) } };
  }
  const text =
    typeof last?.content === 'string'
      ? last.content
      : ((last?.content as { text?: string }[] | undefined) ?? []).map((p) => p.text).join(' ');
  if (!text.trim().endsWith('?')) return { fixture: 'memory-noted' };
  // The arguments are a JSON text inside the JSON of the stream: escaped twice.
  return { fixture: 'memory-load', vars: { args: escaped(JSON.stringify({ query: text })) } };
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type, x-goog-api-key',
  'access-control-max-age': '600',
};

/** `port`: listen on this one (to start a server again where a stopped one was). */
export async function startModelServer({ port = 0 }: { port?: number } = {}): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const titleRequests: RecordedRequest[] = [];
  const attempts = new Map<string, number>();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const path = req.url ?? '/';
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
    );
    const body = raw ? JSON.parse(raw) : undefined;
    // A title request counts no attempt and is kept apart: the other tests see the server as before.
    const title = isTitleRequest(body);
    const recorded = { method: req.method ?? 'GET', path, headers, body, at: Date.now() };
    (title ? titleRequests : requests).push(recorded);
    if (req.method === 'OPTIONS') return void res.writeHead(204, CORS).end();

    const { pathname } = new URL(path, 'http://localhost');
    if (req.method === 'GET' && pathname === '/v1/models') return sendJson(res, 'openai/models');
    if (req.method === 'GET' && pathname === '/v1beta/models')
      return sendJson(res, 'gemini/models');
    // Embeddings (model-embeddings.ts), counted per model as the chat's attempts are.
    const embedding = embeddingRoute(req.method, pathname, body);
    if (embedding) {
      const attempt = attempts.get(embedding.model) ?? 0;
      attempts.set(embedding.model, attempt + 1);
      return sendEmbeddings(res, embedding, attempt, body, headers, CORS);
    }

    let protocol: Protocol;
    let model: string;
    let stream: boolean;
    const gemini = /^\/v1beta\/models\/([^:]+):(generateContent|streamGenerateContent)$/.exec(
      pathname,
    );
    if (req.method === 'POST' && pathname === '/v1/chat/completions') {
      [protocol, model, stream] = ['openai', body.model, body.stream === true];
    } else if (req.method === 'POST' && gemini) {
      [protocol, model, stream] = [
        'gemini',
        decodeURIComponent(gemini[1]!),
        gemini[2] !== 'generateContent',
      ];
    } else {
      return void res.writeHead(404, { ...CORS, 'content-type': 'text/plain' }).end('Not found');
    }

    const attempt = attempts.get(model) ?? 0;
    if (!title) attempts.set(model, attempt + 1);
    const scenario = SCENARIOS[model.split('@')[0]!];
    const reply: Reply = title
      ? (TITLES[model.split('@')[0]!] ?? NO_TITLE)
      : scenario
        ? scenario({ protocol, stream, attempt, body })
        : { status: 404, fixture: 'error-404' };
    // {{attempt}} in a fixture: a call id of its own for each answer (as real providers give).
    const vars = {
      model,
      key: headers['x-goog-api-key'] ?? '',
      attempt: String(attempt),
      promptTokens: String(Math.ceil(JSON.stringify(body.messages ?? body.contents).length / 4)),
    };

    if ('hang' in reply) return; // never answers: the client's idle timeout must end it
    if ('status' in reply) {
      const extra: Record<string, string> = {
        ...(reply.retryAfter !== undefined ? { 'retry-after': reply.retryAfter } : {}),
        ...(reply.exposed ? { 'access-control-expose-headers': 'retry-after' } : {}),
      };
      return sendJson(res, `${protocol}/${reply.fixture}`, reply.status, vars, extra);
    }
    const filled = { ...vars, ...reply.vars };
    if (!stream || reply.whole) return sendJson(res, `${protocol}/${reply.fixture}`, 200, filled);
    await sendStream(res, `${protocol}/${reply.fixture}`, reply.end ?? 'close', filled);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // A broken fixture or test: say so in the response, which the test will show.
      if (!res.headersSent) res.writeHead(500, CORS);
      res.end(`model-server: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    titleRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // stalled and hanging streams included
        server.close(() => resolve());
      }),
  };
}

/** A request's body, as text (the test servers' own, on node:http). */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

function fixture(name: string, vars: Record<string, string> = {}): string {
  const text = readFileSync(join(FIXTURES, name), 'utf8');
  return text.replace(/\{\{(\w+)\}\}/g, (_, key: string) => vars[key] ?? '');
}

function sendJson(
  res: ServerResponse,
  name: string,
  status = 200,
  vars: Record<string, string> = {},
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...CORS, 'content-type': 'application/json; charset=UTF-8', ...headers });
  res.end(fixture(`${name}.json`, vars));
}

/**
 * Writes a transcript one event at a time (each in its own write, a tick apart, so the client
 * sees a real stream), then ends it: normally, by stalling with the connection open, or by
 * dropping the connection.
 */
async function sendStream(
  res: ServerResponse,
  name: string,
  end: 'close' | 'stall' | 'disconnect',
  vars: Record<string, string> = {},
): Promise<void> {
  res.writeHead(200, {
    ...CORS,
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
  });
  const events = fixture(`${name}.sse`, vars).match(/[\s\S]*?(?:\r\n\r\n|\n\n)/g) ?? [];
  for (const event of events) {
    res.write(event);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  if (end === 'close') res.end();
  else if (end === 'disconnect') {
    // A moment first, so that the client has read what was sent: a reset can drop what it has
    // not, and the test would then see no text before the cut.
    await new Promise((resolve) => setTimeout(resolve, 50));
    res.socket?.destroy();
  }
  // 'stall': nothing more; close() drops the connection
}
