// Keys at rest in Chromium (issue 28): Settings → Security seals the stored API key with a
// passphrase (nothing plain left in IndexedDB); after the browser restarts, the page asks for it
// once; a wrong one is refused; a second tab gets the key from the first; Lock locks both; an
// agent on the provider answers once unlocked. Against the fixture model server over HTTP.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { appUrl, messages, openApp, region, waitReady } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { freshBrowserPerTest } from './browser.ts';
import { addAgent, addProvider } from './model-setup.ts';

const browser = freshBrowserPerTest();
let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-e2e-keys-at-rest-0000-LAST';
const PASSPHRASE = 'a long walk to the harbour';

/** Every record of the app's database as one text: what a copy of the profile would show. */
const rawDatabase = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<string>((resolve, reject) => {
        const open = indexedDB.open('trellis');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction([...db.objectStoreNames]);
          const all: unknown[] = [];
          for (const name of db.objectStoreNames) {
            const request = tx.objectStore(name).getAll();
            request.onsuccess = () => all.push(request.result);
          }
          tx.oncomplete = () => {
            db.close();
            resolve(JSON.stringify(all));
          };
        };
      }),
  );

const openSecurity = async (page: Page) => {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Security', exact: true }).click();
  return region(page, 'Security');
};

it('seals the key with a passphrase, asks for it after a restart, and the agent answers once unlocked', async () => {
  const { page, context } = browser;
  await openApp(page);
  await addProvider(page, server.url, KEY);
  await addAgent(page, 'calc', 'fixture-text', []);
  expect(await rawDatabase(page)).toContain(KEY);

  const security = await openSecurity(page);
  await security.getByLabel('New passphrase').fill(PASSPHRASE);
  await security.getByLabel('The same again').fill(PASSPHRASE);
  await security.getByRole('button', { name: 'Protect keys' }).click();
  await security
    .getByRole('status', { name: 'Key protection' })
    .filter({ hasText: /sealed with your passphrase, and unlocked/ })
    .waitFor();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page)).toEqual([]);
  }
  const raw = await rawDatabase(page);
  expect(raw).not.toContain(KEY);
  expect(raw).not.toContain(PASSPHRASE);

  // A second tab opened meanwhile gets the key from this one: it does not ask.
  const other = await context.newPage();
  await other.goto(appUrl());
  await waitReady(other);
  expect(await other.getByRole('region', { name: 'Locked keys' }).count()).toBe(0);

  // Lock now locks every tab: both ask.
  await security.getByRole('button', { name: 'Lock now' }).click();
  await other.getByRole('region', { name: 'Locked keys' }).waitFor();
  await other.close();

  // The browser restarts (a new page load with no tab holding the key): asked once.
  await page.goto(appUrl());
  await waitReady(page);
  const banner = page.getByRole('region', { name: 'Locked keys' });
  await banner.waitFor();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    expect(await seriousViolations(page)).toEqual([]);
  }
  await banner.getByLabel('Passphrase').fill('not it at all');
  await banner.getByRole('button', { name: 'Unlock' }).click();
  await banner.getByRole('alert').filter({ hasText: 'That is not the passphrase' }).waitFor();
  await banner.getByLabel('Passphrase').fill(PASSPHRASE);
  await banner.getByRole('button', { name: 'Unlock' }).click();
  await banner.waitFor({ state: 'detached' });

  const from = server.requests.length;
  await page.getByLabel('Message').fill('hello');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect.poll(() => messages(page)).toContain('hello');
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  const sent = server.requests.slice(from).map((request) => request.headers['authorization']);
  expect(sent).toContain(`Bearer ${KEY}`);
  expect(browser.errors).toEqual([]);
});

it('a run on a locked key is refused before anything is sent, and the message stays in the box', async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url, KEY);
  await addAgent(page, 'calc', 'fixture-text', []);
  const security = await openSecurity(page);
  await security.getByLabel('New passphrase').fill(PASSPHRASE);
  await security.getByLabel('The same again').fill(PASSPHRASE);
  await security.getByRole('button', { name: 'Protect keys' }).click();
  await security.getByRole('button', { name: 'Lock now' }).click();
  await security.getByRole('button', { name: 'Back to the chat' }).click();
  // "Not now": the demos still work; the banner stays away for this browser session.
  await page
    .getByRole('region', { name: 'Locked keys' })
    .getByRole('button', { name: 'Not now' })
    .click();

  const from = server.requests.length;
  await page.getByLabel('Message').fill('hello');
  await page.getByRole('button', { name: 'Send' }).click();
  await page
    .getByRole('alert')
    .filter({ hasText: /keys are locked.*not sent: it is back in the box/ })
    .waitFor();
  expect(await page.getByLabel('Message').inputValue()).toBe('hello');
  expect(server.requests.length).toBe(from);
  expect(await messages(page)).not.toContain('hello');
  expect(browser.errors).toEqual([]);
});
