// A flow's HTTP and Custom Function nodes, run: the request as the server got it (its templates
// filled), the response as the node's output; a failing server or code is a clear error of the
// node, and a Custom Function that loops forever is stopped at its limit and says so.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryRunner, compileFlow, type Event, type Flow } from '../../../src/index.ts';
import { nodeModel, replies } from '../../support/flows.ts';
import { userMessage } from '../../support/helpers.ts';

let server: Server;
let base = '';
const received: { method: string; url: string; body: string; auth?: string }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      received.push({
        method: request.method!,
        url: request.url!,
        body,
        ...(request.headers.authorization ? { auth: request.headers.authorization } : {}),
      });
      if (request.url!.startsWith('/missing')) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('no such thing');
        return;
      }
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ echoed: body ? JSON.parse(body) : null, temperature: 21 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs a flow once; the error it failed with, if any. */
async function run(flow: Flow, text = 'Paris') {
  const runner = new InMemoryRunner({ agent: compileFlow(flow, { model: nodeModel({}) }) });
  const session = await runner.sessionService.createSession({
    appName: runner.appName,
    userId: 'ada',
  });
  const events: Event[] = [];
  try {
    for await (const event of runner.runAsync({
      userId: 'ada',
      sessionId: session.id,
      newMessage: userMessage(text),
    }))
      events.push(event);
    return { events };
  } catch (error) {
    return { events, error: error as Error };
  }
}

const httpFlow = (url: string): Flow => ({
  name: 'weather',
  state: [{ key: 'token', operation: 'replace', default: 'secret-token-123' }],
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'ask',
      type: 'http',
      method: 'POST',
      url,
      headers: { Authorization: 'Bearer {{state.token}}' },
      query: { city: '{{question}}' },
      bodyType: 'json',
      body: '{"city": "{{question}}"}',
    },
    { id: 'say', type: 'reply', message: '{{output.echoed.city}}: {{output.temperature}}°' },
  ],
  edges: [
    { from: 'start', to: 'ask' },
    { from: 'ask', to: 'say' },
  ],
});

describe('an HTTP node', () => {
  it('sends its request with its templates filled; the JSON answer is its output', async () => {
    const { events, error } = await run(httpFlow(`${base}/weather`));
    expect(error).toBeUndefined();
    expect(received.at(-1)).toEqual({
      method: 'POST',
      url: '/weather?city=Paris',
      body: '{"city": "Paris"}',
      auth: 'Bearer secret-token-123',
    });
    expect(replies(events)).toEqual(['say: Paris: 21°']);
  });

  it('fails the run with the server’s answer, and never shows the secret', async () => {
    const { events, error } = await run(httpFlow(`${base}/missing`));
    expect(error?.message).toMatch(/answered 404 Not Found: no such thing/);
    expect(events.at(-1)?.errorMessage).toMatch(/404/);
    // The header's value (a secret from the state) is in no error.
    expect(`${error?.message} ${error?.stack} ${events.at(-1)?.errorMessage}`).not.toContain(
      'secret-token-123',
    );
  });

  it('says so when nothing answers', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { error } = await run(httpFlow(`http://127.0.0.1:${port}/x`));
    expect(error?.message).toMatch(/could not reach http:\/\/127\.0\.0\.1:\d+\/x/);
  });
});

describe('a Custom Function node', () => {
  const codeFlow = (code: string, timeoutMs?: number): Flow => ({
    name: 'compute',
    state: [{ key: 'rate', operation: 'replace', default: 3 }],
    nodes: [
      { id: 'start', type: 'start' },
      {
        id: 'calc',
        type: 'code',
        code,
        variables: { rate: '{{state.rate}}' },
        ...(timeoutMs ? { timeoutMs } : {}),
      },
      { id: 'say', type: 'reply', message: 'Result: {{output.total}} for {{output.who}}' },
    ],
    edges: [
      { from: 'start', to: 'calc' },
      { from: 'calc', to: 'say' },
    ],
  });

  it('runs its code with $input, $flow and its variables; what it returns is its output', async () => {
    const { events, error } = await run(
      codeFlow(
        'const total = await Promise.resolve($rate * $flow.state.rate); return { total, who: $input };',
      ),
    );
    expect(error).toBeUndefined();
    expect(replies(events)).toEqual(['say: Result: 9 for Paris']);
  });

  it('stops code that loops forever at its limit, and says so', async () => {
    const { events, error } = await run(codeFlow('while (true) {}', 300));
    expect(error?.name).toBe('CodeNodeError');
    expect(error?.message).toMatch(/ran past its time limit of 300 ms and was stopped/);
    expect(events.at(-1)?.errorMessage).toMatch(/time limit of 300 ms/);
  });

  it('says what the code threw', async () => {
    const { error } = await run(codeFlow("const db = require('pg');"));
    expect(error?.message).toMatch(/require is not available/);
  });
});
