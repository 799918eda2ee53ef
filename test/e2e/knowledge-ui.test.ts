// Knowledge bases in the app, in real Chromium, as a user would use them: Settings → Knowledge
// from its empty state to a base with documents (files chosen, a refused file named, a broken
// PDF shown failed with why, pasted text), "Try a search" whose hit opens the document at its
// chunk, a settings change that says it re-indexes, Remove and Delete (confirmed); then an agent
// given the base in the agent builder answers with numbered sources under its answer, each
// opening the document at the chunk, and, once the document is removed, the text the agent was
// given. The fixture model server's `fixture-knowledge` calls search_knowledge with the message
// and cites the first source. Each view passes the app's axe checks.

import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages, openApp, region, say } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { seriousViolations } from './axe.ts';
import {
  addFiles,
  addKnowledgeAgent,
  documentRow,
  EXPENSES_HTML,
  LEAVE_MD,
  makeBase,
  openKnowledge,
  pasteText,
  waitIndexed,
} from './knowledge-page.ts';
import { addProvider } from './model-setup.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';

const browser = freshBrowserPerTest();

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const viewer = (page: Page) => page.getByRole('dialog');

describe('the Knowledge view', () => {
  it('makes a base, adds files and text, searches it, changes it, and deletes it', async () => {
    const { page } = browser;
    await openApp(page);
    const view = await openKnowledge(page);
    await view.getByText('No knowledge bases yet.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    // A base needs a name: the form says so and makes nothing.
    await view.getByRole('button', { name: 'New knowledge base' }).click();
    const form = view.getByRole('form', { name: 'New knowledge base' });
    await form.getByLabel('Chunk size (characters)').fill('50');
    await form.getByRole('button', { name: 'Make knowledge base' }).click();
    expect(await form.getByRole('alert').innerText()).toContain('Give the knowledge base a name.');
    expect(await form.getByRole('alert').innerText()).toContain('Chunk size: a whole number');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await view.getByText('No knowledge bases yet.').waitFor();

    await makeBase(view, 'Handbook', 'Staff policies: leave, expenses');
    await view.getByText('No documents yet.').waitFor();

    // Files it reads are added; one it cannot read is named and left out.
    await addFiles(view, [
      { name: 'leave.md', mimeType: 'text/markdown', text: LEAVE_MD },
      { name: 'photo.png', mimeType: 'image/png', text: 'not a document' },
    ]);
    await view
      .getByRole('alert')
      .filter({ hasText: '“photo.png” is not text, Markdown, HTML or PDF: left out.' })
      .waitFor();
    await waitIndexed(view, 'leave.md');
    await addFiles(view, [{ name: 'expenses.html', mimeType: 'text/html', text: EXPENSES_HTML }]);
    await waitIndexed(view, 'expenses.html');
    expect(await documentRow(view, 'leave.md').innerText()).toMatch(
      /Markdown · \d+ B · \d+ chunks?/,
    );

    // A PDF that is not one fails, and says why (the others stay).
    await addFiles(view, [{ name: 'broken.pdf', mimeType: 'application/pdf', text: 'garbage' }]);
    await view
      .getByRole('alert')
      .filter({ hasText: /^Failed: .*broken\.pdf.*could not be read/ })
      .waitFor();
    await waitIndexed(view, 'leave.md');

    await pasteText(view, 'Parking', 'Visitors park on level 2 of the garage.');
    await waitIndexed(view, 'Parking');

    // Try a search: a hit opens its document with the chunk marked.
    await view.getByLabel('Search this knowledge base').fill('paid leave days');
    await view.getByRole('button', { name: 'Search', exact: true }).click();
    const hits = view.locator('.knowledge-hits > li');
    await hits.first().waitFor();
    expect(await hits.first().innerText()).toContain('leave.md');
    await hits.first().getByRole('button').click();
    await viewer(page).getByRole('heading', { name: 'leave.md' }).waitFor();
    expect(await viewer(page).locator('mark').innerText()).toContain('25 days of paid leave');
    expect(await seriousViolations(page)).toEqual([]);
    await viewer(page).getByRole('button', { name: 'Close' }).click();
    await viewer(page).waitFor({ state: 'detached' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('BUTTON');

    // Settings: a change of chunking says, before Save, that it re-indexes.
    await view.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = view.getByRole('form', { name: 'Settings of Handbook' });
    await settings.getByLabel('Chunk size (characters)').fill('400');
    await settings.getByText('Saving: the new chunking re-indexes every document.').waitFor();
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await view.getByRole('status').filter({ hasText: 'Saved “Handbook”.' }).waitFor();
    await view.getByText(/chunks of 400 characters/).waitFor();
    await waitIndexed(view, 'leave.md');

    // Remove a document; delete the base (asked first).
    await view.getByRole('button', { name: 'Remove Parking' }).click();
    await documentRow(view, 'Parking').waitFor({ state: 'detached' });
    expect(await seriousViolations(page)).toEqual([]);
    await view.getByRole('button', { name: 'Delete knowledge base' }).click();
    const confirm = view.getByRole('group', { name: 'Confirm delete' });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    await view.getByRole('heading', { name: 'Handbook', level: 3 }).waitFor();
    await view.getByRole('button', { name: 'Delete knowledge base' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await view.getByText('No knowledge bases yet.').waitFor();
    expect(browser.errors).toEqual([]);
  });
});

describe('sources under an answer', () => {
  it('an agent given a base cites it; each source opens the document, or what it was given once removed', async () => {
    const { page } = browser;
    await openApp(page);
    await addProvider(page, server.url, 'sk-e2e-knowledge-000111222333');

    // No base yet: the agent builder says where to make one.
    await page.getByRole('button', { name: 'Agents', exact: true }).click();
    const agents = region(page, 'Agents');
    const choice = agents.getByRole('group', { name: 'Knowledge' });
    await choice.getByText('Make a knowledge base in Settings → Knowledge').waitFor();

    const view = await openKnowledge(page);
    // Hybrid search: the fixture server's `embed` model makes the vectors.
    await makeBase(view, 'Handbook', 'Staff policies', { provider: 'Fixture', model: 'embed' });
    await view.getByText(/^Hybrid search with embed \(Fixture\)/).waitFor();
    await addFiles(view, [{ name: 'leave.md', mimeType: 'text/markdown', text: LEAVE_MD }]);
    await waitIndexed(view, 'leave.md');

    // The base made since is offered (the builder follows knowledge-changed).
    await page.getByRole('button', { name: 'Back to the chat' }).click();
    await addKnowledgeAgent(page, 'Librarian', 'Handbook');

    await say(page, 'How many days of paid leave do staff get?');
    const answer = (await messages(page)).at(-1)!;
    expect(answer).toMatch(/^From leave\.md: .*\[1\]$/);
    const sources = region(page, 'Conversation').getByRole('region', { name: 'Sources' });
    const first = sources.getByRole('button', { name: /^\[1\] leave\.md — / });
    await first.waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await first.click();
    await viewer(page).getByRole('heading', { name: 'leave.md' }).waitFor();
    expect(await viewer(page).locator('mark').innerText()).toContain('25 days of paid leave');
    await page.keyboard.press('Escape');
    await viewer(page).waitFor({ state: 'detached' });

    // The document removed: its source still shows what the agent was given.
    const knowledge = await openKnowledge(page);
    await knowledge.getByRole('button', { name: /^Handbook/ }).click();
    await knowledge.getByRole('button', { name: 'Remove leave.md' }).click();
    await knowledge.getByText('No documents yet.').waitFor();
    await knowledge.getByRole('button', { name: 'Back to the chat' }).click();
    await first.click();
    await viewer(page)
      .getByRole('alert')
      .filter({ hasText: 'This document was removed from the knowledge base.' })
      .waitFor();
    expect(await viewer(page).locator('mark').innerText()).toContain('25 days of paid leave');
    expect(await seriousViolations(page)).toEqual([]);
    await viewer(page).getByRole('button', { name: 'Close' }).click();
    expect(browser.errors).toEqual([]);
  });
});
