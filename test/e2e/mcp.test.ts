// MCP tools in the app, in Chromium: a real MCP server (the official SDK's, another origin, with
// CORS) added in Settings → Tool servers with a bearer token, Test connection listing its tools,
// an agent of the builder given the server, its model (the fixture server) calling the server's
// tool, and the token nowhere: not in the page, the session file or the agent file.

import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { duplicateSupport, messages, openApp, region, say, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { MCP_TOKEN, mcpAndModelServers } from '../support/mcp-server.ts';

const browser = freshBrowserPerTest();

const running = mcpAndModelServers();

it('adds an MCP server with a token, gives its tools to an agent, and the model uses one', async () => {
  const { page } = browser;
  await openApp(page);

  // Settings → Tool servers: the server, its token, Test connection, one tool switched off.
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Tool servers', exact: true }).click();
  const servers = region(page, 'Tool servers');
  await servers.getByLabel('Name', { exact: true }).fill('Local MCP');
  await servers.getByLabel('Server URL').fill(running.mcp.url);
  await servers.getByLabel('Header value 1').fill(`Bearer ${MCP_TOKEN}`);
  await servers.getByRole('button', { name: 'Test connection' }).click();
  await servers
    .getByRole('status')
    .filter({ hasText: /^Connected: \d+ tools\.$/ })
    .waitFor();
  await servers.getByLabel('broken', { exact: true }).uncheck();
  await servers.getByRole('button', { name: 'Save' }).click();
  await servers
    .getByRole('status')
    .filter({ hasText: /^Saved “Local MCP”/ })
    .waitFor();
  expect(await servers.getByLabel('Header value 1').inputValue()).toBe('');
  expect(await servers.getByLabel('Header value 1').getAttribute('placeholder')).toBe(
    `••••${MCP_TOKEN.slice(-4)} stored; type to replace it`,
  );

  // A provider (the fixture model server) and an agent with the server's tools.
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: 'Add Other server' }).click();
  await providers.getByLabel('Name').fill('Fixture');
  await providers.getByLabel('Base URL').fill(`${running.models.url}/v1`);
  await providers.getByLabel('Default model').fill('fixture-mcp-echo');
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved “Fixture”.' }).waitFor();
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name', { exact: true }).fill('echoer');
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByRole('group', { name: 'Tool servers' }).getByLabel('Local MCP').check();
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('status').filter({ hasText: 'Saved “echoer”' }).waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();

  // The model calls the MCP server's echo tool: asked first (an MCP tool's default), allowed
  // always, it runs and the model answers with what it said.
  const before = running.mcp.calls.length;
  await page.getByLabel('Message').fill('Say hello through the tool');
  await page.getByRole('button', { name: 'Send' }).click();
  const approvals = region(page, 'Pending approvals');
  await approvals.getByText('wants to call').waitFor();
  expect(running.mcp.calls.length).toBe(before);
  await approvals.getByRole('button', { name: 'Allow always for this tool' }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  await expect
    .poll(() => messages(page))
    .toEqual(['Say hello through the tool', 'The MCP server answered.']);
  const chat = region(page, 'Conversation');
  await chat.locator('.tool-call', { hasText: 'echo(text=hello from the model)' }).waitFor();
  await chat.locator('.tool-call .status.done').waitFor();
  expect(running.mcp.calls.slice(before)).toEqual([
    { name: 'echo', args: { text: 'hello from the model' } },
  ]);
  // Allowed always: the next call runs without asking.
  await say(page, 'Once more');
  expect(await approvals.count()).toBe(0);
  expect(running.mcp.calls.slice(before).map((call) => call.name)).toEqual(['echo', 'echo']);
  // The switched-off tool was not offered to the model.
  const offered = running.models.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .at(-1)!
    .body.tools.map((tool: { function: { name: string } }) => tool.function.name);
  expect(offered).toContain('echo');
  expect(offered).not.toContain('broken');

  // Settings → Tool servers lists the policy, and resets it.
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Tool servers', exact: true }).click();
  const policies = region(page, 'Approval policies');
  const echo = policies.getByLabel('Approval policy for echo');
  expect(await echo.inputValue()).toBe('always');
  await echo.selectOption('');
  await expect.poll(() => echo.inputValue()).toBe('');
  expect(await echo.locator('option:checked').innerText()).toBe('its own rule: ask');

  // The token is nowhere: not in the page, the session file or the agent file.
  expect((await page.content()).includes(MCP_TOKEN)).toBe(false);
  const [sessionFile] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('navigation', { name: 'Sessions' })
      .getByRole('button', { name: 'Export', exact: true })
      .click(),
  ]);
  expect(readFileSync((await sessionFile.path())!, 'utf8')).not.toContain(MCP_TOKEN);
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const [agentFile] = await Promise.all([
    page.waitForEvent('download'),
    region(page, 'Agents').getByRole('button', { name: 'Export echoer' }).click(),
  ]);
  const agentJson = readFileSync((await agentFile.path())!, 'utf8');
  expect(JSON.parse(agentJson).toolServers).toEqual([
    { id: expect.any(String), name: 'Local MCP', url: running.mcp.url },
  ]);
  expect(agentJson).not.toContain(MCP_TOKEN);
  expect(browser.errors).toEqual([]);
});

