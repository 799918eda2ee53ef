// The chat as a user of ChatGPT or Open WebUI expects it (issue 13), in real Chromium: files
// attached to a message reach a real model server in its own wire format and are kept as
// artifacts; usage and timing under each answer; ‹ 2 / 3 › between the versions of an edited
// message; Regenerate; a rewind said with its undo; a tool call's result on click; a message's
// link to its event; the keyboard; an approval waiting while the user sends; a stopped answer kept
// (saved, marked stopped); and the workbench at 390 × 844 in dark mode.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseAgent, openApp, region, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const files = mkdtempSync(join(tmpdir(), 'trellis-chat-'));
const IMAGE = join(import.meta.dirname, '../../public/icon-192.png');
const NOTES = join(files, 'notes.txt');
writeFileSync(NOTES, 'Buy milk.\nCall Ada.\n');
const PAPER = join(files, 'paper.pdf');
// A file name is data from the user's disk: it must never become markup.
const HOSTILE = join(files, '<img src=x onerror=__xss()><svg onload=__xss()>.txt');
writeFileSync(HOSTILE, 'harmless text\n');
writeFileSync(PAPER, '%PDF-1.4\n% a tiny file that only looks like a PDF\n');

const chat = (page: Page) => region(page, 'Conversation');
const userRows = (page: Page) => chat(page).locator('.message-row.row-user');
const idle = (page: Page) =>
  page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();

/** Settings → Providers → a provider on the fixture server; an agent on it, used here. */
async function useProvider(page: Page, preset: 'Gemini' | 'Other server', baseUrl: string) {
  await page.locator('details.settings summary').click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: `Add ${preset}` }).click();
  await providers.getByLabel('Name').fill(`Fixture ${preset}`);
  await providers.getByLabel('Base URL').fill(baseUrl);
  await providers.getByLabel('API key').fill('key-chat-e2e');
  await providers.getByLabel('Default model').fill('fixture-text');
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents
    .getByRole('button', { name: 'New agent' })
    .click()
    .catch(() => undefined);
  const name = preset === 'Gemini' ? 'gemini_reader' : 'openai_reader';
  await agents.getByLabel('Name').fill(name);
  await agents.getByLabel('Provider').selectOption({ label: `Fixture ${preset}` });
  await agents.getByLabel('Model').fill('fixture-text');
  await agents.getByLabel('Instruction').fill('Read what you are given.');
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents
    .getByRole('status')
    .filter({ hasText: `Saved “${name}”` })
    .waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).inputValue())
    .toMatch(/^agent:/);
}

