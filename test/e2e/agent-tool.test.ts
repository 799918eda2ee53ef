// "Another of your agents as a tool" in the app, in real Chromium, as a user would build it: agent
// A (Helper) is saved, agent B (Boss) is built with A ticked under "Agents it can call as tools",
// and B answers through A on the fixture model server (`fixture-agent-caller` calls the first tool
// it is offered with the user's message, then reports its result; `fixture-agent-helper` answers
// "Helper done: <request>"). A's own run is kept on its branch of the session: the chat shows B's
// conversation, the event log A's words too.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { messages, openApp, region, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { addProvider } from './model-setup.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

/** Agents → a new agent on `model`, calling the agents named in `calls` as tools; saved. */
async function buildAgent(page: Page, name: string, model: string, calls: string[] = []) {
  const agents = region(page, 'Agents');
  await agents.getByRole('button', { name: 'New agent' }).click();
  await agents.getByLabel('Name').fill(name);
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByLabel('Model').fill(model);
  await agents.getByLabel('Description').fill(`${name} of the test`);
  const asTools = agents.getByRole('group', { name: 'Agents it can call as tools' });
  for (const called of calls) await asTools.getByLabel(called, { exact: true }).check();
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents
    .getByRole('status')
    .filter({ hasText: `Saved “${name}”` })
    .waitFor();
}

it('builds an agent that calls another saved agent as a tool, and answers through it', async () => {
  const { page } = browser;
  await openApp(page);
  await addProvider(page, server.url, 'sk-e2e-agent-tool-000111222');
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  await buildAgent(page, 'Helper', 'fixture-agent-helper');
  await buildAgent(page, 'Boss', 'fixture-agent-caller', ['Helper']);
  // An agent is never offered as its own tool.
  const asTools = region(page, 'Agents').getByRole('group', {
    name: 'Agents it can call as tools',
  });
  expect(await asTools.getByRole('checkbox').count()).toBe(1);
  await region(page, 'Agents').getByRole('button', { name: 'Use in this session' }).click();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).inputValue())
    .toMatch(/^agent:/);

  await say(page, 'plan a trip');
  const answer = /^Through helper: \{"result":"Helper done: plan a trip"\}$/i;
  await expect.poll(() => messages(page)).toEqual(['plan a trip', expect.stringMatching(answer)]);
  // The helper's model got the request alone; the caller's model never saw the helper's branch.
  const helperCall = server.requests.find((r) => r.body?.model === 'fixture-agent-helper')!;
  expect(helperCall.body.messages.filter((m: { role: string }) => m.role !== 'system')).toEqual([
    { role: 'user', content: 'plan a trip' },
  ]);
  const callerCalls = server.requests.filter((r) => r.body?.model === 'fixture-agent-caller');
  const seen = JSON.stringify(callerCalls.at(-1)!.body.messages);
  expect(seen.split('Helper done').length - 1).toBe(1); // the tool's result, nothing else
  // The event log shows the helper's own words (its branch) among the session's events.
  const log = region(page, 'Event log');
  if ((await log.locator('li').count()) === 0) await log.locator('summary').first().click();
  await log.locator('li summary', { hasText: 'Helper done: plan a trip' }).first().waitFor();
});
