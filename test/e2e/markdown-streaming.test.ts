// The Markdown component while an answer streams, in real Chromium (the harness page of
// test/e2e/markdown-harness/): the DOM of finished blocks is made once and kept, chunk after
// chunk and when the stored message replaces the streaming one; before the renderer has loaded
// the text shows as it is.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { freshBrowserPerTest } from './browser.ts';
import { serveHarness, type Harness } from './markdown-harness/serve.ts';

const browser = freshBrowserPerTest();

let harness: Harness;
beforeAll(async () => {
  harness = await serveHarness();
});
afterAll(() => harness?.close());

const ANSWER = [
  '# Plan',
  'Some **bold** intro text that runs on for a while.',
  '1. one\n2. two\n   - nested',
  '| a | b |\n|---|---|\n| 1 | 2 |',
  '```ts\nconst x: number = 1;\nconsole.log(x);\n```',
  '> quoted',
  '---',
  'A closing paragraph with a [link](https://example.com).',
  'And one more, the last.',
].join('\n\n');

it('keeps the DOM of finished blocks while streaming, and moves it into the stored message', async () => {
  const { page } = browser;
  await page.goto(harness.url);
  await page.waitForFunction(() => 'markdownHarness' in window);
  await page.evaluate(() => window.markdownHarness.loaded());
  const stream = (text: string) =>
    page.evaluate((t) => window.markdownHarness.render(t, 'answer-1', true), text);

  const half = ANSWER.indexOf('> quoted');
  for (let end = 5; end < half; end += 5) await stream(ANSWER.slice(0, end));
  // The blocks finished so far: every one but the last.
  const marked = await page.evaluate(() => {
    const done = [...document.querySelectorAll('.md-group .md-block > .md-content')];
    (window as unknown as { marked: Element[] }).marked = done;
    return done.map((element) => element.firstElementChild?.localName);
  });
  expect(marked).toEqual(['h1', 'p', 'ol', 'div']);

  for (let end = half; end <= ANSWER.length; end += 5) await stream(ANSWER.slice(0, end));
  await stream(ANSWER);
  const kept = () =>
    page.evaluate(() =>
      (window as unknown as { marked: Element[] }).marked.map(
        (element) => element.isConnected && element.closest('li')!.className,
      ),
    );
  expect(await kept()).toEqual(Array(4).fill('message from-agent streaming'));

  await page.evaluate((t) => window.markdownHarness.render(t, 'answer-1', false), ANSWER);
  expect(await kept()).toEqual(Array(4).fill('message from-agent'));
  expect(
    await page.evaluate(() =>
      [...document.querySelectorAll('.md-block > .md-content > :first-child')].map(
        (element) => element.localName,
      ),
    ),
  ).toEqual(['h1', 'p', 'ol', 'div', 'div', 'blockquote', 'hr', 'p', 'p']);
  expect(browser.errors).toEqual([]);
});

it('shows the text as it is until the renderer has loaded', async () => {
  const { page } = browser;
  await page.goto(harness.url);
  await page.waitForFunction(() => 'markdownHarness' in window);
  const before = await page.evaluate(() => {
    window.markdownHarness.render('Some **bold**\ntext', 'plain-1', false);
    const shown = document.querySelector('.message .markdown > p')!;
    return { text: shown.textContent, whiteSpace: getComputedStyle(shown).whiteSpace };
  });
  expect(before).toEqual({ text: 'Some **bold**\ntext', whiteSpace: 'pre-wrap' });
  await page.locator('.message .markdown strong', { hasText: 'bold' }).waitFor();
  expect(await page.locator('.message .markdown p').innerHTML()).toBe(
    'Some <strong>bold</strong><br>\ntext',
  );
});
