// The flow canvas in Chromium, by mouse as a Flowise user builds a flow: from an empty canvas,
// the support example's shape (Start → Condition Agent → two Agents, one whose tool needs
// approval → End) dragged from the palette, connected handle to handle, filled in through the
// node forms, saved and run; the approval answered; the run lit on the canvas; a deletion undone
// and redone; the code view following every edit.

import type { Locator, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { openAppSettled, region } from './app-page.ts';
import { seriousViolations } from './axe.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const node = (flows: Locator, id: string) => flows.locator(`.react-flow__node[data-id="${id}"]`);

/** Drags a palette item onto the canvas at `x`, `y` (from the pane's top left). */
/**
 * Drags a palette button onto the canvas and waits for the node. On a loaded machine a drag is
 * now and then lost between its events (no node appears): it is done again, as a user would.
 */
async function place(flows: Locator, label: string, x: number, y: number): Promise<void> {
  const nodes = flows.locator('.react-flow__node');
  const before = await nodes.count();
  for (let attempt = 0; attempt < 3; attempt++) {
    await flows
      .getByRole('group', { name: 'Add a node' })
      .getByRole('button', { name: label, exact: true })
      .dragTo(flows.locator('.canvas-pane'), { targetPosition: { x, y } });
    const placed = await expect
      .poll(() => nodes.count(), { timeout: 3000 })
      .toBe(before + 1)
      .then(
        () => true,
        () => false,
      );
    if (placed) return;
  }
  throw new Error(`Dragging "${label}" onto the canvas placed no node, three times`);
}

/**
 * Drags from a node's output handle (`handle`) to another node's input, as a mouse would, and
 * waits for the edge. A handle that appeared a moment ago (a scenario just typed) is measured by
 * the canvas on the next frame: a drag before that finds nothing to connect, and is done again.
 */
async function wire(page: Page, flows: Locator, from: string, handle: string, to: string) {
  const edges = flows.locator('.react-flow__edge');
  const before = await edges.count();
  for (let attempt = 0; attempt < 3; attempt++) {
    await flows.locator('.canvas-pane').scrollIntoViewIfNeeded();
    const source = node(flows, from).locator(
      `.react-flow__handle.source[data-handleid="${handle}"]`,
    );
    const target = node(flows, to).locator('.react-flow__handle.target');
    const a = (await source.boundingBox())!;
    const b = (await target.boundingBox())!;
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
    await page.mouse.up();
    try {
      await expect.poll(() => edges.count(), { timeout: 1000 }).toBe(before + 1);
      return;
    } catch {
      // not connected: drag again
    }
  }
  throw new Error(`Could not connect ${from} (${handle}) to ${to}`);
}

const flowJson = async (page: Page, flows: Locator) => {
  await flows.getByRole('tab', { name: 'Code' }).click();
  const text = await flows.getByLabel('Flow JSON').inputValue();
  await flows.getByRole('tab', { name: 'Canvas' }).click();
  await flows.locator('.react-flow__renderer').waitFor();
  return JSON.parse(text) as {
    name: string;
    nodes: { id: string; type: string; position?: unknown }[];
    edges: { from: string; to: string; when?: string }[];
  };
};

it('builds the support flow on an empty canvas by mouse, saves and runs it, and shows the run on the canvas', async () => {
  const { page } = browser;
  await openAppSettled(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('button', { name: 'New flow' }).click();
  await node(flows, 'answer').waitFor();

  // An empty canvas: every node selected and deleted.
  await node(flows, 'start').click();
  await page.keyboard.press('Control+a');
  await expect.poll(() => flows.locator('.react-flow__node.selected').count()).toBe(3);
  await page.keyboard.press('Delete');
  await expect.poll(() => flows.locator('.react-flow__node').count()).toBe(0);

  // Placed from the palette by dragging.
  await place(flows, 'Start', 60, 160);
  await place(flows, 'Condition Agent', 260, 160);
  await place(flows, 'Agent', 500, 80);
  await place(flows, 'Agent', 500, 260);
  await place(flows, 'End', 740, 160);
  await expect.poll(() => flows.locator('.react-flow__node').count()).toBe(5);

  // The forms: the condition agent's prompt and scenarios (a handle appears for each).
  await node(flows, 'condition_agent').click();
  const triage = flows.getByRole('region', { name: 'Node condition_agent' });
  await triage.getByLabel('Prompt').fill('Is this about billing or something technical?');
  await triage.getByLabel(/^Scenarios/).pressSequentially('billing\ntechnical');
  await node(flows, 'condition_agent').locator('[data-handleid="technical"]').waitFor();
  await node(flows, 'agent').click();
  const billing = flows.getByRole('region', { name: 'Node agent' });
  await billing.getByLabel('Name', { exact: true }).fill('billing');
  await billing.getByLabel('System prompt').fill('Help with billing. Look up invoices.');
  await billing.getByLabel(/^Tools/).fill('lookup_invoice');
  await billing.getByLabel('Require approval').check();
  await node(flows, 'agent_2').click();
  const tech = flows.getByRole('region', { name: 'Node agent_2' });
  await tech.getByLabel('System prompt').fill('Help with a technical problem.');

  // Connected handle to handle, the scenarios' own handles for the two agents.
  await wire(page, flows, 'start', 'out', 'condition_agent');
  await wire(page, flows, 'condition_agent', 'billing', 'agent');
  await wire(page, flows, 'condition_agent', 'technical', 'agent_2');
  await wire(page, flows, 'agent', 'out', 'end');
  await wire(page, flows, 'agent_2', 'out', 'end');
  await expect.poll(() => flows.locator('.react-flow__edge').count()).toBe(5);
  // Start has no input to drop an edge on; End has no output to draw one from.
  expect(await node(flows, 'start').locator('.react-flow__handle.target').count()).toBe(0);
  expect(await node(flows, 'end').locator('.react-flow__handle.source').count()).toBe(0);
  const flow = await flowJson(page, flows);
  expect(flow.edges).toEqual([
    { from: 'start', to: 'condition_agent' },
    { from: 'condition_agent', to: 'agent', when: 'billing' },
    { from: 'condition_agent', to: 'agent_2', when: 'technical' },
    { from: 'agent', to: 'end' },
    { from: 'agent_2', to: 'end' },
  ]);
  expect(flow.nodes.every((n) => n.position !== undefined)).toBe(true);

  // Undo and redo a deletion (Ctrl+Z, Ctrl+Shift+Z).
  await node(flows, 'agent_2').click();
  await node(flows, 'agent_2').and(flows.locator('.selected')).waitFor();
  await page.keyboard.press('Delete');
  await expect.poll(() => node(flows, 'agent_2').count()).toBe(0);
  await expect.poll(() => flows.locator('.react-flow__edge').count()).toBe(3);
  await flows.locator('.canvas-pane').click({ position: { x: 20, y: 20 } });
  await page.keyboard.press('Control+z');
  await node(flows, 'agent_2').waitFor();
  await expect.poll(() => flows.locator('.react-flow__edge').count()).toBe(5);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => node(flows, 'agent_2').count()).toBe(0);
  await flows.getByRole('button', { name: 'Undo' }).click();
  await node(flows, 'agent_2').waitFor();

  // The flow's state keys (Flowise's State node).
  await flows.getByRole('button', { name: 'State', exact: true }).click();
  const stateForm = flows.getByRole('region', { name: 'Flow state' });
  await stateForm.getByRole('button', { name: 'Add a row' }).click();
  await stateForm.getByLabel('Key, row 1').fill('category');
  await stateForm.getByLabel('Operation, row 1').selectOption('replace');
  await stateForm.getByLabel('Default (JSON, or text), row 1').fill('null');
  expect((await flowJson(page, flows)) as unknown).toMatchObject({
    state: [{ key: 'category', operation: 'replace', default: null }],
  });

  // Saved; positions come back with it.
  expect(await seriousViolations(page)).toEqual([]);
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “my-flow”/ })
    .waitFor();
  expect((await flowJson(page, flows)).nodes.find((n) => n.id === 'agent')!.position).toBeDefined();

  // Run it: the billing way, whose tool waits for approval, lit on the canvas.
  await flows.getByRole('button', { name: 'Use in this session' }).click();
  await page.getByLabel('Message').fill('billing: is invoice INV-1042 paid?');
  await page.getByRole('button', { name: 'Send' }).click();
  const approvals = page.getByRole('region', { name: 'Pending approvals' });
  await approvals.getByRole('button', { name: 'Approve' }).waitFor();
  const flowPanel = region(page, 'Flow');
  await flowPanel.getByRole('img', { name: /^billing agent · waiting/ }).waitFor();
  await flowPanel.getByRole('img', { name: /^condition_agent conditionAgent · done/ }).waitFor();
  await approvals.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  await flowPanel.getByRole('img', { name: /^end end · done/ }).waitFor();
  expect(await flowPanel.getByRole('img', { name: /^agent_2 agent · done/ }).count()).toBe(0);
  expect(browser.errors).toEqual([]);
}, 120_000);

