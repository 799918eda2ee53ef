// Issue 33's everyday helpers of the chat, in real Chromium: a saved prompt inserted with `/`
// (its variable asked for first), the Prompts view's edit and delete with an Undo; a message
// edited where it stands; `?` and the keyboard shortcuts; Jump to latest while a slow demo reply
// streams; an image opened large; and voice: dictation and Read aloud hidden where the browser
// lacks them, working with fakes of the Web Speech API where it has them.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { messages, openApp, openAppSettled, region, say, waitReady } from './app-page.ts';
import { freshBrowserPerTest, screenshotsOf } from './browser.ts';
import { seriousViolations } from './axe.ts';
import { addAgent, addProvider } from './model-setup.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

const chat = (page: Page) => region(page, 'Conversation');
const userRows = (page: Page) => chat(page).locator('.message-row.row-user');
const box = (page: Page) => page.getByLabel('Message', { exact: true });
const idle = (page: Page) =>
  page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
const focusedName = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return (
      element?.getAttribute('aria-label') ??
      element?.closest('label')?.textContent?.trim() ??
      element?.getAttribute('title') ??
      element?.textContent?.trim()
    );
  });

/** Settings → Prompts → New prompt, saved. */
async function savePrompt(page: Page, name: string, text: string): Promise<void> {
  await page.locator('details.settings summary').click();
  await page.getByRole('button', { name: 'Prompts', exact: true }).click();
  const view = region(page, 'Prompts');
  await view.getByRole('button', { name: 'New prompt' }).click();
  await view.getByLabel('Name').fill(name);
  await view.getByLabel('Text').fill(text);
  await view.getByRole('button', { name: 'Save prompt' }).click();
  await view
    .getByRole('status')
    .filter({ hasText: `Saved “${name}”.` })
    .waitFor();
}

describe('saved prompts', () => {
  it('inserts a saved prompt with /, asking for its variable first, and sends it', async () => {
    const { page } = browser;
    await openApp(page);
    await savePrompt(page, 'Summarize', 'Summarize {{topic}} in three points.');
    await savePrompt(page, 'Greet', 'Hello there!');
    await region(page, 'Prompts').getByRole('button', { name: 'Back to the chat' }).click();
    await waitReady(page);

    // `/` in the middle of a word is text; at the start, it lists the prompts, narrowed as typed.
    await box(page).pressSequentially('and/or');
    expect(await page.getByRole('listbox', { name: 'Saved prompts' }).count()).toBe(0);
    await box(page).fill('');
    await box(page).pressSequentially('/');
    const list = page.getByRole('listbox', { name: 'Saved prompts' });
    await expect.poll(() => list.getByRole('option').allInnerTexts()).toHaveLength(2);
    await box(page).pressSequentially('sum');
    await expect
      .poll(() => list.getByRole('option').allInnerTexts())
      .toEqual([expect.stringMatching(/^\/Summarize/)]);
    // The box drives the list: the option chosen is its active descendant, the focus stays.
    const option = list.getByRole('option', { selected: true });
    expect(await box(page).getAttribute('aria-activedescendant')).toBe(
      await option.getAttribute('id'),
    );
    expect(await focusedName(page)).toBe('Message');
    // Escape closes the list, and the text stays.
    await page.keyboard.press('Escape');
    expect(await list.count()).toBe(0);
    expect(await box(page).inputValue()).toBe('/sum');

    // Typing on opens it again; Enter picks; its variable is asked for, then inserted.
    await box(page).pressSequentially('m');
    await list.waitFor();
    await page.keyboard.press('Enter');
    const form = page.getByRole('group', { name: 'Fill in “Summarize”' });
    await expect.poll(() => focusedName(page)).toBe('topic');
    await form.getByLabel('topic').fill('the tides');
    await page.keyboard.press('Enter');
    await expect.poll(() => box(page).inputValue()).toBe('Summarize the tides in three points.');
    await expect.poll(() => focusedName(page)).toBe('Message');
    await page.keyboard.press('Enter');
    await idle(page);
    await expect
      .poll(async () => (await messages(page))[0])
      .toBe('Summarize the tides in three points.');

    // A prompt without variables goes in at once, where the `/` was, by Tab too.
    await box(page).pressSequentially('Start: /gr');
    await list.waitFor();
    await page.keyboard.press('Tab');
    expect(await box(page).inputValue()).toBe('Start: Hello there!');
    expect(browser.errors).toEqual([]);
  });

  it('edits and deletes a prompt with an Undo; the message box follows', async () => {
    const { page } = browser;
    await openApp(page);
    await savePrompt(page, 'Translate', 'Translate to {{language}}:');
    const view = region(page, 'Prompts');
    await view.getByRole('button', { name: 'Edit Translate' }).click();
    await view.getByLabel('Name').fill('Translate to French');
    await view.getByLabel('Text').fill('Translate to French:');
    await view.getByRole('button', { name: 'Save prompt' }).click();
    await view.getByRole('status').filter({ hasText: 'Saved “Translate to French”.' }).waitFor();
    expect(await view.getByRole('heading', { level: 3 }).allInnerTexts()).toEqual([
      'Translate to French',
    ]);
    // A name taken is refused, said, and nothing changes.
    await view.getByRole('button', { name: 'New prompt' }).click();
    await view.getByLabel('Name').fill('translate to french');
    await view.getByLabel('Text').fill('Other');
    await view.getByRole('button', { name: 'Save prompt' }).click();
    await view.getByRole('alert').filter({ hasText: 'already' }).waitFor();
    await view.getByRole('button', { name: 'Cancel' }).click();

    await view.getByRole('button', { name: 'Delete Translate to French' }).click();
    await page.locator('.undo-bar .undo-item').filter({ hasText: 'Deleted the prompt' }).waitFor();
    await expect.poll(() => view.getByRole('heading', { level: 3 }).count()).toBe(0);
    await page.locator('.undo-bar').getByRole('button', { name: 'Undo' }).click();
    await view.getByRole('heading', { name: 'Translate to French' }).waitFor();

    await view.getByRole('button', { name: 'Back to the chat' }).click();
    await waitReady(page);
    await box(page).pressSequentially('/fr');
    await page.getByRole('option', { name: /Translate to French/ }).waitFor();
    expect(browser.errors).toEqual([]);
  });
});

