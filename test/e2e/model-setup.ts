// Real models in the app, set up as a user would: a provider of the fixture model server in
// Settings → Providers, and an agent on one of its models in the agent builder.

import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { region } from './app-page.ts';

/** Settings → Providers → a new OpenAI-compatible provider at `url`, tested and saved. */
export async function addProvider(page: Page, url: string, key: string): Promise<void> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: 'Add Other server' }).click();
  await providers.getByLabel('Name').fill('Fixture');
  await providers.getByLabel('Base URL').fill(`${url}/v1`);
  await providers.getByLabel('API key').fill(key);
  await providers.getByRole('button', { name: 'Test connection' }).click();
  await providers
    .getByRole('status', { name: 'Connection' })
    .filter({ hasText: /^Connected: 4 models \(fixture-text, fixture-tool-call, / })
    .waitFor();
  await providers.getByLabel('Default model').fill('fixture-text');
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved “Fixture”.' }).waitFor();
  expect(await providers.getByLabel('API key').inputValue()).toBe('');
  expect(await providers.getByLabel('API key').getAttribute('placeholder')).toBe(
    `••••${key.slice(-4)} stored; type a new key to replace it`,
  );
}

/**
 * Agents → a new agent on that provider with `tools` (and the knowledge bases named in
 * `knowledge`), saved and used in this session.
 */
export async function addAgent(
  page: Page,
  name: string,
  model: string,
  tools: string[] = ['calculator'],
  knowledge: string[] = [],
): Promise<void> {
  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name').fill(name);
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByLabel('Model').fill(model);
  await agents.getByLabel('Instruction').fill('Do sums with the calculator.');
  for (const tool of tools)
    await agents.getByRole('group', { name: 'Tools' }).getByLabel(tool, { exact: true }).check();
  for (const base of knowledge)
    await agents
      .getByRole('group', { name: 'Knowledge' })
      .getByLabel(base, { exact: true })
      .check();
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents
    .getByRole('status')
    .filter({ hasText: `Saved “${name}”` })
    .waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  const select = page.getByLabel('Agent', { exact: true });
  await expect.poll(() => select.inputValue()).toMatch(/^agent:/);
  expect(await select.locator('optgroup[label="Your agents"] option').allTextContents()).toEqual([
    name,
  ]);
}
