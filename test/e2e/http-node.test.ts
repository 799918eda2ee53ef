// A flow's HTTP node in the app (Flowise V2's): the runtime worker sends the request to a real
// server on 127.0.0.1; a server that allows the page's origin answers and the answer is the node's
// output; one that does not (no CORS headers) is refused by the browser, and the run says so.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, it } from 'vitest';
import { expect } from 'vitest';
import { openApp, say, useFlowJson } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();
let server: Server;
let base = '';

beforeAll(async () => {
  server = createServer((request, response) => {
    const open = request.url!.startsWith('/open');
    const cors = open ? { 'access-control-allow-origin': '*' } : {};
    response
      .writeHead(200, { 'content-type': 'application/json', ...cors })
      .end(
        JSON.stringify({
          city: new URL(request.url!, 'http://x').searchParams.get('city'),
          temperature: 21,
        }),
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const flow = (name: string, path: string) => ({
  name,
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'ask',
      type: 'http',
      label: 'Weather',
      method: 'GET',
      url: `${base}${path}`,
      query: { city: '{{question}}' },
    },
    { id: 'say', type: 'reply', message: '{{output.city}}: {{output.temperature}}°' },
  ],
  edges: [
    { from: 'start', to: 'ask' },
    { from: 'ask', to: 'say' },
  ],
});

it('sends an HTTP node’s request from the app; a server that refuses the page’s origin is said to', async () => {
  const { page } = browser;
  await openApp(page);
  await useFlowJson(page, flow('Weather', '/open/weather'));
  await say(page, 'Paris');
  await page.locator('.chat .message').filter({ hasText: 'Paris: 21°' }).waitFor();

  await useFlowJson(page, flow('Closed weather', '/closed/weather'));
  await say(page, 'Oslo');
  await page
    .getByText(/could not reach http:\/\/127\.0\.0\.1:\d+\/closed\/weather: .*\(CORS\)/)
    .first()
    .waitFor();
  expect(browser.errors.filter((error) => !/CORS|ERR_FAILED|Failed to fetch/i.test(error))).toEqual(
    [],
  );
}, 120_000);
