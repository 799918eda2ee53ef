// The request behind a flow's HTTP node, against real HTTP servers on 127.0.0.1: what the server
// receives for each method and body type, how its answers come back, and every way it can fail
// (never with a secret in the message).

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isTrellisError, type HttpNodeError } from '../../../src/core/errors.ts';
import type { HttpBodyType, HttpMethod } from '../../../src/flows/flow.ts';
import {
  MAX_HTTP_RESPONSE_BYTES,
  sendHttpRequest,
  type HttpRequestSpec,
} from '../../../src/flows/http-request.ts';
import { deferred, rejectionOf } from '../../support/helpers.ts';

interface Seen {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A server on 127.0.0.1 that records each request (its body read whole) and then calls `handle`. */
async function serve(handle: Handler = (_req, res) => res.end('ok')) {
  const seen: Seen[] = [];
  const arrived = deferred<Seen>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const { pathname: path, searchParams: query } = new URL(req.url!, 'http://127.0.0.1');
      const body = Buffer.concat(chunks).toString('utf8');
      const request: Seen = { method: req.method!, path, query, headers: req.headers, body };
      seen.push(request);
      arrived.resolve(request);
      handle(req, res, request);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, seen, arrived: arrived.promise };
}

/** A port nothing listens on: one the system just gave out and took back. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const failureOf = async (promise: Promise<unknown>) =>
  (await rejectionOf(promise)) as HttpNodeError;

/** Answers with `body` under `contentType`. */
const answer =
  (contentType: string | undefined, body: string | Buffer, status = 200): Handler =>
  (_req, res) => {
    res.writeHead(status, contentType ? { 'content-type': contentType } : {});
    res.end(body);
  };

describe('what the server receives', () => {
  const [FORM, PLAIN] = ['application/x-www-form-urlencoded', 'text/plain; charset=utf-8'];
  const JSON_BODY = '{"a": 1, "b": [true, null]}';
  const LINES = 'name = Ada Lovelace\r\n\nlang=en&fr=\n';
  const OBJECT = '{"a":"1","tags":["x","y"],"n":2,"z":null}';
  // method, body type, body; then the body and content type the server receives.
  const cases: [HttpMethod, HttpBodyType | undefined, string, string, string | undefined][] = [
    ['GET', 'json', '{"a":1}', '', undefined], // a GET never has a body
    ['POST', 'json', JSON_BODY, JSON_BODY, 'application/json'],
    ['PUT', 'form', LINES, 'name=Ada+Lovelace&lang=en%26fr%3D', FORM],
    ['PATCH', 'form', OBJECT, 'a=1&tags=x&tags=y&n=2&z=', FORM], // arrays as repeated keys
    ['DELETE', 'text', 'two\nlines', 'two\nlines', PLAIN],
    ['POST', 'none', 'dropped', '', undefined],
    ['POST', undefined, 'dropped', '', undefined], // no body type: dropped, as in Flowise
  ];

  it.each(cases)('%s with a %s body', async (method, bodyType, body, received, contentType) => {
    const server = await serve();
    const url = `${server.base}/items`;
    await expect(sendHttpRequest({ method, url, bodyType, body })).resolves.toBe('ok');
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]).toMatchObject({ method, path: '/items', body: received });
    expect(server.seen[0]!.headers['content-type']).toBe(contentType);
  });

  it('sends a content type the user gives instead of its own', async () => {
    const server = await serve();
    const headers = { 'Content-Type': 'application/xml' };
    await sendHttpRequest({
      method: 'PUT',
      url: server.base,
      headers,
      bodyType: 'text',
      body: '<a/>',
    });
    expect(server.seen[0]!.headers['content-type']).toBe('application/xml');
  });

  it('appends the query to the one in the URL, and sends the headers', async () => {
    const server = await serve();
    await sendHttpRequest({
      method: 'GET',
      url: `${server.base}/search?page=2#top`,
      query: { q: 'a b&c=d', page: '3', '': 'empty row' },
      headers: { 'X-Trace': 'abc', Accept: 'text/csv', 'X-Trimmed': ' tok\n', '': 'empty row' },
    });
    const [seen] = server.seen;
    expect(seen!.path).toBe('/search');
    expect([...seen!.query]).toEqual([
      ['page', '2'],
      ['q', 'a b&c=d'],
      ['page', '3'],
    ]);
    expect(seen!.headers).toMatchObject({
      'x-trace': 'abc',
      accept: 'text/csv',
      'x-trimmed': 'tok',
    });
  });

  it('asks for JSON or text by default', async () => {
    const server = await serve();
    await sendHttpRequest({ method: 'GET', url: server.base });
    expect(server.seen[0]!.headers.accept).toBe('application/json, text/plain, */*');
  });

  it('sends credentials in the URL as Basic auth, since fetch refuses them there', async () => {
    const server = await serve();
    await sendHttpRequest({ method: 'GET', url: server.base.replace('//', '//ada:p%C3%A4ss@') });
    const expected = Buffer.from('ada:päss', 'utf8').toString('base64');
    expect(server.seen[0]!.headers.authorization).toBe(`Basic ${expected}`);
  });
});