describe('attachments, usage and the model servers', () => {
  const browser = freshBrowserPerTest();
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(() => server.close());

  it.each([
    { preset: 'Other server' as const, path: '/v1' },
    { preset: 'Gemini' as const, path: '/v1beta' },
  ])(
    'sends an image and a text file to $preset in its wire format, keeps them as artifacts and shows the usage',
    async ({ preset, path }) => {
      const { page } = browser;
      await openApp(page);
      await useProvider(page, preset, `${server.url}${path}`);

      const picker = page.locator('.composer input[type=file]');
      await picker.setInputFiles([IMAGE, NOTES]);
      const chips = page.getByRole('list', { name: 'Attachments' });
      await expect.poll(() => chips.getByRole('listitem').count()).toBe(2);
      await page.getByLabel('Message').fill('What do these say?');
      const before = server.requests.length;
      await page.keyboard.press('Enter');
      // The files are read before the message goes: wait for it, then for the run's end.
      await expect.poll(() => userRows(page).count()).toBe(1);
      await idle(page);
      await chat(page).locator('.message-row.row-agent').waitFor();

      const request = server.requests.slice(before).find((r) => r.method === 'POST')!;
      const image = Buffer.from(await import('node:fs').then((fs) => fs.readFileSync(IMAGE)));
      if (preset === 'Gemini') {
        const parts = request.body.contents[0].parts;
        expect(parts[0]).toEqual({ text: 'What do these say?' });
        expect(parts[1].inlineData).toEqual({
          mimeType: 'image/png',
          data: image.toString('base64'),
        });
        expect(parts[2].inlineData.mimeType).toBe('text/plain');
        expect(Buffer.from(parts[2].inlineData.data, 'base64').toString()).toBe(
          'Buy milk.\nCall Ada.\n',
        );
      } else {
        const content = request.body.messages.at(-1).content;
        expect(content[0]).toEqual({ type: 'text', text: 'What do these say?' });
        expect(content[1]).toEqual({
          type: 'image_url',
          image_url: { url: `data:image/png;base64,${image.toString('base64')}` },
        });
        expect(content[2]).toEqual({
          type: 'text',
          text: 'File notes.txt:\nBuy milk.\nCall Ada.\n',
        });
      }

      // The message shows its image as a thumbnail and the text file by name.
      const sent = userRows(page).last();
      await sent.getByRole('img', { name: 'icon-192.png' }).waitFor();
      await sent.getByText('notes.txt').waitFor();
      // Both are artifacts of the session.
      const artifacts = region(page, 'Artifacts');
      await artifacts.getByText('icon-192.png', { exact: true }).waitFor();
      await artifacts.getByText('notes.txt', { exact: true }).waitFor();
      // The answer says which model wrote it, its tokens and its time; the session its totals.
      const usage = chat(page).locator('.message-row.row-agent .message-usage').last();
      await expect
        .poll(() => usage.innerText())
        .toMatch(
          preset === 'Gemini'
            ? /^gemini-2\.5-flash · 9 in · 13 out · first token \d+ ms · \d+ ms$/
            : /^gpt-4o-mini-2024-07-18 · 21 in · 12 out · first token \d+ ms · \d+ ms$/,
        );
      await expect
        .poll(() => page.locator('.session-usage').innerText())
        .toMatch(/^1 model call · \d+ tokens in · \d+ out · \d+ ms$/);
    },
  );

  it('refuses a file the model cannot take as soon as it is attached, and sends nothing', async () => {
    const { page } = browser;
    await openApp(page);
    await useProvider(page, 'Other server', `${server.url}/v1`);
    await page.locator('.composer input[type=file]').setInputFiles([PAPER]);
    // Refused as soon as it is attached, not at Send: said, and the file marked.
    await page
      .getByRole('alert')
      .filter({ hasText: "paper.pdf can't go to this OpenAI-compatible server" })
      .waitFor();
    expect(
      await page.getByRole('list', { name: 'Attachments' }).locator('li.unsupported').innerText(),
    ).toContain('paper.pdf');
    await page.getByLabel('Message').fill('Summarise the paper');
    const before = server.requests.length;
    await page.getByRole('button', { name: 'Send' }).click();
    expect(server.requests.length).toBe(before);
    expect(await userRows(page).count()).toBe(0);
    expect(await page.getByLabel('Message').inputValue()).toBe('Summarise the paper');
    // Removing the file lets the message go.
    await page.getByRole('button', { name: 'Remove paper.pdf' }).click();
    await page.getByRole('button', { name: 'Send' }).click();
    await idle(page);
    expect(await userRows(page).count()).toBe(1);
  });
});

