// A long, branchy session stays smooth: 1,000 turns and 50 branches, opened, paged back,
// rewound and continued, with the main thread's long tasks measured (reported, not asserted).
// The page reads the end of it (the last 50 turns of the active path and the first turn of each
// branch that leaves them), and earlier turns when asked.

import { mkdirSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  ScriptedModel,
  toSessionFile,
  type Event,
} from '../../src/index.ts';
import { collect } from '../support/helpers.ts';
import { appUrl, longTasks, pageNow, region, waitReady, watchLongTasks } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

const TURNS = 1000;
const BRANCHES = 50;

/** A session file of TURNS turns of the state keeper, rewound BRANCHES times (10 turns back). */
async function bigSessionFile(): Promise<string> {
  const agent = new LlmAgent({
    name: 'state_keeper',
    model: new ScriptedModel((request) => `noted: ${request.contents.at(-1)!.parts[0]!.text}`),
  });
  const runner = new InMemoryRunner({ agent, appName: 'trellis' });
  const session = await runner.sessionService.createSession({
    appName: 'trellis',
    userId: 'local',
  });
  const turnIds: string[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const [answer] = (await collect(
      runner.runAsync({
        userId: 'local',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: `turn ${turn}` }] },
      }),
    )) as [Event];
    turnIds.push(answer.invocationId);
    if (turn % (TURNS / BRANCHES) === TURNS / BRANCHES - 1) {
      await runner.rewindAsync({
        userId: 'local',
        sessionId: session.id,
        rewindBeforeInvocationId: turnIds.at(-10)!,
      });
    }
  }
  const full = await runner.sessionService.getSession({
    appName: 'trellis',
    userId: 'local',
    sessionId: session.id,
  });
  return toSessionFile(full!, { title: 'Big session', agentId: 'state-keeper' });
}

it('opens, rewinds and continues a session of 1,000 turns and 50 branches without long stalls', async () => {
  const file = await bigSessionFile();
  const { page } = browser;
  await watchLongTasks(page);
  await page.goto(appUrl());
  await waitReady(page);
  const now = () => pageNow(page);
  const longestSince = async (start: number) => Math.max(0, ...(await longTasks(page, start)));
  const importStart = await now();
  // From a file on disk, as a user picks one: a file given as a buffer is rebuilt inside the
  // page by Playwright's own script, a 110–165 ms long task that is the harness's, not the app's.
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/big.json', file);
  await page.getByLabel('Import session…').setInputFiles('test-results/big.json');
  await page.getByText('Imported “Big session”.').waitFor({ timeout: 60_000 });
  const opened = await now();
  const history = region(page, 'History');
  const active = history.locator('.turn.active');
  // 500 turns on the active path: the last ten were rewound away at the end, ten more at each
  // of the 50 rewinds. A branch leaves the path every 10 turns: 5 of them by the last 50 turns.
  expect(await active.count()).toBe(50);
  expect(await active.first().innerText()).toBe('turn 900');
  expect(await history.locator('.turn.abandoned').count()).toBe(5);
  const openFigures = {
    importAndOpenMs: opened - importStart,
    longestTaskMs: await longestSince(importStart),
  };

  await history.getByRole('button', { name: 'Show earlier turns' }).click();
  await expect.poll(() => active.count()).toBe(100);
  expect(await active.first().innerText()).toBe('turn 800');

  // The chat shows the last 50 active events (25 turns here), earlier ones on request.
  const chat = region(page, 'Conversation');
  expect(await chat.locator('.message').count()).toBe(50);
  await chat.getByRole('button', { name: 'Show earlier messages' }).click();
  await expect.poll(() => chat.locator('.message').count()).toBe(150);

  // The event log reads the raw log a page at a time, newest first.
  const log = region(page, 'Event log');
  const lines = log.locator('ol > li:not(.earlier)');
  await log.locator('summary').first().click();
  await expect.poll(() => lines.count()).toBe(100);
  expect(await lines.last().innerText()).toMatch(/Rewound to before “turn 990”/);
  await log.getByRole('button', { name: /^Show earlier events/ }).click();
  await expect.poll(() => lines.count()).toBe(200);
  await log.locator('summary').first().click();

  const rewindStart = await now();
  // The last ten turns were rewound away at the end; rewind five more of the active ones.
  await history.getByRole('button', { name: 'turn 985', exact: true }).click();
  await page
    .getByRole('region', { name: 'History' })
    .getByRole('button', { name: /^Rewind/ })
    .click();
  await expect.poll(() => active.last().innerText()).toBe('turn 984');
  expect(await region(page, 'Conversation').locator('.message p').last().innerText()).toBe(
    'noted: turn 984',
  );
  const rewindFigures = { longestTaskMs: await longestSince(rewindStart) };

  // Measured with plain CSS waits: role queries walk the whole page on every poll, and would
  // be the long tasks measured.
  await page.locator('[aria-label="Message"]').fill('set color to red');
  const turnStart = await now();
  await page.locator('.composer button[type="submit"]').click();
  await page.waitForSelector('.composer button.danger', { state: 'detached' });
  await page.waitForSelector('.composer button[type="submit"]:enabled');
  const turnFigures = { longestTaskMs: await longestSince(turnStart) };

  const figures = {
    turns: TURNS,
    branches: BRANCHES,
    open: openFigures,
    rewind: rewindFigures,
    turn: turnFigures,
  };
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/big-session.json', JSON.stringify(figures, null, 2));
  console.log('big session:', JSON.stringify(figures));
  expect(browser.errors).toEqual([]);
});
