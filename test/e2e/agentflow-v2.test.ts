// A Flowise 3 Agentflow V2 flow in the app, as a user meets it: imported from a V2 export (a
// writer, a Human Input and a Direct Reply, as Flowise writes them), saved, and run on the offline
// model: the Human Input asks on the approval card with Proceed and Reject; a reject with feedback
// goes back to the writer, the question waits across a reload, and a proceed publishes.

import { expect, it } from 'vitest';
import { openApp, region, say, waitReady } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';
import { flowiseTemplates } from '../support/flowise-templates.ts';

const browser = freshBrowserPerTest();

const node = (id: string, name: string, label: string, inputs: Record<string, unknown>) => ({
  id,
  type: 'agentFlow',
  position: { x: 0, y: 0 },
  data: { id, name, label, inputs },
});
const edge = (source: string, target: string, sourceHandle: string) => ({
  id: `${source}-${target}`,
  source,
  target,
  sourceHandle,
  targetHandle: target,
  type: 'agentFlow',
});

/** A V2 export: Start → Writer → Review (proceed: Published; reject: back to Writer). */
const V2_FILE = {
  nodes: [
    node('startAgentflow_0', 'startAgentflow', 'Start', { startInputType: 'chatInput' }),
    node('agentAgentflow_0', 'agentAgentflow', 'Writer', {
      agentModel: 'chatOpenAI',
      agentMessages: [{ role: 'system', content: '<p>Write a short post about the topic.</p>' }],
    }),
    node('humanInputAgentflow_0', 'humanInputAgentflow', 'Review', {
      humanInputDescriptionType: 'fixed',
      humanInputDescription: '<p>Publish this post?</p>',
    }),
    node('loopAgentflow_0', 'loopAgentflow', 'Back to Writer', {
      loopBackToNode: 'agentAgentflow_0-Writer',
      maxLoopCount: 3,
    }),
    node('directReplyAgentflow_0', 'directReplyAgentflow', 'Published', {
      directReplyMessage:
        '<p>Published after review: <span class="variable" data-id="agentAgentflow_0">{{ agentAgentflow_0 }}</span></p>',
    }),
  ],
  edges: [
    edge('startAgentflow_0', 'agentAgentflow_0', 'startAgentflow_0-output-startAgentflow'),
    edge('agentAgentflow_0', 'humanInputAgentflow_0', 'agentAgentflow_0-output-agentAgentflow'),
    edge('humanInputAgentflow_0', 'directReplyAgentflow_0', 'humanInputAgentflow_0-output-0'),
    edge('humanInputAgentflow_0', 'loopAgentflow_0', 'humanInputAgentflow_0-output-1'),
  ],
};

it('imports an Agentflow V2 flow, and its Human Input asks, waits across a reload, rejects and proceeds', async () => {
  const { page } = browser;
  await openApp(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByLabel('Import Flowise flow…').setInputFiles({
    name: 'Reviewed post.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(V2_FILE)),
  });
  await flows
    .getByRole('status')
    .filter({ hasText: /^Imported from Flowise with \d+ notes/ })
    .waitFor();
  await flows
    .getByRole('region', { name: 'Import report' })
    .getByText('its chat model (chatOpenAI) becomes the provider you choose for the flow')
    .waitFor();
  await flows.getByRole('group', { name: 'Canvas of Reviewed post' }).waitFor();
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “Reviewed post”/ })
    .waitFor();
  await flows.getByRole('button', { name: 'Use in this session' }).click();
  await say(page, 'kites');

  const approvals = region(page, 'Pending approvals');
  const card = approvals.locator('.approval');
  await card.getByText('Publish this post?').waitFor();
  expect(await card.getByRole('button', { name: 'Allow always for this tool' }).count()).toBe(0);
  await card.getByLabel('Feedback (optional)').fill('Make it shorter');
  await card.getByRole('button', { name: 'Reject' }).click();
  // The feedback is said by the Review node (the writer sees it), back to the writer, and asked
  // again; the question waits across a reload.
  const authors = () => page.locator('.chat .message .author').allInnerTexts();
  await expect.poll(authors).toEqual(['Writer', 'Review', 'Writer']);
  await card.getByText('Publish this post?').waitFor();
  await page.reload();
  await waitReady(page);
  await card.getByText('Publish this post?').waitFor();
  // The Flow panel says where the run waits, by the node's name.
  await region(page, 'Flow').getByText('Waiting for you at Review').waitFor();
  await card.getByRole('button', { name: 'Proceed' }).click();
  await page
    .locator('.chat .message')
    .filter({ hasText: /Published after review: / })
    .waitFor();
  expect(await authors()).toEqual(['Writer', 'Review', 'Writer', 'Published']);
  expect(await approvals.count()).toBe(0);
  expect(browser.errors).toEqual([]);
}, 120_000);

it('runs Flowise’s own Human In The Loop template: its form, a reject that loops back, a proceed', async () => {
  const template = flowiseTemplates().find((t) => t.name === 'Human In The Loop')!;
  const { page } = browser;
  await openApp(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByLabel('Import Flowise flow…').setInputFiles({
    name: 'Human In The Loop.json',
    mimeType: 'application/json',
    buffer: Buffer.from(template.text),
  });
  const report = flows.getByRole('region', { name: 'Import report' });
  await report.getByText(/tool "gmail" has no Trellis counterpart/).waitFor();
  // The nodes it left something out of are marked on the canvas until the report goes.
  await flows.locator('.canvas-node.noted').filter({ hasText: 'Send Email' }).waitFor();
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “Human In The Loop”/ })
    .waitFor();
  await flows.getByRole('button', { name: 'Use in this session' }).click();

  // Its Start node takes a form: the chat shows it instead of the message box.
  const form = page.getByRole('form', { name: 'Email Inquiry' });
  await form.getByLabel('Subject').fill('Pricing');
  await form.getByLabel('Body').fill('How much is the team plan?');
  await form.getByLabel('From').fill('ada@example.com');
  await form.getByRole('button', { name: /Submit|Send|Start/ }).click();
  await page.locator('.chat .message').filter({ hasText: 'From: ada@example.com' }).waitFor();

  const card = region(page, 'Pending approvals').locator('.approval');
  await card.getByText('Are you sure you want to proceed?').waitFor();
  await card.getByLabel('Feedback (optional)').fill('Mention the discount');
  await card.getByRole('button', { name: 'Reject' }).click();
  // The feedback is said in the conversation, and the agent writes again.
  await page.locator('.chat .message').filter({ hasText: 'Mention the discount' }).waitFor();
  const authors = () => page.locator('.chat .message .author').allInnerTexts();
  await expect
    .poll(async () => (await authors()).filter((a) => a === 'Email Reply Agent').length)
    .toBe(2);
  await card.getByText('Are you sure you want to proceed?').waitFor();
  await card.getByRole('button', { name: 'Proceed' }).click();
  // Proceed: the structured subject and body, then the Tool node (no tool chosen: it passes on).
  await expect.poll(authors).toContain('Email Subject & Body');
  await expect.poll(() => region(page, 'Pending approvals').count()).toBe(0);
  expect(browser.errors).toEqual([]);
}, 120_000);
