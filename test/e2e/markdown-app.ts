// The app talking to the fixture model server (test/support/model-server.ts) as a user sets it
// up: Settings → Providers → an OpenAI-compatible server, then an agent on one of its scenarios,
// used in the current session. For the Markdown tests; test/e2e/models.test.ts does the same
// with more checks along the way.

import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { region } from './app-page.ts';

export async function useFixtureAgent(page: Page, serverUrl: string, model: string): Promise<void> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Providers', exact: true }).click();
  const providers = region(page, 'Providers');
  await providers.getByRole('button', { name: 'Add Other server' }).click();
  await providers.getByLabel('Name').fill('Fixture');
  await providers.getByLabel('Base URL').fill(`${serverUrl}/v1`);
  await providers.getByLabel('API key').fill('sk-markdown-e2e');
  await providers.getByLabel('Default model').fill(model);
  await providers.getByRole('button', { name: 'Save' }).click();
  await providers.getByRole('status').filter({ hasText: 'Saved “Fixture”.' }).waitFor();

  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = region(page, 'Agents');
  await agents.getByLabel('Name').fill('writer');
  await expect.poll(() => agents.getByLabel('Provider').inputValue()).not.toBe('');
  await agents.getByLabel('Model').fill(model);
  await agents.getByLabel('Instruction').fill('Answer in Markdown.');
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents.getByRole('status').filter({ hasText: 'Saved “writer”' }).waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  await expect
    .poll(() => page.getByLabel('Agent', { exact: true }).inputValue())
    .toMatch(/^agent:/);
}

/** The answer a scenario's OpenAI fixture streams: its content deltas, joined. */
export function fixtureAnswer(sse: string): string {
  let text = '';
  for (const line of sse.split('\n')) {
    if (!line.startsWith('data: {')) continue;
    const chunk = JSON.parse(line.slice('data: '.length)) as {
      choices: { delta?: { content?: string } }[];
    };
    text += chunk.choices[0]?.delta?.content ?? '';
  }
  return text;
}
