// An agent's answer in Markdown, from a real model (the fixture model server over HTTP), shown as
// formatted text: a heading, lists, a table, a link that opens in a new tab, and a highlighted
// code block whose Copy button copies the code. The renderer loads only once a message needs it,
// an answer still streaming shows its open code block as code, and nothing overflows a phone.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { appUrl, openApp, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { useFixtureAgent } from './markdown-app.ts';

const browser = freshBrowserPerTest();

let models: ModelServer;
beforeAll(async () => {
  models = await startModelServer();
});
afterAll(() => models.close());

const CODE = [
  'import csv',
  '',
  'def read_rows(path):',
  '    # Each row is a dict keyed by the header: {"name": "Ann", "age": "31", "city": "Lisbon"}',
  '    with open(path, newline="") as f:',
  '        return list(csv.DictReader(f))',
].join('\n');

const markdownChunkLoaded = (page: import('playwright-core').Page) =>
  page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .some((entry) => /\/assets\/markdown-renderer-[\w-]+\.js$/.test(entry.name)),
  );

it('shows a model’s Markdown answer formatted, with a highlighted code block to copy', async () => {
  const { page, context } = browser;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: appUrl() });
  await openApp(page);
  await useFixtureAgent(page, models.url, 'fixture-markdown');
  expect(await markdownChunkLoaded(page)).toBe(false); // nothing to render yet: not loaded

  await say(page, 'How do I read a CSV file in Python?');
  const answer = page.locator('.chat .message.from-agent .markdown').last();
  await answer.locator('.code-block').waitFor();
  expect(await markdownChunkLoaded(page)).toBe(true);
  // The question stays plain text.
  expect(await page.locator('.chat .message.from-user .markdown').count()).toBe(0);

  expect(await answer.getByRole('heading', { level: 2 }).innerText()).toBe('Reading a CSV file');
  expect(await answer.locator('strong').innerText()).toBe('read');
  expect(await answer.locator('em').innerText()).toBe('Python');
  expect(await answer.locator('s').innerText()).toBe('Print');
  expect(await answer.locator('ol > li').count()).toBe(3);
  // Numbered and bulleted (the chat's own list has no markers).
  expect(await answer.locator('ol').evaluate((ol) => getComputedStyle(ol).listStyleType)).toBe(
    'decimal',
  );
  expect(
    await answer.locator('ol ul').evaluate((ul) => getComputedStyle(ul).listStyleType),
  ).not.toBe('none');
  expect(await answer.locator('ol > li ul > li').allInnerTexts()).toEqual([
    'skip the header',
    'convert the numbers',
  ]);
  expect(await answer.locator('table th').allInnerTexts()).toEqual([
    'Column',
    'Type',
    'Example',
    'Required',
    'Description of the column',
  ]);
  expect(await answer.locator('table tr').nth(2).locator('td').allInnerTexts()).toEqual([
    'age',
    'number',
    '31',
    'no',
    'Whole years, converted from text by int()',
  ]);
  expect(
    await answer
      .locator('table td')
      .nth(2)
      .evaluate((td) => getComputedStyle(td).textAlign),
  ).toBe('right');
  const link = answer.getByRole('link', { name: 'csv module docs' });
  expect(await link.getAttribute('href')).toBe('https://docs.python.org/3/library/csv.html');
  expect(await link.getAttribute('target')).toBe('_blank');
  expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
  expect(await answer.locator('blockquote code').innerText()).toBe('newline=""');

  const block = answer.locator('.code-block');
  expect(await block.locator('.code-language').innerText()).toBe('Python');
  expect(await block.locator('pre code').innerText()).toBe(`${CODE}\n`);
  expect(await block.locator('.hljs-keyword').allInnerTexts()).toEqual(
    expect.arrayContaining(['import', 'def', 'with', 'as', 'return']),
  );
  expect(await block.locator('.hljs-string').allInnerTexts()).toContain('""');
  // Coloured by the stylesheet that came with the renderer.
  const keywordColour = await block
    .locator('.hljs-keyword')
    .first()
    .evaluate((span) => getComputedStyle(span).color);
  expect(keywordColour).not.toBe(
    await block.locator('pre').evaluate((pre) => getComputedStyle(pre).color),
  );

  // Copy, by mouse, then by keyboard.
  const copy = block.getByRole('button', { name: 'Copy code' });
  await copy.click();
  await expect.poll(() => copy.innerText()).toBe('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
  await page.screenshot({ path: join(tmpdir(), 'trellis-markdown.png') });
  await page.evaluate(() => navigator.clipboard.writeText('something else'));
  await expect.poll(() => copy.innerText(), { timeout: 5_000 }).toBe('Copy');
  await copy.focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(CODE);
  expect(browser.errors).toEqual([]);
});

it('shows an answer still streaming with its open code block as code', async () => {
  const { page } = browser;
  await openApp(page);
  await useFixtureAgent(page, models.url, 'fixture-markdown-stall');
  await page.getByLabel('Message').fill('How do I read a CSV file in Python?');
  await page.getByRole('button', { name: 'Send' }).click();
  const streaming = page.locator('.chat .message.streaming .markdown');
  await streaming.locator('.code-block pre code', { hasText: 'def read_rows(' }).waitFor();
  expect(await streaming.getByRole('heading', { level: 2 }).innerText()).toBe('Reading a CSV file');
  expect(await streaming.locator('table tr').count()).toBe(3);
  expect(await streaming.locator('.code-block code').innerText()).toBe(
    'import csv\n\ndef read_rows(',
  );
  await page.screenshot({ path: join(tmpdir(), 'trellis-markdown-streaming.png') });
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('button', { name: 'Send' }).waitFor();
});

it('keeps a wide table and long code inside the bubble on a 390 px screen', async () => {
  const { page } = browser;
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  await useFixtureAgent(page, models.url, 'fixture-markdown');
  await say(page, 'How do I read a CSV file in Python?');
  await page.locator('.chat .message.from-agent .code-block').waitFor();
  const overflow = await page.evaluate(() => {
    const chat = document.querySelector('.chat')!;
    const bubbles = document.querySelectorAll('.chat .message.from-agent');
    const bubble = bubbles[bubbles.length - 1]!.getBoundingClientRect();
    const outside = (element: Element) => {
      const box = element.getBoundingClientRect();
      return box.left < bubble.left - 0.5 || box.right > bubble.right + 0.5;
    };
    const blocks = bubbles[bubbles.length - 1]!.querySelectorAll(
      '.table-scroll, .code-block, pre, p, h2, ol, blockquote',
    );
    const scrolls = (selector: string) => {
      const box = bubbles[bubbles.length - 1]!.querySelector(selector)!;
      return box.scrollWidth > box.clientWidth;
    };
    return {
      tableScrolls: scrolls('.table-scroll'),
      codeScrolls: scrolls('pre'),
      chat: chat.scrollWidth > chat.clientWidth,
      bubbleInChat: bubble.right <= chat.getBoundingClientRect().right,
      outside: [...blocks].filter(outside).map((element) => element.className || element.localName),
    };
  });
  expect(overflow).toEqual({
    tableScrolls: true,
    codeScrolls: true,
    chat: false,
    bubbleInChat: true,
    outside: [],
  });
  await page.screenshot({ path: join(tmpdir(), 'trellis-markdown-390.png'), fullPage: true });
  expect(browser.errors).toEqual([]);
});
