// Settings corrupted in IndexedDB (issue 28: a backup restored before settings were checked left
// `adkServers: "not-a-list"`, and the app was unusable for good): the app opens on the defaults,
// says which settings it could not read, works, and a change replaces the bad value. The hostile
// backups themselves are refused or restored checked: test/unit/workers/hostile-backups.test.ts.

import { expect, it } from 'vitest';
import { messages, openApp, region, say, waitReady } from '../e2e/app-page.ts';
import { freshBrowserPerTest } from '../e2e/browser.ts';

const browser = freshBrowserPerTest();

const CORRUPT: Record<string, unknown> = {
  adkServers: 'not-a-list',
  settings: { theme: 5, autoResume: 'yes' },
  toolServers: [{ id: 'x', headers: 'Authorization: Bearer planted' }],
  toolPolicies: ['always'],
};

it('opens with every stored setting corrupted, says which, and works on', async () => {
  const { page } = browser;
  await openApp(page);
  await page.evaluate(
    (settings) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('trellis');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('settings', 'readwrite');
          for (const [name, value] of Object.entries(settings))
            tx.objectStore('settings').put({ name, value });
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
        };
      }),
    CORRUPT,
  );
  await page.reload();
  await waitReady(page);
  const said = page.getByRole('alert').filter({ hasText: /could not be read/ });
  await said.waitFor();
  for (const name of ['ADK servers', 'preferences', 'tool servers', 'tool approval policies'])
    expect(await said.innerText()).toContain(name);

  await say(page, 'set color to red');
  expect(await messages(page)).toContain('color is now red.');
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'ADK servers', exact: true }).click();
  await region(page, 'ADK servers')
    .getByText(/No servers yet|Add server/)
    .first()
    .waitFor();
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Tool servers', exact: true }).click();
  await region(page, 'Tool servers').waitFor();

  // A change replaces the bad value: the next load names the others only.
  await page.getByText('Settings', { exact: true }).click();
  await page.getByLabel('Theme').selectOption('dark');
  await openApp(page);
  await said.waitFor();
  expect(await said.innerText()).not.toContain('preferences');
  expect(browser.errors).toEqual([]);
});
