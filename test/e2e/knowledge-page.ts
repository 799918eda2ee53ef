// Knowledge bases in the app, driven as a user would (by accessible names): Settings → Knowledge,
// a new base, files added through its file input, pasted text. Used by
// test/e2e/knowledge-ui.test.ts and the screenshots (test/docs/knowledge-ui.docs.ts).

import type { Locator, Page } from 'playwright-core';
import { region } from './app-page.ts';
import { addAgent } from './model-setup.ts';
import { flowiseTemplates } from '../support/flowise-templates.ts';

/** A short handbook in Markdown: headings make its chunks' places. */
export const LEAVE_MD = `# Leave policy

Staff get 25 days of paid leave a year. Unused days carry over until the end of March.

## Sick leave

Tell your manager before 10am on the first day you are ill. From the fourth day on, a note from a doctor is needed.

## Parental leave

Parents get 20 weeks of parental leave at full pay, to be taken within two years of the birth.
`;

export const EXPENSES_HTML = `<!doctype html><html><head><title>Expenses</title></head><body>
<h1>Expenses</h1><p>Train travel is booked in standard class. Receipts go in within 30 days.</p>
<h2>Meals</h2><p>Meals on a trip are paid up to 40 euros a day.</p></body></html>`;

/** Settings → Knowledge. */
export async function openKnowledge(page: Page): Promise<Locator> {
  await page.getByText('Settings', { exact: true }).click();
  await page.getByRole('button', { name: 'Knowledge', exact: true }).click();
  const view = region(page, 'Knowledge');
  await view.getByRole('heading', { name: 'Knowledge', level: 2 }).waitFor();
  return view;
}

/**
 * New knowledge base → its page opens. `embedding`: the provider (by its name) and the model its
 * vectors come from (absent: full-text only).
 */
export async function makeBase(
  view: Locator,
  name: string,
  description = '',
  embedding?: { provider: string; model: string },
): Promise<void> {
  await view.getByRole('button', { name: 'New knowledge base' }).click();
  const form = view.getByRole('form', { name: 'New knowledge base' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Description').fill(description);
  if (embedding) {
    await form.getByLabel('Embedding model').selectOption({ label: embedding.provider });
    await form.getByLabel('Model name').fill(embedding.model);
  }
  await form.getByRole('button', { name: 'Make knowledge base' }).click();
  await view.getByRole('heading', { name, level: 3 }).waitFor();
}

export interface FileToAdd {
  name: string;
  mimeType: string;
  text: string | Buffer;
}

/** Add files… with these files (the page's own input). */
export async function addFiles(view: Locator, files: FileToAdd[]): Promise<void> {
  await view.getByLabel('Add files…').setInputFiles(
    files.map(({ name, mimeType, text }) => ({
      name,
      mimeType,
      buffer: typeof text === 'string' ? Buffer.from(text) : text,
    })),
  );
}

/** A document's row in the base's list. */
export const documentRow = (view: Locator, name: string) =>
  view
    .getByRole('list', { name: 'Documents' })
    .getByRole('listitem')
    .filter({ has: view.page().getByText(name, { exact: true }) });

/** Waits until a document's row says it is indexed. */
export async function waitIndexed(view: Locator, name: string): Promise<void> {
  await documentRow(view, name).getByText('Indexed', { exact: true }).waitFor();
}

/** Paste text → named and added. */
export async function pasteText(view: Locator, name: string, text: string): Promise<void> {
  await view.getByRole('button', { name: 'Paste text' }).click();
  const form = view.getByRole('form', { name: /^Paste text into / });
  await form.getByLabel('Name of the text').fill(name);
  await form.getByLabel('Text', { exact: true }).fill(text);
  await form.getByRole('button', { name: 'Add text' }).click();
}

/**
 * Agents → an agent on the fixture server's `fixture-knowledge` model (it searches, then cites
 * the first source) searching the base `baseName`, saved and used in this session.
 */
export function addKnowledgeAgent(page: Page, name: string, baseName: string): Promise<void> {
  return addAgent(page, name, 'fixture-knowledge', [], [baseName]);
}

/**
 * Flows → Import Flowise flow… with Flowise's own Simple RAG (its report says its store needs a
 * knowledge base), then its QnA node opened; the Flows region.
 */
export async function importSimpleRag(page: Page): Promise<Locator> {
  const template = flowiseTemplates().find((t) => t.path.endsWith('agentflowsv2/Simple RAG.json'))!;
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByLabel('Import Flowise flow…').setInputFiles({
    name: 'Simple RAG.json',
    mimeType: 'application/json',
    buffer: Buffer.from(template.text),
  });
  await flows
    .getByRole('region', { name: 'Import report' })
    .getByText(
      "knowledge “AI-Paper” needs a knowledge base: pick one in the node's Knowledge field",
    )
    .waitFor();
  await flows.locator('.react-flow__node[data-id="qna"]').click();
  return flows;
}
