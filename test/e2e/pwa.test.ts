// An installable app that opens offline from the first visit on, and says so without moving the
// page under the user's pointer.

import { expect, it } from 'vitest';
import { messages, openApp, reachesServer, say, stateText, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('is installable: Chromium reports no installability errors', async () => {
  const { page, context } = browser;
  await openApp(page);
  await page.evaluate(() => navigator.serviceWorker.ready);
  const cdp = await context.newCDPSession(page);
  const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
    installabilityErrors: { errorId: string }[];
  };
  expect(installabilityErrors).toEqual([]);
  const manifest = await page.evaluate(async () => {
    const href = document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.href;
    return (await fetch(href)).json();
  });
  expect(manifest).toMatchObject({
    name: expect.stringContaining('Trellis'),
    short_name: 'Trellis',
    display: 'standalone',
    start_url: '/',
  });
  expect(
    manifest.icons.map(
      (icon: { sizes: string; purpose?: string }) =>
        `${icon.sizes}${icon.purpose ? ` ${icon.purpose}` : ''}`,
    ),
  ).toEqual(['192x192', '512x512', '512x512 maskable']);
});

it('opens offline after the first visit, and keeps working', async () => {
  const { page, context } = browser;
  await openApp(page);
  await say(page, 'set color to red');
  await page.evaluate(() => navigator.serviceWorker.ready);

  await context.setOffline(true);
  // navigator.onLine lies after an offline reload: check that the network really is gone.
  await page.reload();
  await waitReady(page);
  expect(await reachesServer(page)).toBe(false);
  expect(await messages(page)).toEqual(['set color to red', 'color is now red.']);
  await say(page, 'set color to teal');
  expect(await stateText(page)).toMatch(/color\s+teal/);
  await context.setOffline(false);
});

it('says once that it works offline, over a corner, without moving the page', async () => {
  const { page } = browser;
  await openApp(page);
  const conversation = page.getByRole('region', { name: 'Conversation' });
  const before = await conversation.boundingBox();
  const notice = page.getByRole('status').filter({ hasText: 'Trellis now works offline.' });
  await notice.waitFor();
  expect(await conversation.boundingBox()).toEqual(before);
  const box = (await notice.boundingBox())!;
  const viewport = page.viewportSize()!;
  expect(box.x).toBeLessThan(viewport.width / 2);
  expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
  await notice.getByRole('button', { name: 'OK' }).click();
  await notice.waitFor({ state: 'detached' });
  expect(await conversation.boundingBox()).toEqual(before);
});