it('deletes an edge chosen with the mouse (Delete, or its × button) and with the keyboard', async () => {
  const { page } = browser;
  await openAppSettled(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('button', { name: 'New flow' }).click();
  await node(flows, 'answer').waitFor();
  const edges = flows.locator('.react-flow__edge');
  await expect.poll(() => edges.count()).toBe(2);
  const edge = (from: string, to: string) =>
    flows.getByRole('group', { name: new RegExp(`^edge from ${from} to ${to}`) });
  const edgesInJson = async () =>
    (await flowJson(page, flows)).edges.map((e) => `${e.from} → ${e.to}`);

  // The wheel over the canvas scrolls the page (it does not zoom the canvas).
  const zoom = () => flows.locator('.react-flow__viewport').getAttribute('style');
  const before = await zoom();
  const scrolled = () =>
    flows.locator('.canvas-pane').evaluate((pane) => {
      let at: HTMLElement | null = pane.parentElement;
      let sum = window.scrollY;
      for (; at; at = at.parentElement) sum += at.scrollTop;
      return sum;
    });
  const top = await scrolled();
  const box = (await flows.locator('.canvas-pane').boundingBox())!;
  await page.mouse.move(box.x + 30, box.y + 30);
  await page.mouse.wheel(0, 300);
  await expect.poll(scrolled).toBeGreaterThan(top);
  expect(await zoom()).toBe(before);
  await flows.locator('.canvas-pane').scrollIntoViewIfNeeded();

  // A click selects the edge (the whole curve's width is its target), and Delete deletes it.
  await edge('start', 'answer').click();
  await flows.locator('.react-flow__edge.selected').waitFor();
  await page.keyboard.press('Delete');
  await expect.poll(() => edges.count()).toBe(1);
  expect(await edgesInJson()).toEqual(['answer → end']);

  // Undone, then deleted by the mouse alone: its × button.
  await flows.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => edges.count()).toBe(2);
  await edge('answer', 'end').click();
  await flows.getByRole('button', { name: 'Delete the edge from answer to end' }).click();
  await expect.poll(() => edges.count()).toBe(1);
  expect(await edgesInJson()).toEqual(['start → answer']);

  // By the keyboard: focused (as Tab reaches it), Enter selects it, Delete deletes it.
  await flows.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => edges.count()).toBe(2);
  await edge('start', 'answer').focus();
  await page.keyboard.press('Enter');
  await flows.locator('.react-flow__edge.selected').waitFor();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Delete');
  await expect.poll(() => edges.count()).toBe(1);
  expect(await edgesInJson()).toEqual(['answer → end']);
  expect(browser.errors).toEqual([]);
});