describe('two tabs', () => {
  it('offers a prompt saved in one tab to `/` in the other, without a reload', async () => {
    const { page, context } = browser;
    await openApp(page);
    const other = await context.newPage();
    await openApp(other);
    await box(other).pressSequentially('/');
    await box(other).press('Backspace');
    await savePrompt(page, 'Weekly report', 'Write this week’s report.');
    await box(other).pressSequentially('/week');
    await other.getByRole('option', { name: /Weekly report/ }).waitFor();
    await other.close();
  });
});

describe('the chat', () => {
  it('edits a message where it stands: Escape cancels, the focus back on Edit; Save & send runs it', async () => {
    const { page } = browser;
    await openApp(page);
    await say(page, 'set color to red');
    await say(page, 'what is color');
    const last = userRows(page).last();
    await last.getByRole('button', { name: 'Edit' }).click();
    const editor = last.getByLabel('Edited message');
    expect(await editor.inputValue()).toBe('what is color');
    await expect.poll(() => focusedName(page)).toBe('Edited message');
    // The message box is not the editor.
    expect(await box(page).inputValue()).toBe('');
    await page.keyboard.press('Escape');
    await expect.poll(() => editor.count()).toBe(0);
    await expect.poll(() => focusedName(page)).toBe('Edit');
    expect(await last.locator('.message').innerText()).toBe('what is color');

    // An empty edit cannot be sent; Save & send runs the edit, the old version kept.
    // (↑ and Ctrl+Enter: chat.test.ts.)
    await last.getByRole('button', { name: 'Edit' }).click();
    await editor.fill('  ');
    const save = last.getByRole('button', { name: 'Save & send' });
    expect(await save.isDisabled()).toBe(true);
    await editor.fill('what is colour');
    await save.click();
    await idle(page);
    await expect.poll(() => last.locator('.versions').innerText()).toMatch(/2 \/ 2/);
    await expect.poll(() => last.locator('.message').innerText()).toBe('what is colour');
    expect(browser.errors).toEqual([]);
  });

  it('lists the keyboard shortcuts on ?, not while typing', async () => {
    const { page } = browser;
    await openApp(page);
    await box(page).pressSequentially('why?');
    expect(await box(page).inputValue()).toBe('why?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(await dialog.count()).toBe(0);
    await page.locator('body').click({ position: { x: 5, y: 400 } });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('?');
    await dialog.waitFor();
    for (const shortcut of ['Send', 'Stop the running reply', 'insert a saved prompt'])
      await dialog.getByText(shortcut, { exact: false }).first().waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
  });

  it('offers Jump to latest while a slow reply streams and the reader scrolled up', async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 560 });
    await openApp(page);
    const agent = page.getByLabel('Agent', { exact: true });
    await agent.selectOption({ label: 'Writing workflow (offline demo)' });
    // A long topic: the drafts repeat it, the chat grows well past its height.
    await box(page).fill(
      Array.from({ length: 30 }, (_, i) => `line ${i + 1} of the topic`).join('\n'),
    );
    await page.keyboard.press('Enter');
    const jump = page.getByRole('button', { name: 'Jump to latest ↓' });
    await page.locator('.chat .message-row.row-agent').first().waitFor();
    expect(await jump.count()).toBe(0);
    await chat(page).hover();
    for (let i = 0; i < 6 && !(await jump.isVisible()); i++) await page.mouse.wheel(0, -600);
    await jump.waitFor();
    await jump.click();
    await expect.poll(() => jump.count()).toBe(0);
    // At the end, and following: the last words in view while the reply goes on.
    const atEnd = () =>
      chat(page).evaluate((node) => node.scrollHeight - node.scrollTop - node.clientHeight < 60);
    await expect.poll(atEnd).toBe(true);
    await idle(page);
    await expect.poll(atEnd).toBe(true);
    expect(browser.errors).toEqual([]);
  }, 120_000);
});