describe('what the node outputs', () => {
  const cases: [string, string | undefined, string | Buffer, unknown][] = [
    ['JSON, parsed', 'application/json', '{"a":[1,2]}', { a: [1, 2] }],
    ['a +json type, parsed', 'application/vnd.api+json; charset=utf-8', '[true]', [true]],
    ['text, as text', 'text/plain', 'hello', 'hello'],
    ['JSON-looking HTML, as text', 'text/html', '{"a":1}', '{"a":1}'],
    ['no content type, as text', undefined, '{"a":1}', '{"a":1}'],
    ['invalid JSON, as text', 'application/json', '{oops', '{oops'],
    ['an empty JSON answer, as empty text', 'application/json', '', ''],
    ['text in its charset', 'text/plain; charset=latin1', Buffer.from('café', 'latin1'), 'café'],
  ];

  it.each(cases)('%s', async (_name, contentType, body, output) => {
    const server = await serve(answer(contentType, body));
    await expect(sendHttpRequest({ method: 'GET', url: server.base })).resolves.toEqual(output);
  });
});

describe('failures', () => {
  it('reports a 404 with the start of its body', async () => {
    const server = await serve(answer('text/plain', 'No such\n  item', 404));
    const error = await failureOf(sendHttpRequest({ method: 'GET', url: `${server.base}/x?id=7` }));
    expect(isTrellisError(error, 'HttpNodeError')).toBe(true);
    expect(error).toMatchObject({ reason: 'status', status: 404 });
    expect(error.message).toBe(`${server.base}/x answered 404 Not Found: No such item`);
  });

  it('reports a 500 with its first 300 characters, and one with no body by its status alone', async () => {
    const long = await serve(
      answer('application/json', JSON.stringify({ error: 'x'.repeat(1000) }), 500),
    );
    const error = await failureOf(sendHttpRequest({ method: 'POST', url: long.base }));
    expect(error.status).toBe(500);
    const snippet = `{"error":"${'x'.repeat(290)}…`;
    expect(error.message).toBe(`${long.base}/ answered 500 Internal Server Error: ${snippet}`);

    const empty = await serve(answer(undefined, '', 503));
    const bare = await failureOf(sendHttpRequest({ method: 'GET', url: empty.base }));
    expect(bare.message).toBe(`${empty.base}/ answered 503 Service Unavailable`);
  });

  it('reports a server that closes the connection mid-body', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '1000' });
      res.write('x'.repeat(100), () => res.socket?.destroy());
    });
    const error = await failureOf(sendHttpRequest({ method: 'GET', url: `${server.base}/cut` }));
    expect(error).toMatchObject({ name: 'HttpNodeError', reason: 'cut-off' });
    expect(error.message).toBe(
      `${server.base}/cut closed the connection before its answer was complete`,
    );
  });

  it('reports a port nothing listens on as unreachable (or CORS, which a page cannot tell)', async () => {
    const url = `http://127.0.0.1:${await freePort()}/api`;
    const error = await failureOf(sendHttpRequest({ method: 'GET', url }));
    expect(error).toMatchObject({ name: 'HttpNodeError', reason: 'unreachable' });
    expect(error.message).toBe(
      `could not reach ${url}: the network failed, or the server does not allow requests from this page (CORS)`,
    );
  });

  it('times out a server that does not answer, and one that stops mid-answer', async () => {
    const silent = await serve(() => {});
    const error = await failureOf(
      sendHttpRequest({ method: 'GET', url: `${silent.base}/slow`, timeoutMs: 150 }),
    );
    expect(error).toMatchObject({ reason: 'timeout' });
    expect(error.message).toBe(`${silent.base}/slow: no answer within 150 ms`);

    const stalled = await serve((_req, res) => res.write('part'));
    const midway = await failureOf(
      sendHttpRequest({ method: 'GET', url: stalled.base, timeoutMs: 150 }),
    );
    expect(midway.message).toBe(`${stalled.base}/: the answer did not finish within 150 ms`);
  });

  it('refuses a body past 5 MB, whether declared or streamed, and closes the connection', async () => {
    const exact = await serve(answer('text/plain', Buffer.alloc(MAX_HTTP_RESPONSE_BYTES, 'a')));
    const text = await sendHttpRequest({ method: 'GET', url: exact.base });
    expect((text as string).length).toBe(MAX_HTTP_RESPONSE_BYTES);

    const declared = await serve(answer('text/plain', Buffer.alloc(MAX_HTTP_RESPONSE_BYTES + 1)));
    const error = await failureOf(sendHttpRequest({ method: 'GET', url: `${declared.base}/big` }));
    expect(error).toMatchObject({ reason: 'too-large' });
    expect(error.message).toBe(
      `${declared.base}/big sent more than 5 MB: an HTTP node reads at most 5 MB`,
    );

    // An endless stream: the request must end at the cap, not when the server does (never).
    const closed = deferred();
    const endless = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, ' ');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
      };
      res.on('drain', pump).on('close', () => closed.resolve());
      pump();
    });
    const streamed = await failureOf(sendHttpRequest({ method: 'GET', url: endless.base }));
    expect(streamed).toMatchObject({ reason: 'too-large' });
    await closed.promise;
  });
});