/** Drags node `id` by its middle to `x`, `y` (from the pane's top left), as a mouse would. */
async function drag(page: Page, flows: Locator, id: string, x: number, y: number) {
  await flows.locator('.canvas-pane').scrollIntoViewIfNeeded();
  const from = (await node(flows, id).locator('.node-id').boundingBox())!;
  const pane = (await flows.locator('.canvas-pane').boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(pane.x + x, pane.y + y, { steps: 12 });
  await page.mouse.up();
}

/** Whether node `id` is drawn within node `group`'s box. */
async function drawnInside(flows: Locator, id: string, group: string): Promise<boolean> {
  const a = (await node(flows, id).boundingBox())!;
  const b = (await node(flows, group).boundingBox())!;
  return (
    a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height
  );
}

type GroupedFlow = {
  nodes: { id: string; parent?: string; position?: { x: number; y: number }; size?: unknown }[];
  notes?: { id: string; text: string }[];
};

it('holds nodes in an Iteration group and keeps sticky notes: dragged in and out, resized, saved and reopened', async () => {
  const { page } = browser;
  await openAppSettled(page);
  await page.getByRole('button', { name: 'Flows', exact: true }).click();
  const flows = region(page, 'Flows');
  await flows.getByRole('button', { name: 'New flow' }).click();
  await node(flows, 'answer').waitFor();
  // Start and End where there is room, the agent of the new flow gone.
  await node(flows, 'answer').click();
  await page.keyboard.press('Delete');
  await expect.poll(() => node(flows, 'answer').count()).toBe(0);
  await flows.getByRole('button', { name: 'Tidy up' }).click();

  // An Iteration from the palette, and an LLM dragged into it.
  await place(flows, 'Iteration', 330, 190);
  await flows
    .getByRole('region', { name: 'Node iteration' })
    .getByLabel('Array input')
    .fill('["tea", "coffee"]');
  await place(flows, 'LLM', 330, 380);
  await flows
    .getByRole('region', { name: 'Node llm' })
    .getByLabel('Prompt')
    .fill('Describe {{iteration.item}}.');
  await drag(page, flows, 'llm', 330, 200);
  await expect
    .poll(
      async () =>
        ((await flowJson(page, flows)) as unknown as GroupedFlow).nodes.find((n) => n.id === 'llm')
          ?.parent,
    )
    .toBe('iteration');
  await expect.poll(() => drawnInside(flows, 'llm', 'iteration')).toBe(true);
  await wire(page, flows, 'start', 'out', 'iteration');
  await wire(page, flows, 'iteration', 'out', 'end');

  // Dragged out, it leaves the group (its position absolute again); Undo puts it back.
  await drag(page, flows, 'llm', 330, 420);
  await expect
    .poll(
      async () =>
        ((await flowJson(page, flows)) as unknown as GroupedFlow).nodes.find((n) => n.id === 'llm')
          ?.parent,
    )
    .toBeUndefined();
  await flows.getByRole('button', { name: 'Undo' }).click();
  await expect.poll(() => drawnInside(flows, 'llm', 'iteration')).toBe(true);

  // Moved by the keyboard (Enter selects it, the arrow keys move it): saved, still in the group.
  const llmAt = async () =>
    ((await flowJson(page, flows)) as unknown as GroupedFlow).nodes.find((n) => n.id === 'llm')!;
  const x = (await llmAt()).position!.x;
  await node(flows, 'llm').focus();
  await page.keyboard.press('Enter');
  await node(flows, 'llm').and(flows.locator('.selected')).waitFor();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await llmAt()).position!.x).toBe(x + 10);
  expect((await llmAt()).parent).toBe('iteration');

  // Resized by its corner once selected: the size is saved in the node.
  await node(flows, 'iteration').locator('.group-head').click();
  await flows.getByRole('region', { name: 'Node iteration' }).waitFor();
  const corner = node(flows, 'iteration').locator(
    '.react-flow__resize-control.handle.bottom.right',
  );
  await corner.waitFor();
  // The form opened below the canvas (scrolled to, smoothly): back to the canvas once still.
  await page.waitForTimeout(400);
  await flows.locator('.canvas-pane').scrollIntoViewIfNeeded();
  const before = (await node(flows, 'iteration').boundingBox())!;
  const grip = (await corner.boundingBox())!;
  await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
  await page.mouse.down();
  await page.mouse.move(grip.x + 90, grip.y + 50, { steps: 10 });
  await page.mouse.up();
  await expect
    .poll(async () => (await node(flows, 'iteration').boundingBox())!.width)
    .toBeGreaterThan(before.width + 40);
  const resized = (await flowJson(page, flows)) as unknown as GroupedFlow;
  const size = resized.nodes.find((n) => n.id === 'iteration')!.size as {
    width: number;
    height: number;
  };
  expect(size.width).toBeGreaterThan(320);
  expect(size.height).toBeGreaterThan(200);

  // A sticky note from the palette (by the keyboard): typed in place.
  const noteItem = flows
    .getByRole('group', { name: 'Add a node' })
    .getByRole('button', { name: 'Sticky Note' });
  await noteItem.focus();
  await page.keyboard.press('Enter');
  const noteText = flows.getByLabel('Text of the note note_1');
  await expect
    .poll(() => noteText.evaluate((element) => element === document.activeElement))
    .toBe(true);
  await page.keyboard.type('Runs once per drink.');
  expect(((await flowJson(page, flows)) as unknown as GroupedFlow).notes).toMatchObject([
    { id: 'note_1', text: 'Runs once per drink.' },
  ]);

  expect(await seriousViolations(page)).toEqual([]);
  await flows.getByRole('button', { name: 'Save' }).click();
  await flows
    .getByRole('status')
    .filter({ hasText: /Saved “my-flow”/ })
    .waitFor();

  // Reopened after a reload: the LLM is still in its group, the note still says its text.
  await page.reload();
  // The app opens where it was: the Flows view.
  await flows.or(page.getByLabel('Message')).first().waitFor();
  if (!(await flows.isVisible()))
    await page.getByRole('button', { name: 'Flows', exact: true }).click();
  await flows.getByRole('button', { name: 'my-flow', exact: true }).click();
  await node(flows, 'llm').waitFor();
  expect(await drawnInside(flows, 'llm', 'iteration')).toBe(true);
  expect(await flows.getByLabel('Text of the note note_1').inputValue()).toBe(
    'Runs once per drink.',
  );
  const reopened = (await flowJson(page, flows)) as unknown as GroupedFlow;
  expect(reopened.nodes.find((n) => n.id === 'llm')).toMatchObject({ parent: 'iteration' });
  expect(reopened.nodes.find((n) => n.id === 'iteration')!.size).toEqual(size);
  expect(browser.errors).toEqual([]);
}, 120_000);