/** Settings → Tool servers: the test server, saved (no headers), its tools listed if `test`. */
async function addServer(page: Page, { test = false } = {}): Promise<void> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Tool servers', exact: true }).click();
  const servers = region(page, 'Tool servers');
  await servers.getByLabel('Name', { exact: true }).fill('Local MCP');
  await servers.getByLabel('Server URL').fill(running.mcp.url);
  if (test) {
    await servers.getByRole('button', { name: 'Test connection' }).click();
    await servers
      .getByRole('status')
      .filter({ hasText: /^Connected/ })
      .waitFor();
  }
  await servers.getByRole('button', { name: 'Save' }).click();
  await servers
    .getByRole('status')
    .filter({ hasText: /^Saved “Local MCP”/ })
    .waitFor();
}

/** A provider on the fixture model server, its default model `model`. */
async function addProvider(page: Page, model: string): Promise<void> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: 'Add Other server' }).click();
  await providers.getByLabel('Name').fill('Fixture');
  await providers.getByLabel('Base URL').fill(`${running.models.url}/v1`);
  await providers.getByLabel('Default model').fill(model);
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved “Fixture”.' }).waitFor();
}

/**
 * A provider on the fixture model server (unless `provider` is false: there is one), and an
 * agent on `model` with the tool server (all its tools, or `only` these).
 */
async function addAgent(
  page: Page,
  name: string,
  model: string,
  { only, provider = true }: { only?: string[]; provider?: boolean } = {},
): Promise<void> {
  if (provider) await addProvider(page, model);
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name', { exact: true }).fill(name);
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  const servers = agents.getByRole('group', { name: 'Tool servers' });
  await servers.getByLabel('Local MCP').check();
  if (only) {
    await servers.getByLabel('All its tools').uncheck();
    for (const box of await servers
      .getByRole('group', { name: 'Tools of Local MCP' })
      .getByRole('checkbox')
      .all()) {
      const label = (await box.evaluate((input) => input.parentElement?.textContent ?? '')).trim();
      if (!only.includes(label)) await box.uncheck();
    }
  }
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents
    .getByRole('status')
    .filter({ hasText: `Saved “${name}”` })
    .waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
}

it('sets a tool’s approval policy in Settings before its first call: allowed, it runs without asking; never, it is refused', async () => {
  const { page } = browser;
  await openApp(page);
  await addServer(page, { test: true });
  // Before any call, every tool is listed with its own rule: the server's, and the built-in ones.
  const policies = region(page, 'Approval policies');
  const policy = (tool: string) => policies.getByLabel(`Approval policy for ${tool}`);
  expect(await policy('echo').inputValue()).toBe('');
  expect(await policy('echo').locator('option:checked').innerText()).toBe('its own rule: ask');
  expect(await policy('picture').count()).toBe(1);
  expect(await policy('set_state').locator('option:checked').innerText()).toBe(
    'its own rule: allow',
  );
  await policy('echo').selectOption('always');
  await expect.poll(() => policy('echo').inputValue()).toBe('always');

  await addAgent(page, 'echoer', 'fixture-mcp-echo');
  const before = running.mcp.calls.length;
  await say(page, 'Echo, please');
  const approvals = region(page, 'Pending approvals');
  expect(await approvals.count()).toBe(0);
  await expect.poll(() => messages(page)).toEqual(['Echo, please', 'The MCP server answered.']);
  expect(running.mcp.calls.slice(before)).toEqual([
    { name: 'echo', args: { text: 'hello from the model' } },
  ]);

  // Never: the call is refused without reaching the server, and the model is told why.
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Tool servers', exact: true }).click();
  await policy('echo').selectOption('never');
  await expect.poll(() => policy('echo').inputValue()).toBe('never');
  await region(page, 'Tool servers').getByRole('button', { name: 'Back to the chat' }).click();
  await say(page, 'Echo again');
  expect(await approvals.count()).toBe(0);
  expect(running.mcp.calls.slice(before)).toHaveLength(1);
  const call = region(page, 'Conversation').locator('.tool-call').last();
  await call.locator('summary').click();
  expect(await call.locator('.tool-result').innerText()).toMatch(
    /The user does not allow the tool echo/,
  );
  expect(browser.errors).toEqual([]);
});

