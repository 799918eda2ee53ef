// Hostile Markdown in real Chromium (the corpus: test/e2e/markdown-corpus.ts). Through the chat's
// Markdown component alone, each case whole and streamed chunk by chunk; then once end to end,
// the corpus as a real model's streamed answer in the app. Nothing may run (a trap any payload
// would call, dialogs watched), nothing may load from the exfiltration host, and nothing but the
// allowed elements and attributes may appear in the message, at any step.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { startMcpServer } from '../support/mcp-server.ts';
import { openApp, region, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { fixtureAnswer, useFixtureAgent } from './markdown-app.ts';
import { ALLOWED_ELEMENTS, EXFIL_HOST, XSS_ANSWER, XSS_CORPUS } from './markdown-corpus.ts';
import { serveHarness, type Harness } from './markdown-harness/serve.ts';

const browser = freshBrowserPerTest();

let harness: Harness;
let harnessUrl: string;
let models: ModelServer;

beforeAll(async () => {
  harness = await serveHarness();
  harnessUrl = harness.url;
  models = await startModelServer();
});

afterAll(async () => {
  await models?.close();
  await harness?.close();
});

/** What the page ran or fetched that it must not have. */
function watchAttacks(page: Page) {
  const dialogs: string[] = [];
  const exfiltrated: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('request', (request) => {
    if (request.url().includes(EXFIL_HOST)) exfiltrated.push(request.url());
  });
  return {
    async seen() {
      // Error handlers and loads fire after the DOM is made: give them time to.
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
      const hits = await page.evaluate(
        () => (window as unknown as { __xssHits?: number }).__xssHits ?? 0,
      );
      return { hits, dialogs, exfiltrated };
    },
    async check() {
      expect(await this.seen()).toEqual({ hits: 0, dialogs: [], exfiltrated: [] });
    },
  };
}

it('catches a payload that does run (the watch itself works)', async () => {
  const { page } = browser;
  const attacks = watchAttacks(page);
  await page.goto(harnessUrl);
  await page.waitForFunction(() => 'markdownHarness' in window);
  await page.evaluate(() =>
    document.body.insertAdjacentHTML(
      'beforeend',
      '<img src=x onerror=__xss()><img src="https://exfil.invalid/p.png"><img src=y onerror=alert(1)>',
    ),
  );
  expect(await attacks.seen()).toEqual({
    hits: 1,
    dialogs: ['1'],
    exfiltrated: ['https://exfil.invalid/p.png'],
  });
});

it('renders no case of the corpus as live HTML and runs none, whole or streamed', async () => {
  const { page } = browser;
  const attacks = watchAttacks(page);
  await page.goto(harnessUrl);
  await page.waitForFunction(() => 'markdownHarness' in window);
  for (const { name, markdown } of XSS_CORPUS) {
    const found = await page.evaluate(
      ([text, allowed]) => window.markdownHarness.check(text, 3, allowed),
      [markdown, ALLOWED_ELEMENTS] as const,
    );
    expect(found, name).toEqual([]);
  }
  // All of it as one answer, in chunks a model would send.
  const found = await page.evaluate(
    ([text, allowed]) => window.markdownHarness.check(text, 17, allowed),
    [XSS_ANSWER, ALLOWED_ELEMENTS] as const,
  );
  expect(found).toEqual([]);
  await attacks.check();
  expect(browser.errors).toEqual([]);
});

it.each([
  ['<script>__xss()</script>', '<script>__xss()</script>'],
  ['[js](javascript:__xss())', '[js](javascript:__xss())'],
  ['![tracking pixel](https://exfil.invalid/p.png)', 'tracking pixel'],
  ['```"><img src=x onerror=__xss()>\ncode\n```', 'code'],
])('shows %j as the text %j', async (markdown, text) => {
  const { page } = browser;
  await page.goto(harnessUrl);
  await page.waitForFunction(() => 'markdownHarness' in window);
  await page.evaluate((m) => window.markdownHarness.show(m), markdown);
  expect(await page.evaluate(() => window.markdownHarness.text())).toContain(text);
});

/**
 * Runs in the app before its scripts: records every element that appears inside a Markdown
 * message and is not allowed, as the DOM changes (so the streaming steps are checked too).
 */
function recordIntruders(allowed: Record<string, string[]>) {
  const intruders: string[] = [];
  (window as unknown as { __intruders: string[] }).__intruders = intruders;
  const check = (element: Element) => {
    if (!element.closest('.markdown')) return;
    const attributes = allowed[element.localName];
    if (!attributes || element.namespaceURI !== 'http://www.w3.org/1999/xhtml') {
      intruders.push(`<${element.localName}>`);
      return;
    }
    for (const name of element.getAttributeNames())
      if (name !== 'class' && !attributes.includes(name))
        intruders.push(`<${element.localName} ${name}>`);
  };
  new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue;
        check(node);
        for (const inner of node.querySelectorAll('*')) check(inner);
      }
  }).observe(document, { subtree: true, childList: true });
}

