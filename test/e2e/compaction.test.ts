// Context compaction in the app, in Chromium, against the fixture model server (whose model
// reports a prompt token count for each request): a provider with a small window set by the
// user, an agent of the builder (compaction on by default), a long chat. The header's meter
// counts against the window; once the chat passes 75% of it, the next turn compacts: History
// notes it under that turn (its summary behind a disclosure), the chat shows a divider and still
// every message. A rewind to before that turn takes the compaction away, and with the agent's
// "Compact long chats" switched off, the model's next request holds the whole conversation.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages, openApp, region, say } from './app-page.ts';
import { addAgent, addProvider } from './model-setup.ts';
import { freshBrowserPerTest, screenshotsOf } from './browser.ts';
import { seriousViolations } from './axe.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-e2e-compaction-0a1b2c3d4e5f-7788';
const WINDOW = 512;
/** About 75 tokens each: a handful of turns pass 75% of the window. */
const message = (n: number) => `Message ${n}: ${'why is the sky blue? '.repeat(14)}`.trim();
const ANSWER = 'The sky is blue because air scatters blue light most.';

const meter = (page: Page) => page.getByRole('meter', { name: 'Context' });
const meterValue = async (page: Page) => Number(await meter(page).getAttribute('aria-valuenow'));
const sentText = (request: ModelServer['requests'][number]) =>
  JSON.stringify(request.body.messages);
const chatRequests = () =>
  server.requests.filter(
    (r) => r.method === 'POST' && !sentText(r).includes('Please summarize the conversation'),
  );

/** Settings → Providers → the fixture provider with the window set, and an agent on it. */
async function setUp(page: Page): Promise<void> {
  await openApp(page);
  await addProvider(page, server.url, KEY);
  const providers = region(page, 'Providers');
  await providers.getByLabel('Context window (tokens)').fill(String(WINDOW));
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved “Fixture”.' }).waitFor();
  await addAgent(page, 'Talker', 'fixture-count', []);
}

/** Says one message after another until the chat shows a compaction; the turn that did. */
async function chatUntilCompacted(page: Page): Promise<number> {
  for (let n = 1; n <= 10; n++) {
    await say(page, message(n));
    await expect.poll(() => meter(page).textContent()).toMatch(/ of 512 tokens$/);
    if ((await page.locator('.chat-compaction').count()) > 0) return n;
  }
  throw new Error('No compaction after 10 turns');
}

it('compacts a long chat near a small window, shows it, and a rewind gives the model all of it back', async () => {
  const { page } = browser;
  await setUp(page);
  // The meter shows the window from the start, empty.
  await expect.poll(() => meter(page).textContent()).toBe('0 of 512 tokens');

  const compactedAt = await chatUntilCompacted(page);
  expect(compactedAt).toBeGreaterThan(2);
  // Every message is still in the chat; the divider sits in the turn that compacted.
  const said = Array.from({ length: compactedAt }, (_, i) => [message(i + 1), ANSWER]).flat();
  expect(await messages(page)).toEqual(said);
  const divider = page.locator('.chat-compaction');
  expect(await divider.innerText()).toBe(
    'Earlier messages summarised for the model — rewind to before this turn to bring them back',
  );
  // The model was sent the summary in place of the first messages, and counted fewer tokens.
  const after = chatRequests().at(-1)!;
  expect(sentText(after)).toContain('[Previous Context Summary]');
  expect(sentText(after)).not.toContain('Message 1:');
  expect(await meterValue(page)).toBeLessThan(WINDOW * 0.75);

  // History notes it under that turn; its summary opens.
  const history = region(page, 'History');
  const note = history.locator('.turn-compaction');
  await expect
    .poll(() => note.locator('summary').innerText())
    .toMatch(/^Context compacted: \d+ events summarised$/);
  await note.locator('summary').click();
  await note.getByText(/^Summary: the user asked, turn after turn/).waitFor();
  // The meter, the divider and the note pass axe, light and dark.
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const violations = await seriousViolations(page);
    expect(violations, violations.map((v) => `${v.id}: ${v.nodes.join(' ')}`).join('\n')).toEqual(
      [],
    );
  }

  // Rewind to before the turn that compacted: the divider and the note go, the messages before
  // it stay, and the meter is back over the line (the model would be sent all of it).
  await history.getByRole('button', { name: new RegExp(`^Message ${compactedAt}:`) }).click();
  await history.getByRole('button', { name: /^Rewind/ }).click();
  await expect.poll(() => messages(page)).toEqual(said.slice(0, -2));
  expect(await divider.count()).toBe(0);
  expect(await note.count()).toBe(0);
  await expect.poll(() => meterValue(page)).toBeGreaterThan(WINDOW * 0.75);
  await expect.poll(() => meter(page).getAttribute('class')).toMatch(/\bfull\b/);

  // The agent's switch, on by default, turned off: the next request holds every message.
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents
    .getByRole('navigation', { name: 'Agent list' })
    .getByRole('button', { name: 'Talker', exact: true })
    .click();
  const compact = agents.getByRole('checkbox', { name: /^Compact long chats/ });
  expect(await compact.isChecked()).toBe(true);
  await compact.uncheck();
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('status').filter({ hasText: 'Saved “Talker”' }).waitFor();
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const before = chatRequests().length;
  await say(page, message(compactedAt));
  const sent = chatRequests().slice(before);
  expect(sent).toHaveLength(1);
  for (let n = 1; n <= compactedAt; n++) expect(sentText(sent[0]!)).toContain(`Message ${n}:`);
  expect(sentText(sent[0]!)).not.toContain('[Previous Context Summary]');
  expect(await divider.count()).toBe(0);
  expect(browser.errors).toEqual([]);
});

it('shows the count alone for a model whose window is unknown, and never compacts', async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url, KEY);
  await addAgent(page, 'Plain', 'fixture-count', []);
  for (let n = 1; n <= 6; n++) await say(page, message(n));
  await expect.poll(() => meter(page).textContent()).toMatch(/^\d+(\.\d)?k? tokens$/);
  expect(await meter(page).getAttribute('aria-valuetext')).toMatch(/window is unknown/);
  expect(await page.locator('.chat-compaction').count()).toBe(0);
  expect(browser.errors).toEqual([]);
});

it.runIf(process.env.TRELLIS_SHOTS)(
  'takes the screenshots: desktop and phone, light and dark',
  () =>
    screenshotsOf('compaction', async (page, viewport) => {
      // Set up on a wide page (Settings and the builder), then shown at the size of the shot.
      await page.setViewportSize({ width: 1280, height: 800 });
      await setUp(page);
      await chatUntilCompacted(page);
      await page.setViewportSize(viewport);
      await page.locator('.chat-compaction').scrollIntoViewIfNeeded();
    }),
  240_000,
);