describe('hostile file names', () => {
  const browser = freshBrowserPerTest();

  it('shows a file named like markup as text, in the composer, the chat and Artifacts, and runs nothing', async () => {
    const { page } = browser;
    await page.addInitScript(() => {
      (window as unknown as { __xss: () => void }).__xss = () =>
        document.documentElement.setAttribute('data-xss', 'ran');
    });
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));
    await openApp(page);
    await page.locator('.composer input[type=file]').setInputFiles([HOSTILE]);
    const name = '<img src=x onerror=__xss()><svg onload=__xss()>.txt';
    await page.getByRole('list', { name: 'Attachments' }).getByText(name).waitFor();
    await page.getByLabel('Message').fill('save this');
    await page.keyboard.press('Enter');
    await expect.poll(() => userRows(page).count()).toBe(1);
    await idle(page);
    await userRows(page).getByText(name).waitFor();
    await region(page, 'Artifacts').getByText(name, { exact: true }).waitFor();
    await region(page, 'Artifacts')
      .getByRole('button', { name: `View ${name}` })
      .click();
    await region(page, 'Artifacts').getByText('harmless text').waitFor();
    expect(await page.locator('main img[src="x"], aside img[src="x"], svg[onload]').count()).toBe(
      0,
    );
    expect(await page.evaluate(() => document.documentElement.getAttribute('data-xss'))).toBeNull();
    expect(dialogs).toEqual([]);
  });
});

describe('branches, rewinds and the keyboard in the chat', () => {
  const browser = freshBrowserPerTest();

  it('edits with ↑, switches versions with the arrows, regenerates, rewinds with an undo', async () => {
    const { page } = browser;
    await openApp(page);
    await say(page, 'set color to red');
    await say(page, 'what is color');

    // ↑ in the empty box edits the last message where it stands; Enter breaks the line there,
    // Ctrl+Enter runs it.
    const box = page.getByLabel('Message', { exact: true });
    await box.focus();
    await page.keyboard.press('ArrowUp');
    const editor = userRows(page).last().getByLabel('Edited message');
    await expect.poll(() => editor.inputValue()).toBe('what is color');
    await editor.fill('what is');
    await page.keyboard.press('Enter');
    await page.keyboard.type('color');
    expect(await editor.inputValue()).toBe('what is\ncolor');
    await page.keyboard.press('Control+Enter');
    await idle(page);
    await expect.poll(() => userRows(page).count()).toBe(2);

    const versions = () => userRows(page).last().locator('.versions').innerText();
    await expect.poll(versions).toMatch(/2 \/ 2/);
    await userRows(page).last().getByRole('button', { name: 'Previous version' }).click();
    await expect.poll(versions).toMatch(/1 \/ 2/);
    await expect
      .poll(() => userRows(page).last().locator('.message').innerText())
      .toBe('what is color');
    await userRows(page).last().getByRole('button', { name: 'Next version' }).click();
    await expect.poll(versions).toMatch(/2 \/ 2/);

    // Regenerate asks the same message again: a second version of the answer, not of the message
    // (as ChatGPT counts them), the old answer kept.
    await chat(page).getByRole('button', { name: 'Regenerate' }).click();
    await idle(page);
    const answer = chat(page).locator('.message-row.row-agent').last();
    await expect.poll(() => answer.locator('.versions').innerText()).toMatch(/2 \/ 2/);
    await expect.poll(versions).toMatch(/2 \/ 2/);
    await answer.getByRole('button', { name: 'Previous answer' }).click();
    await expect.poll(() => answer.locator('.versions').innerText()).toMatch(/1 \/ 2/);
    await answer.getByRole('button', { name: 'Next answer' }).click();
    await expect.poll(() => answer.locator('.versions').innerText()).toMatch(/2 \/ 2/);
    // History tells the two answers to the same message apart (by its rows' names).
    const history = region(page, 'History');
    for (const name of ['what is color · answer 1 of 2', 'what is color · answer 2 of 2'])
      await history.getByRole('button', { name, exact: true }).waitFor();
    expect(await history.getByRole('button', { name: 'what is color', exact: true }).count()).toBe(
      1,
    );

    // A tool call shows its result on click.
    const call = chat(page).locator('.tool-call').last();
    await call.locator('summary').click();
    await expect.poll(() => call.locator('.tool-result').innerText()).toContain('red');

    // Rewind (the same name as History's): the chat says what was rewound, takes the focus, and
    // Undo brings it back.
    await userRows(page)
      .first()
      .getByRole('button', { name: 'Rewind to before this turn' })
      .click();
    const note = page
      .getByRole('status')
      .filter({ hasText: 'Rewound to before “set color to red”.' });
    await note.waitFor();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.className))
      .toBe('rewind-note');
    expect(await userRows(page).count()).toBe(0);
    await note.getByRole('button', { name: 'Undo' }).click();
    await expect.poll(() => userRows(page).count()).toBe(2);
    expect(await region(page, 'State').innerText()).toContain('red');

    // A message links to its event in the event log.
    await userRows(page).first().getByRole('button', { name: 'Event log' }).click();
    const focused = region(page, 'Event log').locator('li.focused');
    await focused.waitFor();
    expect(await focused.innerText()).toContain('set color to red');
  });

  it('keeps what a stopped answer said, saved and marked stopped; Escape stops', async () => {
    const { page } = browser;
    await openApp(page);
    await chooseAgent(page, /Writing workflow/);
    await page.getByLabel('Message').fill('tea');
    await page.keyboard.press('Enter');
    const streaming = chat(page).locator('.message.streaming');
    await expect
      .poll(async () => (await streaming.innerText().catch(() => '')).length)
      .toBeGreaterThan(20);
    await page.keyboard.press('Escape');
    await idle(page);
    const stopped = chat(page).locator('.message-row', { has: page.locator('.message-cut') });
    await stopped.waitFor();
    expect(await stopped.innerText()).toMatch(/^drafter\s+Draft: .*\s+Stopped before it finished/s);
    expect(await chat(page).innerText()).not.toContain('not saved');
    await chat(page).getByRole('button', { name: 'Continue' }).waitFor();
  });

  it('says an approval is waiting when the user sends, and rejects it first', async () => {
    const { page } = browser;
    await openApp(page);
    await chooseAgent(page, /support/);
    await say(page, 'Is invoice INV-1042 paid?');
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'An approval is waiting for your answer.' })
      .waitFor();
    await page.getByLabel('Message').fill('My login is broken');
    await page.getByRole('button', { name: 'Reject and send' }).click();
    await idle(page);
    await expect.poll(() => page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await chat(page).locator('.status.declined').count()).toBeGreaterThan(0);
    await expect.poll(() => userRows(page).last().innerText()).toContain('My login is broken');
  });
});

