// What an ADK server serves is data, never markup: a hostile server's answer, model name, tool
// call, state keys and values, and artifacts of type HTML and SVG (test/adk/agents/hostile), shown
// in every surface they reach — the chat, State, Artifacts (each file viewed), the event log, the
// server's trace, History — on the server and once copied to the browser. Nothing may run, no
// element the payloads carry may appear, and the text must still be there to read.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { appUrl, openApp, region, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { startAdkServer, type AdkServer } from '../adk/adk-server.ts';

const browser = freshBrowserPerTest();

const PAYLOAD = '<img src=x onerror=__xss()><svg onload=__xss()></svg>';
const FILE_NAME = '<img src=x onerror=__xss()>.txt';

let server: AdkServer;
beforeAll(async () => {
  server = await startAdkServer({ allowOrigins: [new URL(appUrl()).origin] });
}, 90_000);
afterAll(async () => {
  await server?.stop();
});

/** Elements and attributes only the payloads would make: none may be in the page. */
const LIVE = '[onerror], [onload], [onmouseover], iframe, img[src="x"], body script:not([src])';

async function attacks(page: Page) {
  // Error handlers and loads fire after the DOM is made: give them time to.
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
  return {
    ran: await page.evaluate(() => document.documentElement.getAttribute('data-xss')),
    live: await page.locator(LIVE).count(),
  };
}

async function viewEverything(page: Page): Promise<void> {
  // State: the hostile key and values, as text.
  await region(page, 'State').getByText(PAYLOAD).first().waitFor();
  // Artifacts: each one viewed, HTML and SVG as their source text.
  const artifacts = region(page, 'Artifacts');
  for (const [name, text] of [
    ['page.html', '<script>__xss()</script>'],
    ['image.svg', 'onload="__xss()"'],
    [FILE_NAME, PAYLOAD],
  ] as const) {
    await artifacts.getByRole('button', { name: `View ${name}`, exact: true }).click();
    await artifacts.locator('.artifact-view pre').filter({ hasText: text }).waitFor();
    expect(await attacks(page)).toEqual({ ran: null, live: 0 });
  }
  // The event log, every line opened.
  const log = region(page, 'Event log');
  if ((await log.locator('li').count()) === 0) await log.locator('summary').first().click();
  await log.locator('li details summary').first().waitFor();
  for (const line of await log.locator('li details summary').all()) await line.click();
  await log.getByText(/__xss/).first().waitFor();
}

it('shows a hostile ADK server’s data as text everywhere, on the server and copied to the browser', async () => {
  const { page } = browser;
  await page.addInitScript(() => {
    (window as unknown as { __xss: () => void }).__xss = () =>
      document.documentElement.setAttribute('data-xss', 'ran');
  });
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));
  await openApp(page);
  // The watch itself works: a payload made live is found (the app's Content-Security-Policy
  // keeps its handlers from running even then), and the trap records a call (then both are
  // taken away again).
  // Trusted Types refuse innerHTML in the page, so the probe goes in through the DevTools
  // protocol, which they do not govern.
  await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.id = 'probe';
    document.body.append(probe);
  });
  const cdp = await page.context().newCDPSession(page);
  const { root } = await cdp.send('DOM.getDocument');
  const { nodeId } = await cdp.send('DOM.querySelector', {
    nodeId: root.nodeId,
    selector: '#probe',
  });
  await cdp.send('DOM.setOuterHTML', { nodeId, outerHTML: `<div id="probe">${PAYLOAD}</div>` });
  await cdp.detach();
  expect(await attacks(page)).toEqual({ ran: null, live: 2 });
  await page.evaluate(() => (window as unknown as { __xss: () => void }).__xss());
  expect(await attacks(page)).toEqual({ ran: 'ran', live: 2 });
  await page.evaluate(() => {
    document.getElementById('probe')?.remove();
    document.documentElement.removeAttribute('data-xss');
  });

  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'ADK servers', exact: true }).click();
  const view = region(page, 'ADK servers');
  await view.getByLabel('Server address').fill(server.url);
  await view.getByRole('button', { name: 'Add server' }).click();
  await view
    .locator('.adk-apps > li')
    .filter({ hasText: 'hostile' })
    .getByRole('button', { name: 'New session' })
    .click();
  await page.getByText(`On the ADK server ${server.url} · app hostile`).waitFor();
  await say(page, 'go');

  // The chat: the answer's markup and the tool call's arguments as text.
  const chat = region(page, 'Conversation');
  await chat.getByText(/Saved\. <img src=x onerror=__xss\(\)>/).waitFor();
  await chat.locator('.tool-call').filter({ hasText: 'save_files' }).waitFor();
  await chat.getByText(/<script>__xss\(\)<\/script>/).first();
  expect(await attacks(page)).toEqual({ ran: null, live: 0 });
  await viewEverything(page);
  // The server's trace.
  await page.getByRole('button', { name: 'Trace' }).click();
  await page.getByRole('list', { name: 'Trace' }).getByText('call_llm').first().waitFor();
  expect(await attacks(page)).toEqual({ ran: null, live: 0 });

  // Copied to the browser, the same data in the local session's views.
  await page.getByRole('button', { name: 'Copy to this browser' }).click();
  await page.getByText(/^Copied to this browser as/).waitFor();
  await expect.poll(() => page.locator('.remote-bar').count()).toBe(0);
  await viewEverything(page);
  await region(page, 'History').getByRole('button', { name: 'go' }).waitFor();

  expect(await attacks(page)).toEqual({ ran: null, live: 0 });
  expect(dialogs).toEqual([]);
  // The probe's handlers, refused by the policy, are the only violations.
  expect(browser.errors.filter((error) => !/ERR_|404|Content Security Policy/.test(error))).toEqual(
    [],
  );
});