describe('Stop', () => {
  it('stops a request the server holds, as a cancellation, and closes the connection', async () => {
    const closed = deferred();
    const server = await serve((req) => req.socket.on('close', () => closed.resolve()));
    const controller = new AbortController();
    const request = sendHttpRequest({ method: 'POST', url: server.base }, controller.signal);
    await server.arrived;
    controller.abort();
    const error = await rejectionOf(request);
    expect(error.name).toBe('AbortError');
    expect(isTrellisError(error)).toBe(false);
    await closed.promise;
  });

  it('stops mid-body, with the reason the signal was given', async () => {
    const server = await serve((_req, res) => res.write('{"partial":'));
    const controller = new AbortController();
    const reason = new DOMException('Stopped by the user', 'AbortError');
    const request = sendHttpRequest({ method: 'GET', url: server.base }, controller.signal);
    await server.arrived;
    await new Promise((resolve) => setTimeout(resolve, 50)); // the headers and a first chunk come
    controller.abort(reason);
    expect(await rejectionOf(request)).toBe(reason);
  });

  it('sends nothing when already stopped', async () => {
    const server = await serve();
    const error = await rejectionOf(
      sendHttpRequest({ method: 'GET', url: server.base }, AbortSignal.abort()),
    );
    expect(error.name).toBe('AbortError');
    expect(server.seen).toEqual([]);
  });
});