describe('on a phone, in dark mode', () => {
  const browser = freshBrowserPerTest({ viewport: { width: 390, height: 844 } });

  it('is usable at 390 × 844: chat, panels as tabs, nothing wider than the screen', async () => {
    const { page } = browser;
    await openApp(page);
    await page.locator('details.settings summary').click();
    await page.getByLabel('Theme').selectOption('dark');
    await page.locator('details.settings summary').click();
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.theme))
      .toBe('dark');
    await say(page, 'set color to red');
    await say(page, 'save todo.txt as buy milk');
    const fits = () =>
      page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await fits()).toBe(true);
    const panes = page.getByRole('navigation', { name: 'Panels' });
    for (const [pane, region_, text] of [
      ['State', 'State', 'red'],
      ['Artifacts', 'Artifacts', 'todo.txt'],
      ['History', 'History', 'set color to red'],
    ] as const) {
      await panes.getByRole('button', { name: pane }).click();
      await expect.poll(() => region(page, region_).innerText()).toContain(text);
      expect(await region(page, 'Conversation').isVisible()).toBe(false);
      expect(await fits()).toBe(true);
    }
    // A turn rewound from the History pane, then back to the chat.
    await region(page, 'History')
      .getByRole('button', { name: 'save todo.txt as buy milk' })
      .click();
    await page.getByRole('button', { name: 'Rewind to before this turn' }).click();
    await panes.getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('status').filter({ hasText: 'Rewound to before' }).waitFor();
    expect(await userRows(page).count()).toBe(1);
    expect(await fits()).toBe(true);
  });
});