describe('an image in a message', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(() => server.close());

  it('opens large on click; Escape closes it and the focus goes back', async () => {
    const { page } = browser;
    // The first visit's "works offline" notice moves the page under the click when it comes.
    await openAppSettled(page);
    await addProvider(page, server.url, 'sk-prompts-e2e-1234');
    await addAgent(page, 'reader', 'fixture-text');
    await page
      .locator('.composer input[type=file]')
      .setInputFiles(join(import.meta.dirname, '../../public/icon-192.png'));
    await box(page).fill('What is this?');
    await page.keyboard.press('Enter');
    await idle(page);
    const thumbnail = userRows(page).last().getByRole('button', { name: 'icon-192.png' });
    await thumbnail.click();
    const viewer = page.getByRole('dialog', { name: 'icon-192.png' });
    await viewer.getByRole('img', { name: 'icon-192.png' }).waitFor();
    const size = await viewer.getByRole('img').evaluate((img: HTMLImageElement) => img.width);
    expect(size).toBeGreaterThan(150);
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.isVisible()).toBe(false);
    await expect.poll(() => focusedName(page)).toBe('Open icon-192.png large');
    // A click outside the image closes it too.
    await thumbnail.click();
    await viewer.waitFor();
    await page.mouse.click(5, 5);
    await expect.poll(() => viewer.isVisible()).toBe(false);
    expect(browser.errors).toEqual([]);
  }, 60_000);
});

/** Fakes of the Web Speech API, shaped as the browser's, before the page loads. */
function fakeSpeech(page: Page, recognitionError?: string) {
  return page.addInitScript((error) => {
    const spoken: string[] = [];
    (window as unknown as { __spoken: string[] }).__spoken = spoken;
    class FakeRecognition {
      lang = '';
      continuous = false;
      interimResults = false;
      onresult: ((event: unknown) => void) | null = null;
      onerror: ((event: { error: string }) => void) | null = null;
      onend: (() => void) | null = null;
      start() {
        const result = (transcript: string, isFinal: boolean) => ({ isFinal, 0: { transcript } });
        setTimeout(() => {
          if (error) {
            this.onerror?.({ error });
            this.onend?.();
            return;
          }
          this.onresult?.({ results: [result('hello', false)] });
          setTimeout(() => this.onresult?.({ results: [result('hello world', true)] }), 50);
        }, 50);
      }
      stop() {
        setTimeout(() => this.onend?.(), 10);
      }
      abort() {
        this.stop();
      }
    }
    class FakeUtterance {
      lang = '';
      onend: (() => void) | null = null;
      onerror: (() => void) | null = null;
      constructor(public text: string) {}
    }
    let speaking: FakeUtterance | undefined;
    Object.defineProperty(window, 'SpeechRecognition', { value: FakeRecognition });
    Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: FakeUtterance });
    Object.defineProperty(window, 'speechSynthesis', {
      value: {
        speak(utterance: FakeUtterance) {
          spoken.push(utterance.text);
          speaking = utterance;
        },
        cancel() {
          const was = speaking;
          speaking = undefined;
          was?.onend?.();
        },
      },
    });
  }, recognitionError);
}

