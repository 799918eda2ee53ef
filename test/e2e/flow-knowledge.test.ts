// Knowledge in flows, in Chromium: Flowise's Simple RAG template imports through the Flows view,
// its report says the QnA agent's store "AI-Paper" needs a knowledge base, and the QnA node's
// form shows the store in its Knowledge table with a picker of the user's bases; picking one
// writes its id into the flow. `TRELLIS_SHOTS=1` also takes docs/screenshots/flow-knowledge*.png.

import { expect, it } from 'vitest';
import { openAppSettled } from './app-page.ts';
import { freshBrowserPerTest, screenshotsOf } from './browser.ts';
import { importSimpleRag, makeBase, openKnowledge } from './knowledge-page.ts';

const browser = freshBrowserPerTest();

it('imports Simple RAG and picks a knowledge base for its store in the QnA node’s form', async () => {
  const { page } = browser;
  await openAppSettled(page);
  await makeBase(await openKnowledge(page), 'AIGC papers', 'Papers about generated content');
  const flows = await importSimpleRag(page);
  const form = flows.getByRole('region', { name: 'Node qna' });
  const picker = form.getByLabel('Knowledge base, row 1');
  await expect.poll(() => form.getByLabel('In Flowise, row 1').inputValue()).toBe('AI-Paper');
  await expect.poll(() => form.getByLabel('Tool name, row 1').inputValue()).toBe('ai-paper');
  await picker.selectOption({ label: 'AIGC papers' });
  await flows.getByRole('tab', { name: 'Code' }).click();
  const json = JSON.parse(await flows.getByLabel('Flow JSON').inputValue()) as {
    nodes: { id: string; knowledge?: { baseId?: string; source?: string }[] }[];
  };
  const qna = json.nodes.find((node) => node.id === 'qna')!;
  expect(qna.knowledge).toEqual([
    expect.objectContaining({ source: 'AI-Paper', baseId: expect.stringMatching(/\S/) }),
  ]);
  expect(browser.errors).toEqual([]);
}, 120_000);

it.runIf(process.env.TRELLIS_SHOTS === '1')(
  'takes the screenshots: desktop and phone, light and dark',
  async () => {
    await screenshotsOf('flow-knowledge', async (page) => {
      await openAppSettled(page);
      await makeBase(await openKnowledge(page), 'AIGC papers', 'Papers about generated content');
      const flows = await importSimpleRag(page);
      const form = flows.getByRole('region', { name: 'Node qna' });
      await form.getByLabel('Knowledge base, row 1').selectOption({ label: 'AIGC papers' });
      await form
        .getByRole('group', { name: 'Knowledge' })
        .evaluate((table) => table.scrollIntoView({ block: 'end' }));
    });
  },
  240_000,
);