describe('secrets', () => {
  const BASIC = Buffer.from('user-555:pass-666').toString('base64');
  const SECRETS = ['sk-bearer-111', 'apikey-222', 'query-333', 'inurl-444', 'user-555', 'pass-666'];
  const secretSpec = (base: string, bearer: boolean): HttpRequestSpec => ({
    method: 'POST',
    url: `${base.replace('//', '//user-555:pass-666@')}/api?sig=inurl-444`,
    headers: {
      ...(bearer ? { Authorization: 'Bearer sk-bearer-111' } : {}),
      'X-Api-Key': 'apikey-222',
    },
    query: { token: 'query-333' },
    bodyType: 'json',
    body: '{}',
    timeoutMs: 150,
  });
  /** A server that echoes all it was sent (query and headers) in its body, under `status`. */
  const echo =
    (status: number): Handler =>
    (req, res) => {
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(`denied ${req.url}: ${JSON.stringify(req.headers)}`);
    };

  const cutOff: Handler = (_req, res) => {
    res.writeHead(200, { 'content-length': '10' });
    res.write('abc', () => res.socket?.destroy());
  };

  const cases: { name: string; handle?: Handler; bearer?: boolean; reason: string }[] = [
    { name: 'a 401 that echoes them', handle: echo(401), bearer: true, reason: 'status' },
    { name: 'a 403 that echoes Basic auth from the URL', handle: echo(403), reason: 'status' },
    { name: 'a timeout', handle: () => {}, reason: 'timeout' },
    { name: 'a cut-off', handle: cutOff, reason: 'cut-off' },
    { name: 'an unreachable server', reason: 'unreachable' },
  ];

  it.each(cases)('stay out of the message on $name', async ({ handle, bearer, reason }) => {
    const base = handle ? (await serve(handle)).base : `http://127.0.0.1:${await freePort()}`;
    const error = await failureOf(sendHttpRequest(secretSpec(base, bearer ?? false)));
    expect(error.reason).toBe(reason);
    expect(error.message).toContain(`${base}/api`);
    if (reason === 'status') expect(error.message).toContain('"x-api-key":"***"');
    for (const secret of [...SECRETS, BASIC]) {
      expect(error.message).not.toContain(secret);
      expect(error.stack ?? '').not.toContain(secret);
    }
  });

  it('are masked before the quoted body is cut, so no part of one is left at the cut', async () => {
    const server = await serve(answer('text/plain', `${'x'.repeat(295)}apikey-222`, 401));
    const headers = { 'X-Api-Key': 'apikey-222' };
    const error = await failureOf(sendHttpRequest({ method: 'GET', url: server.base, headers }));
    expect(error.message).toMatch(/x{295}\*\*\*$/);
  });
});

describe('hostile and invalid requests are refused before anything is sent', () => {
  const header = (name: string, value: string) => ({ headers: { [name]: value } });
  const post = (bodyType: HttpBodyType, body: string) => ({
    method: 'POST' as const,
    bodyType,
    body,
  });
  const cases: [string, Partial<HttpRequestSpec>, RegExp][] = [
    ['CRLF in a header value', header('X-Key', 'sk-1\r\nX-Injected: 1'), /"X-Key" holds a line/],
    ['a lone LF in a header value', header('X-Note', 'a\nb'), /line break/],
    ['NUL in a header value', header('X-Note', 'a\0b'), /line break/],
    ['a character past Latin-1', header('X-Note', 'ok ✓'), /a character headers cannot carry/],
    ['CRLF in a header name', header('X-A\r\nX-B', '1'), /"X-A\\r\\nX-B" is not a valid header/],
    ['a header fetch sets', header('Content-Length', '99'), /"Content-Length" is set by the/],
    ['a javascript: URL', { url: 'javascript:alert(1)' }, /not javascript:/],
    ['a file: URL', { url: 'file:///etc/passwd' }, /not file:/],
    ['a relative URL', { url: '/api/items' }, /not a valid absolute URL/],
    ['an unknown method', { method: 'TRACE' as 'GET' }, /"TRACE" is not an HTTP method/],
    // The body is not quoted: it may hold a key.
    [
      'a JSON body that does not parse',
      post('json', '{"key": sk-777}'),
      /^[^:]+: The JSON body is not valid JSON( \(at position \d+\))?$/,
    ],
    ['a form line without =', post('form', 'a=1\nsk-888'), /line 2 of the form body is not/],
    ['a form body of broken JSON', post('form', '{"a":1'), /The form body is not valid JSON/],
    ['a zero timeout', { timeoutMs: 0 }, /positive number of milliseconds/],
    ['a NaN timeout', { timeoutMs: Number.NaN }, /positive number of milliseconds/],
  ];

  it.each(cases)('%s', async (_name, spec, message) => {
    const server = await serve();
    const error = await failureOf(sendHttpRequest({ method: 'GET', url: server.base, ...spec }));
    expect(error).toMatchObject({ name: 'HttpNodeError', reason: 'invalid-request' });
    expect(error.message).toMatch(message);
    expect(error.message).not.toMatch(/sk-\d/);
    expect(server.seen).toEqual([]);
  });
});