describe('voice', () => {
  it('hides the microphone and Read aloud where the browser has no speech APIs', async () => {
    const { page } = browser;
    await page.addInitScript(() => {
      for (const name of ['SpeechRecognition', 'webkitSpeechRecognition', 'speechSynthesis'])
        Object.defineProperty(window, name, { value: undefined });
    });
    await openApp(page);
    await say(page, 'set color to red');
    expect(await page.getByRole('button', { name: 'Dictate' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Read aloud' }).count()).toBe(0);
  });

  it('dictates into the message box and reads an answer aloud, with the APIs there', async () => {
    const { page } = browser;
    await fakeSpeech(page);
    await openApp(page);
    await box(page).fill('Note:');
    const mic = page.getByRole('button', { name: 'Dictate' });
    await mic.click();
    await page.getByRole('status').filter({ hasText: 'Listening' }).waitFor();
    expect(await mic.getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => box(page).inputValue()).toBe('Note: hello world');
    await mic.click();
    await page.getByRole('status').filter({ hasText: 'Dictation stopped.' }).waitFor();
    expect(await mic.getAttribute('aria-pressed')).toBe('false');

    await box(page).fill('set color to red');
    await page.keyboard.press('Enter');
    await idle(page);
    const read = chat(page).getByRole('button', { name: 'Read aloud' });
    await read.click();
    expect(
      await page.evaluate(() => (window as unknown as { __spoken: string[] }).__spoken),
    ).toEqual(['color is now red.']);
    const stop = chat(page).getByRole('button', { name: 'Stop reading' });
    await stop.click();
    await read.waitFor();
    expect(browser.errors).toEqual([]);
  });

  it('says a denied microphone in words', async () => {
    const { page } = browser;
    await fakeSpeech(page, 'not-allowed');
    await openApp(page);
    await page.getByRole('button', { name: 'Dictate' }).click();
    await page.getByRole('status').filter({ hasText: 'Microphone permission denied' }).waitFor();
    expect(await page.getByRole('button', { name: 'Dictate' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });
});

describe('accessibility', () => {
  it.each([
    { name: 'desktop, light', viewport: { width: 1280, height: 800 }, dark: false },
    { name: 'phone, dark', viewport: { width: 390, height: 844 }, dark: true },
  ])(
    'finds nothing serious in the prompts, the editor and the dialogs ($name)',
    async (shot) => {
      const { page } = browser;
      await page.setViewportSize(shot.viewport);
      if (shot.dark) await page.emulateMedia({ colorScheme: 'dark' });
      const clean = async (where: string) =>
        expect(await seriousViolations(page), where).toEqual([]);
      await openApp(page);
      await say(page, 'set color to red');
      await savePrompt(page, 'Summarize', 'Summarize {{topic}} in three points.');
      await clean('Prompts view');
      await region(page, 'Prompts').getByRole('button', { name: 'Edit Summarize' }).click();
      await clean('Prompts view, a prompt edited');
      await region(page, 'Prompts').getByRole('button', { name: 'Back to the chat' }).click();
      await waitReady(page);
      await box(page).pressSequentially('/su');
      await page.getByRole('listbox', { name: 'Saved prompts' }).waitFor();
      await clean('the prompt list');
      await page.keyboard.press('Enter');
      await page.getByRole('group', { name: 'Fill in “Summarize”' }).waitFor();
      await clean('the variables form');
      await page.keyboard.press('Escape');
      await userRows(page).last().getByRole('button', { name: 'Edit' }).click();
      await clean('a message edited in place');
      await page.keyboard.press('Escape');
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await clean('the shortcuts dialog');
    },
    90_000,
  );
});

/** The screenshots (docs/screenshots/<name>[-phone][-dark].png), each brought about as a user would. */
const SHOTS: Record<string, (page: Page) => Promise<void>> = {
  prompts: async (page) => {
    await openApp(page);
    await savePrompt(page, 'Summarize', 'Summarize {{topic}} in three points.');
    await savePrompt(page, 'Code review', 'Review this code for bugs and naming:\n\n');
    await savePrompt(page, 'Translate', 'Translate to {{language}}:');
  },
  'prompts-picker': async (page) => {
    await openApp(page);
    await savePrompt(page, 'Summarize', 'Summarize {{topic}} in three points.');
    await savePrompt(page, 'Support reply', 'Write a kind reply to this customer:');
    await region(page, 'Prompts').getByRole('button', { name: 'Back to the chat' }).click();
    await say(page, 'set color to red');
    await box(page).pressSequentially('/s');
    await page.getByRole('listbox', { name: 'Saved prompts' }).waitFor();
  },
  'prompts-edit-in-place': async (page) => {
    await openApp(page);
    await say(page, 'set color to red');
    await say(page, 'what is color');
    await userRows(page).last().getByRole('button', { name: 'Edit' }).click();
  },
  'prompts-shortcuts': async (page) => {
    await openApp(page);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('?');
    await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  },
};

it.runIf(process.env.TRELLIS_SHOTS).each(Object.keys(SHOTS))(
  'takes the screenshots of %s: desktop and phone, light and dark',
  (name) => screenshotsOf(name, SHOTS[name]!),
  240_000,
);
