// Screenshots of knowledge bases (issue 34): a base's page with its documents and a search, and
// an answer with its numbered sources; light and dark, desktop and phone:
// `npx vitest run --project docs test/docs/knowledge-ui.docs.ts`.

import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { openApp, region, say } from '../e2e/app-page.ts';
import {
  addFiles,
  addKnowledgeAgent,
  EXPENSES_HTML,
  LEAVE_MD,
  makeBase,
  openKnowledge,
  pasteText,
  waitIndexed,
} from '../e2e/knowledge-page.ts';
import { addProvider } from '../e2e/model-setup.ts';
import { startModelServer, type ModelServer } from '../support/model-server.ts';
import { inEachLook } from './looks.ts';

const DESKTOP = { width: 1280, height: 800 };

/** A provider, and the Handbook base with three documents, on its page. */
async function handbook(page: Page, server: ModelServer) {
  await openApp(page);
  await addProvider(page, server.url, 'sk-screenshot-0000-1234');
  const view = await openKnowledge(page);
  await makeBase(view, 'Handbook', 'Staff policies: leave, expenses and parking', {
    provider: 'Fixture',
    model: 'embed',
  });
  await addFiles(view, [
    { name: 'leave-policy.md', mimeType: 'text/markdown', text: LEAVE_MD },
    { name: 'expenses.html', mimeType: 'text/html', text: EXPENSES_HTML },
  ]);
  await waitIndexed(view, 'leave-policy.md');
  await waitIndexed(view, 'expenses.html');
  await pasteText(view, 'Parking', 'Visitors park on level 2 of the garage, with a day pass.');
  await waitIndexed(view, 'Parking');
  return view;
}

it('takes the Knowledge screenshots: light and dark, desktop and phone', async () => {
  const server = await startModelServer();
  try {
    await inEachLook(
      'knowledge',
      async (page, { phone }, shot) => {
        const view = await handbook(page, server);
        await view.getByLabel('Search this knowledge base').fill('sick leave doctor');
        await view.getByRole('button', { name: 'Search', exact: true }).click();
        await view.locator('.knowledge-hits > li').first().waitFor();
        // A phone shows the base from its top (the search scrolled it down).
        if (phone) await view.evaluate((element) => element.scrollTo(0, 0));
        await page.waitForTimeout(200);
        await page.screenshot(shot);
      },
      DESKTOP,
    );
    await inEachLook(
      'knowledge-sources',
      async (page, _look, shot) => {
        const view = await handbook(page, server);
        await view.getByRole('button', { name: 'Back to the chat' }).click();
        await addKnowledgeAgent(page, 'Librarian', 'Handbook');
        await say(page, 'How many days of paid leave do staff get?');
        const sources = region(page, 'Conversation').getByRole('region', { name: 'Sources' });
        await sources.getByRole('button').first().waitFor();
        await page.waitForTimeout(200);
        await page.screenshot(shot);
      },
      DESKTOP,
    );
  } finally {
    await server.close();
  }
});
