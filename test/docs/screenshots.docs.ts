// Screenshots of the main views for the README and docs/: `npm run screenshots`.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import {
  addLocalModelFiles,
  chooseAgent,
  duplicateSupport,
  openApp,
  region,
  say,
  waitReady,
} from '../e2e/app-page.ts';
import { launch } from '../e2e/browser.ts';
import { startModelServer } from '../support/model-server.ts';
import { startAdkServer } from '../adk/adk-server.ts';
import { appUrl } from '../e2e/app-page.ts';
import { flowiseTriageFile } from '../support/flowise-fixture.ts';
import { startMcpServer } from '../support/mcp-server.ts';
import { tinyGguf } from '../support/tiny-gguf.ts';

const shot = (name: string) => ({ path: `docs/screenshots/${name}.png` });

/** Opens the app with the "works offline" banner dismissed, as a returning user sees it. */
async function openForShots(page: Page): Promise<void> {
  await openApp(page);
  await page
    .getByRole('button', { name: 'OK' })
    .click()
    .catch(() => undefined);
}

it('takes the screenshots', async () => {
  const browser = await launch({ viewport: { width: 1440, height: 860 } });
  const { page } = browser;
  try {
    await openForShots(page);
    for (const text of [
      'set color to red',
      'save todo.txt as buy milk',
      'set size to large',
      'what is color',
    ]) {
      await say(page, text);
    }
    await page.screenshot(shot('chat'));

    const history = region(page, 'History');
    await history.getByRole('button', { name: 'set size to large' }).click();
    await page
      .getByRole('region', { name: 'History' })
      .getByRole('button', { name: /^Rewind/ })
      .click();
    await say(page, 'set size to small');
    await say(page, 'set mood to calm');
    await history.getByRole('button', { name: 'set size to large' }).click();
    await region(page, 'Event log').locator('summary').first().click();
    await page.screenshot(shot('history'));

    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await chooseAgent(page, /workflow/i);
    await page.getByLabel('Message').fill('tea');
    await page.getByRole('button', { name: 'Send' }).click();
    await page
      .getByText(/^Critique:/)
      .first()
      .waitFor();
    await page.reload();
    await waitReady(page);
    await page.getByRole('button', { name: /^Resume/ }).waitFor();
    await page.screenshot(shot('resume'));

    await page.getByRole('button', { name: /^Resume/ }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await page.screenshot(shot('approval'));
    await page.getByRole('button', { name: 'Approve' }).click();

    await page.getByRole('button', { name: 'New session', exact: true }).click();
    await chooseAgent(page, /^research-brief \(example flow\)/);
    await page.getByLabel('Message').fill('Sourdough baking');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Approve' }).waitFor();
    await page.screenshot(shot('flow-run'));
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByText(/brief is saved/).waitFor();
    await page.getByRole('button', { name: 'Checkpoints' }).click();
    await page.screenshot(shot('checkpoints'));

    await page.getByRole('button', { name: 'Flows', exact: true }).click();
    await region(page, 'Flows')
      .getByRole('group', { name: /Canvas of/ })
      .first()
      .waitFor();
    await page.locator('.react-flow__node').first().waitFor();
    await page.screenshot(shot('flows'));

    // Real models: the fixture model server stands in for a local Ollama.
    const server = await startModelServer();
    try {
      await page.getByText('Settings', { exact: true }).click();
      await page.getByRole('button', { name: 'Providers', exact: true }).click();
      const providers = region(page, 'Providers');
      await providers.getByRole('button', { name: 'Add Ollama' }).click();
      await providers.getByLabel('Base URL').fill(`${server.url}/v1`);
      await providers.getByRole('button', { name: 'Test connection' }).click();
      await providers.getByRole('status', { name: 'Connection' }).waitFor();
      await providers.getByRole('button', { name: 'Save' }).click();
      await providers.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await page.screenshot(shot('providers'));

      await page.getByRole('button', { name: 'Agents', exact: true }).click();
      const agents = region(page, 'Agents');
      await agents.getByLabel('Name').fill('calc');
      await agents.getByLabel('Description').fill('Does sums, exactly.');
      await agents.getByLabel('Model').fill('fixture-calculator');
      await agents.getByLabel('Instruction').fill('Use the calculator for every sum.');
      const tools = agents.getByRole('group', { name: 'Tools' });
      await tools.getByLabel('calculator').check();
      await tools.getByLabel('current_time').check();
      await agents.getByRole('button', { name: 'Save' }).click();
      await agents.getByRole('status').filter({ hasText: 'Saved' }).waitFor();
      await page.screenshot(shot('agents'));

      // A real model's Markdown answer to a message with a picture, edited once (‹ 2 / 2 ›).
      await agents
        .getByRole('button', { name: 'New agent' })
        .click()
        .catch(() => undefined);
      await agents.getByLabel('Name').fill('writer');
      await agents.getByLabel('Description').fill('Answers in Markdown.');
      await agents.getByLabel('Model').fill('fixture-markdown');
      await agents.getByLabel('Instruction').fill('Answer in Markdown.');
      await agents.getByRole('group', { name: 'Tools' }).getByLabel('calculator').uncheck();
      await agents.getByRole('group', { name: 'Tools' }).getByLabel('current_time').uncheck();
      await agents.getByRole('button', { name: 'Save' }).click();
      await agents.getByRole('status').filter({ hasText: 'Saved “writer”' }).waitFor();
      await page.getByRole('button', { name: 'Agents', exact: true }).click();
      await page.getByRole('button', { name: 'New session', exact: true }).click();
      await chooseAgent(page, /^writer$/);
      await say(page, 'How do I read a file in Python?');
      await page.getByLabel('Message').focus();
      await page.keyboard.press('ArrowUp');
      await page.getByLabel('Message').fill('How do I read a file in Python, line by line?');
      await page.keyboard.press('Enter');
      await page.locator('.versions').filter({ hasText: '2 / 2' }).waitFor();
      await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
      await page.locator('.markdown pre code').first().waitFor();
      await page.locator('.message-row.row-user').last().hover();
      await page.waitForTimeout(300); // the actions fade in
      await page.screenshot(shot('markdown'));
    } finally {
      await server.close();
    }
  } finally {
    await browser.close();
  }
});

it('takes the phone screenshots, in dark mode', async () => {
  const browser = await launch({ viewport: { width: 390, height: 844 } });
  const { page } = browser;
  try {
    await openForShots(page);
    await page.locator('details.settings summary').click();
    await page.getByLabel('Theme').selectOption('dark');
    await page.locator('details.settings summary').click();
    for (const text of ['set color to red', 'save todo.txt as buy milk', 'what is color'])
      await say(page, text);
    await page.screenshot(shot('phone-dark'));
    await page
      .getByRole('navigation', { name: 'Panels' })
      .getByRole('button', { name: 'History' })
      .click();
    await region(page, 'History').getByRole('button', { name: 'what is color' }).click();
    await page.screenshot(shot('phone-history'));
  } finally {
    await browser.close();
  }
});

it('takes the ADK server screenshots, on a desktop and on a phone in dark mode', async () => {
  const server = await startAdkServer({ allowOrigins: [new URL(appUrl()).origin] });
  const browser = await launch({ viewport: { width: 1440, height: 860 } });
  const { page } = browser;
  const adkView = async () => {
    await page.locator('details.settings summary').click();
    await page.getByRole('button', { name: 'ADK servers', exact: true }).click();
    return region(page, 'ADK servers');
  };
  try {
    await openForShots(page);
    let view = await adkView();
    await view.getByLabel('Server address').fill(server.url);
    await view.getByRole('button', { name: 'Add server' }).click();
    await view.getByRole('status').filter({ hasText: 'Added' }).waitFor();
    await view
      .locator('.adk-apps > li')
      .filter({ hasText: 'echo' })
      .getByRole('button', { name: 'New session' })
      .click();
    await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
    for (const text of ['Plan a picnic', 'Add **lemonade** to the list', 'Make it Saturday'])
      await say(page, text);
    await region(page, 'History').getByRole('button', { name: 'Make it Saturday' }).click();
    await region(page, 'History')
      .getByRole('button', { name: /^Rewind/ })
      .click();
    await page
      .getByText(/^Rewound from/)
      .first()
      .waitFor();
    await say(page, 'Make it Sunday');
    await page.getByRole('button', { name: 'Trace' }).click();
    await page.getByRole('list', { name: 'Trace' }).waitFor();
    await page.screenshot(shot('adk-session'));

    view = await adkView();
    await view
      .locator('.adk-apps > li')
      .filter({ hasText: 'echo' })
      .getByRole('button', { name: 'Sessions' })
      .click();
    await view
      .getByRole('list', { name: 'Sessions of echo' })
      .getByRole('button')
      .first()
      .waitFor();
    await page.screenshot(shot('adk-servers'));
    await view.getByRole('list', { name: 'Sessions of echo' }).getByRole('button').first().click();
    await page.getByText(/On the ADK server/).waitFor();

    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('details.settings summary').click();
    await page.getByLabel('Theme').selectOption('dark');
    await page.locator('details.settings summary').click();
    await page.screenshot(shot('adk-phone-dark'));
  } finally {
    await browser.close();
    await server.stop();
  }
});

it('takes the Flowise import screenshot', async () => {
  const browser = await launch({ viewport: { width: 1440, height: 860 } });
  const { page } = browser;
  try {
    await openForShots(page);
    await page.getByRole('button', { name: 'Flows', exact: true }).click();
    const flows = region(page, 'Flows');
    await flows.getByLabel('Import Flowise flow…').setInputFiles(flowiseTriageFile);
    await flows.getByRole('region', { name: 'Import report' }).waitFor();
    await flows.getByRole('group', { name: 'Canvas of Triage' }).waitFor();
    await flows.locator('.react-flow__node').first().waitFor();
    await page.screenshot(shot('flowise-import'));
    await flows.locator('.react-flow__node[data-id="route"]').click();
    const form = flows.getByRole('region', { name: 'Node route' });
    await form.scrollIntoViewIfNeeded();
    await page.screenshot(shot('node-form'));
  } finally {
    await browser.close();
  }
});

it('takes the flow canvas screenshots, light and dark, desktop and phone', async () => {
  for (const [name, viewport, dark] of [
    ['flow-canvas', { width: 1440, height: 900 }, false],
    ['flow-canvas-dark', { width: 1440, height: 900 }, true],
    ['flow-canvas-phone', { width: 390, height: 844 }, false],
  ] as const) {
    const browser = await launch({ viewport });
    const { page } = browser;
    try {
      if (dark) await page.emulateMedia({ colorScheme: 'dark' });
      await openForShots(page);
      const flows = await duplicateSupport(page);
      await flows.locator('.react-flow__node').first().waitFor();
      await flows.getByRole('button', { name: /^billing agent/ }).click();
      await flows.locator('.canvas-pane').scrollIntoViewIfNeeded();
      await page.screenshot(shot(name));
    } finally {
      await browser.close();
    }
  }
});

it('takes the tool server screenshots: Settings on a desktop and on a phone in dark mode, and an agent given some tools', async () => {
  const mcp = await startMcpServer();
  try {
    for (const [name, viewport, dark] of [
      ['tool-servers', { width: 1440, height: 900 }, false],
      ['tool-servers-phone-dark', { width: 390, height: 844 }, true],
    ] as const) {
      const browser = await launch({ viewport });
      const { page } = browser;
      try {
        if (dark) await page.emulateMedia({ colorScheme: 'dark' });
        await openForShots(page);
        await page.getByText('Settings', { exact: true }).click();
        await page.getByRole('button', { name: 'Tool servers', exact: true }).click();
        const servers = region(page, 'Tool servers');
        await servers.getByLabel('Name', { exact: true }).fill('Local MCP');
        await servers.getByLabel('Server URL').fill(mcp.url);
        await servers.getByLabel('Header value 1').fill('Bearer my-token-2a44');
        await servers.getByRole('button', { name: 'Test connection' }).click();
        await servers
          .getByRole('status')
          .filter({ hasText: /^Connected/ })
          .waitFor();
        await servers.getByLabel('broken', { exact: true }).uncheck();
        await servers.getByRole('button', { name: 'Save' }).click();
        await servers
          .getByRole('status')
          .filter({ hasText: /^Saved/ })
          .waitFor();
        await page.screenshot(shot(name));
        if (dark) continue;
        await page.getByRole('button', { name: 'Agents', exact: true }).click();
        const agents = region(page, 'Agents');
        await agents.getByLabel('Name', { exact: true }).fill('helper');
        const group = agents.getByRole('group', { name: 'Tool servers' });
        await group.getByLabel('Local MCP').check();
        await group.getByLabel('All its tools').uncheck();
        for (const tool of ['picture', 'slow', 'secret', 'grow'])
          await group.getByLabel(tool, { exact: true }).uncheck();
        await group.scrollIntoViewIfNeeded();
        await page.screenshot(shot('agent-tool-servers'));
      } finally {
        await browser.close();
      }
    }
  } finally {
    await mcp.close();
  }
});

it('takes the trace screenshots: a desktop with a span chosen, and a phone in dark mode', async () => {
  for (const [name, viewport, dark] of [
    ['trace', { width: 1440, height: 900 }, false],
    ['trace-phone-dark', { width: 390, height: 844 }, true],
  ] as const) {
    const browser = await launch({ viewport });
    const { page } = browser;
    try {
      if (dark) await page.emulateMedia({ colorScheme: 'dark' });
      await openForShots(page);
      await chooseAgent(page, /workflow/i);
      await page.getByLabel('Message').fill('tea');
      await page.getByRole('button', { name: 'Send' }).click();
      await region(page, 'Pending approvals').getByRole('button', { name: 'Approve' }).click();
      await page.getByText(/complete/).waitFor();
      await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
      if (dark)
        await page
          .getByRole('navigation', { name: 'Panels' })
          .getByRole('button', { name: 'History' })
          .click();
      const history = region(page, 'History');
      await history.getByRole('button', { name: 'tea' }).click();
      await history.getByRole('button', { name: 'Trace' }).click();
      const spans = region(page, 'Trace').getByRole('list', { name: 'Spans' });
      // On a phone the details open below the waterfall (scrolled to): the shot shows the rows.
      if (dark) await spans.getByRole('button').first().waitFor();
      else {
        await spans.getByRole('button').nth(3).click();
        await region(page, 'Span details').getByRole('heading', { name: 'Response' }).waitFor();
      }
      await page.screenshot(shot(name));
    } finally {
      await browser.close();
    }
  }
});

it('takes the local model screenshots: a loaded model in Settings, on a desktop and on a phone in dark mode', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'trellis-shots-'));
  const file = join(directory, 'qwen2.5-0.5b-instruct-q4_k_m.gguf');
  writeFileSync(file, tinyGguf());
  try {
    for (const [name, viewport, dark] of [
      ['local-model', { width: 1440, height: 900 }, false],
      ['local-model-phone-dark', { width: 390, height: 844 }, true],
    ] as const) {
      const browser = await launch({ viewport });
      const { page } = browser;
      try {
        if (dark) await page.emulateMedia({ colorScheme: 'dark' });
        await openForShots(page);
        const providers = await addLocalModelFiles(page, file);
        await providers.getByRole('button', { name: 'Load', exact: true }).click();
        const state = providers.getByLabel('Local model state');
        await state.filter({ hasText: /^Loaded/ }).waitFor({ timeout: 60_000 });
        await state.scrollIntoViewIfNeeded();
        await page.screenshot(shot(name));
      } finally {
        await browser.close();
      }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
});

it('takes the workflow screenshots: the help desk waiting for its review, desktop and phone in dark mode', async () => {
  for (const [name, viewport, dark] of [
    ['workflow', { width: 1440, height: 900 }, false],
    ['workflow-phone-dark', { width: 390, height: 844 }, true],
  ] as const) {
    const browser = await launch({ viewport });
    const { page } = browser;
    try {
      if (dark) await page.emulateMedia({ colorScheme: 'dark' });
      await openForShots(page);
      await chooseAgent(page, /Help desk/);
      await page.getByLabel('Message').fill('I was charged twice');
      await page.getByRole('button', { name: 'Send' }).click();
      await page
        .getByRole('region', { name: 'Waiting for your reply' })
        .getByText('Send this reply to the customer?')
        .waitFor();
      if (!dark) {
        await region(page, 'Flow')
          .getByRole('img', { name: /^review function · waiting/ })
          .waitFor();
      }
      await page.screenshot(shot(name));
    } finally {
      await browser.close();
    }
  }
});