it('streams the corpus as a real model’s answer in the app, and none of it runs or renders as HTML', async () => {
  const { page } = browser;
  expect(fixtureAnswer(readFileSync(join(FIXTURES, 'openai/markdown-xss.sse'), 'utf8'))).toBe(
    XSS_ANSWER,
  );
  const attacks = watchAttacks(page);
  await page.addInitScript(recordIntruders, ALLOWED_ELEMENTS);
  await page.addInitScript(() => {
    const trap = window as unknown as { __xss(): void; __xssHits: number };
    trap.__xssHits = 0;
    trap.__xss = () => void trap.__xssHits++;
  });
  await openApp(page);
  await useFixtureAgent(page, models.url, 'fixture-markdown-xss');
  await say(page, 'Show me everything you have got.');
  const message = page.locator('.chat .message.from-agent .markdown').last();
  await message.locator('.md-block').first().waitFor();
  expect(await message.innerText()).toContain('[js](javascript:__xss())');
  // The last case, a fence left open, is a code block to the end.
  expect(await message.locator('.code-block').last().innerText()).toContain(
    '<img src=x onerror=__xss()>',
  );
  expect(
    await page.evaluate(() => (window as unknown as { __intruders: string[] }).__intruders),
  ).toEqual([]);
  expect(
    await message.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href'))),
  ).toEqual(expect.arrayContaining(['https://example.com']));
  for (const href of await message
    .locator('a')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href'))))
    expect(href).toMatch(/^(?:https?:\/\/|mailto:)/);
  await attacks.check();
  expect(browser.errors).toEqual([]);
});

it('shows an MCP server’s hostile tool names and descriptions as text, in every place they appear', async () => {
  const { page } = browser;
  // A server whose tools' descriptions are the corpus (and whose name is a payload too).
  const hostile = await startMcpServer({
    extraTools: XSS_CORPUS.map((entry, index) => ({
      name: `hostile_${index}`,
      description: entry.markdown,
    })),
  });
  try {
    const attacks = watchAttacks(page);
    await page.addInitScript(() => {
      const trap = window as unknown as { __xss(): void; __xssHits: number };
      trap.__xssHits = 0;
      trap.__xss = () => void trap.__xssHits++;
    });
    await openApp(page);
    const serverName = '<img src=x onerror=__xss()>';
    await page.getByText('Settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Tool servers', exact: true }).click();
    const servers = region(page, 'Tool servers');
    await servers.getByLabel('Name', { exact: true }).fill(serverName);
    await servers.getByLabel('Server URL').fill(hostile.url);
    await servers.getByRole('button', { name: 'Test connection' }).click();
    await servers
      .getByRole('status')
      .filter({ hasText: /^Connected: \d+ tools\.$/ })
      .waitFor();
    // Each description is there as its own text.
    const listed = await servers.locator('.server-tools .hint').allInnerTexts();
    for (const entry of XSS_CORPUS.slice(0, 20))
      expect(listed).toContain(
        entry.markdown.length > 140 ? `${entry.markdown.slice(0, 139)}…` : entry.markdown,
      );
    await servers.getByRole('button', { name: 'Save' }).click();
    await servers
      .getByRole('status')
      .filter({ hasText: /^Saved “/ })
      .waitFor();
    // The agent builder lists the server and its tools (descriptions as tooltips).
    await page.getByRole('button', { name: 'Agents', exact: true }).click();
    const agents = region(page, 'Agents');
    const group = agents.getByRole('group', { name: 'Tool servers' });
    await group.getByLabel(serverName, { exact: true }).check();
    await group.getByLabel('All its tools').uncheck();
    await group.getByLabel('hostile_0', { exact: true }).waitFor();
    expect(await group.getByText('hostile_2', { exact: true }).getAttribute('title')).toBe(
      XSS_CORPUS[2]!.markdown,
    );
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await attacks.check();
    expect(browser.errors).toEqual([]);
  } finally {
    await hostile.close();
  }
});

const FIXTURES = fileURLToPath(new URL('../fixtures/models', import.meta.url));