it('resumes a run cut off by a reload in the middle of a slow MCP tool call, and rewinds it', async () => {
  const { page } = browser;
  await openApp(page);
  await addServer(page);
  await addAgent(page, 'waiter', 'fixture-mcp-slow');
  await page.getByLabel('Message').fill('Take your time');
  await page.getByRole('button', { name: 'Send' }).click();
  await region(page, 'Pending approvals').getByRole('button', { name: 'Approve' }).click();
  const chat = region(page, 'Conversation');
  await chat.locator('.tool-call', { hasText: 'slow(ms=2500)' }).waitFor();
  await expect
    .poll(() => running.mcp.calls.filter((call) => call.name === 'slow').length)
    .toBeGreaterThan(0);
  // Reloaded while the server is still working on it: the call is unanswered in the log, and no
  // run is working on it any more.
  await page.reload();
  await waitReady(page);
  await chat.locator('.tool-call .status.interrupted').waitFor();
  await page.getByRole('button', { name: /^Resume/ }).click();
  await chat.getByText('The MCP server answered.').waitFor();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  expect(await messages(page)).toEqual(['Take your time', 'The MCP server answered.']);
  expect(await chat.locator('.tool-call .status.done').count()).toBe(1);
  expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);

  // Rewound to before the turn: the conversation is empty again.
  const history = region(page, 'History');
  await history.getByRole('button', { name: 'Take your time' }).click();
  await history.getByRole('button', { name: /^Rewind/ }).click();
  await expect.poll(() => messages(page)).toEqual([]);
  expect(browser.errors.filter((error) => !/ERR_/.test(error))).toEqual([]);
});

it('gives a flow’s agent node a server’s tool from its form, Allow always answers the flow’s approval, and an agent takes only some tools', async () => {
  const { page } = browser;
  await openApp(page);
  await addServer(page, { test: true });
  await addProvider(page, 'fixture-mcp-echo');

  // A flow with an agent node on the fixture model; its tool picked in the node's form.
  const flows = await duplicateSupport(page);
  await flows.getByRole('tab', { name: 'Code' }).click();
  await flows.getByLabel('Flow JSON').fill(
    JSON.stringify({
      name: 'echo-flow',
      nodes: [
        { id: 'start', type: 'start' },
        {
          id: 'helper',
          type: 'agent',
          model: 'Fixture/fixture-mcp-echo',
          instruction: 'Use the echo tool.',
        },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'helper' },
        { from: 'helper', to: 'end' },
      ],
    }),
  );
  await flows.getByRole('tab', { name: 'Canvas' }).click();
  await flows.getByRole('button', { name: /^helper agent/ }).click();
  const helper = flows.getByRole('region', { name: 'Node helper' });
  const add = helper.getByLabel('Add a tool');
  expect(await add.locator('option').allTextContents()).toEqual(
    expect.arrayContaining(['calculator', 'Local MCP/echo', 'Local MCP/picture']),
  );
  await add.selectOption('Local MCP/echo');
  await expect.poll(() => helper.getByLabel(/^Tools/).inputValue()).toBe('Local MCP/echo');
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “echo-flow”/ })
    .waitFor();
  await flows.getByRole('button', { name: 'Use in this session' }).click();

  // The server's tool asks first; Allow always answers and sets the policy.
  const before = running.mcp.calls.length;
  await page.getByLabel('Message').fill('Echo, flow');
  await page.getByRole('button', { name: 'Send' }).click();
  const approvals = region(page, 'Pending approvals');
  await approvals.getByText('wants to call').waitFor();
  await approvals.getByRole('button', { name: 'Allow always for this tool' }).click();
  await region(page, 'Conversation').getByText('The MCP server answered.').waitFor();
  expect(running.mcp.calls.slice(before)).toEqual([
    { name: 'echo', args: { text: 'hello from the model' } },
  ]);

  // An agent given only echo of the server: the model is offered echo alone, and (allowed
  // always above) it runs without asking.
  await addAgent(page, 'only-echo', 'fixture-mcp-echo', { only: ['echo'], provider: false });
  await say(page, 'Echo, agent');
  expect(await approvals.count()).toBe(0);
  const offered = running.models.requests
    .filter((r) => r.path.endsWith('/chat/completions'))
    .at(-1)!
    .body.tools.map((tool: { function: { name: string } }) => tool.function.name);
  expect(offered).toEqual(['echo']);
  expect(running.mcp.calls.slice(before).map((call) => call.name)).toEqual(['echo', 'echo']);
  expect(browser.errors).toEqual([]);
});
