// A flow's Custom Function in the app (Flowise V2's): its JavaScript runs in the WebAssembly
// sandbox, in a worker of its own, loaded on the first run: an answer computed by the code, then
// code that loops forever, stopped at its time limit with a message that says so, while the app
// stays usable.

import { expect, it } from 'vitest';
import { openApp, say, useFlowJson } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const flow = (name: string, code: string) => ({
  name,
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'calc', type: 'code', label: 'Count', code, timeoutMs: 1000 },
    { id: 'say', type: 'reply', message: 'The code says: {{output}}' },
  ],
  edges: [
    { from: 'start', to: 'calc' },
    { from: 'calc', to: 'say' },
  ],
});

it('runs a Custom Function in the sandbox, and stops one that loops forever at its limit', async () => {
  const { page } = browser;
  await openApp(page);
  await useFlowJson(
    page,
    flow('Counter', 'const words = $input.split(" ").length; return `${words} words`;'),
  );
  await say(page, 'three little words');
  await page.locator('.chat .message').filter({ hasText: 'The code says: 3 words' }).waitFor();

  await page.getByRole('button', { name: 'New session' }).first().click();
  await useFlowJson(page, flow('Forever', 'while (true) {}'));
  await say(page, 'go');
  await page
    .getByText(/The code ran past its time limit of 1000 ms and was stopped/)
    .first()
    .waitFor({ timeout: 30_000 });
  // The app is still there for the next message.
  await expect.poll(() => page.getByRole('textbox', { name: /Message/ }).isEnabled()).toBe(true);
  expect(browser.errors).toEqual([]);
}, 120_000);
