// The app's security headers, as `vite preview` sends them and as the service worker adds them on
// a host that sends none (src/security-headers.ts): the policy (no data: connections), Trusted
// Types on pages only, Permissions-Policy, Cross-Origin-Resource-Policy, and a 404 for a file the
// app does not have, where the app's page used to answer.

import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appUrl, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { serveStatic, type StaticServer } from '../support/static-server.ts';

const browser = freshBrowserPerTest();
let host: StaticServer;

beforeAll(async () => {
  host = await serveStatic(join(import.meta.dirname, '../../dist'));
});
afterAll(() => host.close());

/** The directives of a Content-Security-Policy, by name. */
function directives(policy: string | null | undefined): Map<string, string[]> {
  return new Map(
    (policy ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values]),
  );
}

/** What every response of the app must carry, page or file. */
function expectSecured(headers: Headers) {
  const policy = directives(headers.get('content-security-policy'));
  expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('connect-src')).not.toContain('data:');
  const permissions = headers.get('permissions-policy') ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation'])
    expect(permissions).toMatch(new RegExp(`(^|, )${feature}=\\(\\)`));
  expect(headers.get('cross-origin-resource-policy')).toBe('same-origin');
  expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  return policy;
}

it('vite preview sends the policy with every response, Trusted Types with pages, and 404 for a missing file', async () => {
  const page = await fetch(appUrl());
  expect(page.status).toBe(200);
  const pagePolicy = expectSecured(page.headers);
  expect(pagePolicy.get('require-trusted-types-for')).toEqual(["'script'"]);
  expect(pagePolicy.get('trusted-types')).toEqual(['default', 'trellis-markdown']);
  // The page connects to nothing but the app: every request to a server is the worker's.
  expect(pagePolicy.get('connect-src')).toEqual(["'self'", 'blob:']);

  // A route of the app is the app.
  const route = await fetch(new URL('s/some-session?view=history', appUrl()));
  expect(route.status).toBe(200);
  expect(await route.text()).toContain('<div id="app">');
  expect(directives(route.headers.get('content-security-policy')).has('trusted-types')).toBe(true);

  // A script of the app (the runtime worker's among them): the policy, any server to connect
  // to, no Trusted Types (a worker would need a policy of its own).
  const html = await page.text();
  const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)![1]!;
  const file = await fetch(new URL(script, appUrl()));
  expect(file.status).toBe(200);
  const filePolicy = expectSecured(file.headers);
  expect(filePolicy.has('require-trusted-types-for')).toBe(false);
  expect(filePolicy.get('connect-src')).toEqual(
    expect.arrayContaining(["'self'", 'https:', 'http:']),
  );

  const robots = await fetch(new URL('robots.txt', appUrl()));
  expect(robots.status).toBe(200);
  expect(await robots.text()).toMatch(/^User-agent: \*/m);
  for (const missing of ['nope.txt', 'assets/old-chunk.js', 'favicon.ico?v=2']) {
    const response = await fetch(new URL(missing, appUrl()));
    expect(response.status, missing).toBe(404);
    expect(await response.text(), missing).not.toContain('<div id="app">');
  }
});

it('a script in the page can send nothing out (the runtime worker reaches servers: models.test.ts)', async () => {
  const { page } = browser;
  await page.goto(appUrl());
  await waitReady(page);
  const other = new URL(appUrl());
  other.hostname = 'localhost'; // another origin, the same server
  const outcome = await page.evaluate(async (target) => {
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(event.violatedDirective),
    );
    const sent = await fetch(target).then(
      () => 'sent',
      () => 'refused',
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { sent, violations };
  }, other.href);
  expect(outcome.sent).toBe('refused');
  expect(outcome.violations).toContain('connect-src');
  expect(
    browser.errors.filter((error) => !/Content Security Policy|Failed to fetch/.test(error)),
  ).toEqual([]);
});

it('the service worker adds the same headers on a host that sends none, and leaves a missing file to the host', async () => {
  const { page } = browser;
  const first = await page.goto(host.url);
  expect(first?.headers()['content-security-policy']).toBeUndefined();
  // The worker takes over (the page reloads itself once to be isolated).
  await page.waitForFunction(() => crossOriginIsolated, null, { timeout: 30_000 });
  await waitReady(page);
  const served = await page.reload();
  await waitReady(page);
  expect(served?.fromServiceWorker()).toBe(true);
  const headers = new Headers(served!.headers());
  const policy = expectSecured(headers);
  expect(policy.get('require-trusted-types-for')).toEqual(["'script'"]);

  // A file fetched by the page comes from the worker's cache with the headers, without Trusted Types.
  const file = await page.evaluate(async () => {
    const script = document.querySelector<HTMLScriptElement>('script[src]')!.src;
    const response = await fetch(script);
    return Object.fromEntries(response.headers);
  });
  expect(expectSecured(new Headers(file)).has('require-trusted-types-for')).toBe(false);

  // A navigation to a file the app does not have is not answered with the app by the worker.
  const missing = await page.goto(new URL('nope.txt', host.url).href);
  expect(missing?.status()).toBe(404);
  expect(browser.errors.filter((error) => !/404/.test(error))).toEqual([]);
}, 120_000);
