// Share and export in real Chromium: a chat with the offline state keeper, rewound and sent again
// so that it has a branch, with an image and a hostile message, exported from the session bar's
// Share as a page; the page opens from its file with the network off, makes no request, runs no
// script, and shows the conversation as it was (Markdown rendered, the image, the rewound branch
// collapsed where it branched). Markdown and a range of turns download too.

import { copyFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { openApp, region } from './app-page.ts';
import { freshBrowserPerTest, screenshotsOf } from './browser.ts';

const browser = freshBrowserPerTest();
const IMAGE = join(import.meta.dirname, '../../public/icon-192.png');
const files = mkdtempSync(join(tmpdir(), 'trellis-export-'));

/** Sends a message and waits for the run to end (the box by its role: other regions say "Message"). */
async function say(page: Page, text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message', exact: true }).fill(text);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page
    .getByRole('button', { name: 'Send', exact: true })
    .and(page.locator(':enabled'))
    .waitFor();
}

/** A conversation of four turns on its active branch, "set color to blue" rewound. */
async function conversation(page: Page): Promise<void> {
  await openApp(page);
  await say(page, 'set color to red');
  await say(page, 'set color to blue');
  const history = region(page, 'History');
  await history.getByRole('button', { name: 'set color to blue' }).click();
  await history.getByRole('button', { name: /^Rewind/ }).click();
  await expect.poll(() => page.locator('.chat .message-row').count()).toBe(2);
  await page.locator('.composer input[type=file]').setInputFiles([IMAGE]);
  await page.getByRole('list', { name: 'Attachments' }).getByRole('listitem').waitFor();
  await say(page, 'set color to green');
  await say(page, 'set note to **bold** and `code`');
  await say(page, 'set x to <img src=x onerror="window.__ran=1"> [y](javascript:window.__ran=2)');
}

async function share(page: Page, item: string): Promise<Download> {
  await page.getByRole('button', { name: 'Share ▾' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('group', { name: 'Share as' }).getByRole('button', { name: item }).click(),
  ]);
  return download;
}

async function saved(download: Download, name: string): Promise<string> {
  const path = join(files, name);
  copyFileSync((await download.path())!, path);
  return path;
}

it('exports a page that opens offline, makes no request, runs no script and shows the conversation as it was', async () => {
  const { page, context } = browser;
  await conversation(page);
  const download = await share(page, 'Page (HTML)');
  // The title (the first message, or the user's) and the day.
  const slug = (await page.locator('.session-heading').innerText())
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
  expect(download.suggestedFilename()).toMatch(new RegExp(`^${slug}-\\d{4}-\\d\\d-\\d\\d\\.html$`));
  const path = await saved(download, 'exported.html');

  await context.setOffline(true);
  // Every request the exported page makes (its own document aside), whatever its scheme.
  const file = await context.newPage();
  const requests: string[] = [];
  file.on('request', (request) => requests.push(request.url()));
  const fileUrl = `file://${path}`;
  await file.route('**/*', (route) => {
    if (route.request().url() === fileUrl) return route.continue();
    requests.push(`routed ${route.request().url()}`);
    return route.abort();
  });
  await file.goto(fileUrl);
  expect(requests.filter((url) => url !== fileUrl)).toEqual([]);

  // No script, and the policy that would stop one.
  expect(await file.locator('script').count()).toBe(0);
  expect(
    await file.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'),
  ).toMatch(/default-src 'none'/);
  expect(await file.evaluate(() => (window as { __ran?: number }).__ran)).toBeUndefined();

  // The conversation as it is now, in order, with Markdown rendered and the image shown.
  const turns = file.locator('main > section.turn');
  expect(await turns.first().locator(':scope > .from-user .plain').innerText()).toBe(
    'set color to red',
  );
  expect(await turns.count()).toBe(4);
  // Usage and times, per turn and in all.
  await file.getByText(/^Usage: \d+ model calls/).waitFor();
  expect(await turns.first().locator('.turn-head time').getAttribute('datetime')).toMatch(
    /^\d{4}-\d\d-\d\dT/,
  );
  expect(await turns.first().locator('.turn-usage').innerText()).toMatch(/2 model calls/);
  expect(await turns.nth(1).locator(':scope > .from-user .plain').innerText()).toBe(
    'set color to green',
  );
  expect(await file.locator('.markdown strong').first().innerText()).toBe('bold');
  const image = turns.nth(1).locator(':scope > .from-user img');
  expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(
    192,
  );
  // The hostile message is text.
  await file.getByText('<img src=x onerror="window.__ran=1">', { exact: false }).first().waitFor();

  // The rewound turn is collapsed where it branched, and opens on a click.
  const branch = turns.nth(1).locator('details.branches');
  expect(await branch.getAttribute('open')).toBeNull();
  expect(await file.getByText('set color to blue').isVisible()).toBe(false);
  await branch.locator(':scope > summary').click();
  await file.getByText('set color to blue').waitFor();
  await file.getByRole('link').count(); // links, if any, are http(s) only (checked in unit tests)
  expect(requests.filter((url) => url !== fileUrl)).toEqual([]);
  expect(await file.evaluate(() => (window as { __ran?: number }).__ran)).toBeUndefined();
  await context.setOffline(false);
  expect(browser.errors.filter((error) => !/Content Security Policy/.test(error))).toEqual([]);
});

it('downloads Markdown, and a range of turns as Markdown and as a session file that imports', async () => {
  const { page } = browser;
  await conversation(page);
  const markdown = readFileSync(await saved(await share(page, 'Markdown'), 'exported.md'), 'utf8');
  expect(markdown.match(/^## Turn \d+/gm)).toEqual([
    '## Turn 1',
    '## Turn 2',
    '## Turn 3',
    '## Turn 4',
  ]);
  expect(markdown).toMatch(/> set color to blue/);
  expect(markdown).toContain('note is now **bold** and `code`');

  // Some turns…: 2 to 3, as Markdown.
  const range = async (format: string): Promise<Download> => {
    await page.getByRole('button', { name: 'Share ▾' }).click();
    await page.getByRole('button', { name: 'Some turns…' }).click();
    const form = page.getByRole('form', { name: 'Turns to share' });
    await form.getByLabel('From turn').selectOption({ index: 1 });
    await form.getByLabel('To turn').selectOption({ label: '3. set note to **bold** and `code`' });
    await form.getByLabel('As', { exact: true }).selectOption({ label: format });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      form.getByRole('button', { name: 'Download' }).click(),
    ]);
    return download;
  };
  const partMd = await range('Markdown');
  expect(partMd.suggestedFilename()).toMatch(/-turns-2-3-\d{4}-\d\d-\d\d\.md$/);
  const part = readFileSync(await saved(partMd, 'part.md'), 'utf8');
  expect(part.match(/^## Turn \d+/gm)).toEqual(['## Turn 2', '## Turn 3']);
  expect(part).not.toContain('**You:**\n\nset color to red');

  const partJson = await range('Session file (JSON)');
  expect(partJson.suggestedFilename()).toMatch(/-turns-2-3-\d{4}-\d\d-\d\d\.trellis\.json$/);
  const jsonPath = await saved(partJson, 'part.trellis.json');
  await page.getByLabel('Import session…').setInputFiles(jsonPath);
  await page.locator('.session-heading', { hasText: '(turns 2–3)' }).waitFor();
  await page.getByText('note is now bold and code.').waitFor();
  expect(browser.errors).toEqual([]);
});

it.runIf(process.env.TRELLIS_SHOTS)(
  'takes the screenshots: desktop and phone, light and dark',
  async () => {
    const { page } = browser;
    await conversation(page);
    const path = await saved(await share(page, 'Page (HTML)'), 'shot.html');
    await screenshotsOf('export', async (shot) => {
      await shot.goto(`file://${path}`);
      await shot.locator('details.branches > summary').first().click();
    });
    await screenshotsOf('export-menu', async (shot, viewport) => {
      await shot.setViewportSize({ width: 1280, height: 800 });
      await conversation(shot);
      await shot.setViewportSize(viewport);
      await shot.getByRole('button', { name: 'Share ▾' }).click();
      await shot.getByRole('button', { name: 'Some turns…' }).click();
      await shot.getByRole('form', { name: 'Turns to share' }).waitFor();
    });
  },
  300_000,
);
