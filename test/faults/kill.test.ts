// Hard kills: the whole Chromium killed (SIGKILL to its process group) at a random moment of a
// run, then relaunched on the same profile, as a user's browser dies and comes back. Each kill
// must leave an app that opens, a log without repeats whose state is its replay, every call
// answered at most once, everything the page showed as saved still there, and a cut-off run
// offered, which Resume finishes, clearing the offer. A kill before anything was stored is a
// valid case, not a failure.
//
// TRELLIS_KILLS (default 10) sets the number of kills; TRELLIS_KILL_SEED repeats a run (the seed
// is printed); `npm run test:faults` runs 100.

import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { appUrl, chooseAgent, region, waitReady } from '../e2e/app-page.ts';
import { startChromium, type ChromiumProcess } from './chromium-process.ts';
import { artifactProblems, logProblems } from './log-checks.ts';
import { functionResponsesOf, textOf } from '../../src/core/content.ts';
import { missing, readStore, shownNow, watchShown, type Shown, type Store } from './page-record.ts';

const KILLS = Number(process.env['TRELLIS_KILLS'] ?? 10);
const SEED = Number(process.env['TRELLIS_KILL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));

interface Scenario {
  name: string;
  agent: RegExp;
  /** The message of case `i` (its session's title, so that its Resume button can be found). */
  message(i: number): string;
  /** Gets the run to the point where one click starts what is killed. */
  prepare(page: Page, message: string): Promise<void>;
  /** The button that click presses (a CSS selector: it is pressed from inside the page). */
  button: string;
  /** The kill lands 0 to this many ms after that click. */
  window: number;
}

const send = async (page: Page, message: string) => {
  await page.getByLabel('Message').fill(message);
  await page.getByRole('button', { name: 'Send' }).click();
};

const SCENARIOS: Scenario[] = [
  {
    name: 'the Writing workflow, a turn',
    agent: /workflow/i,
    message: (i) => `Tea ${i}`,
    prepare: (page, message) => page.getByLabel('Message').fill(message),
    button: '.composer button.primary',
    window: 30,
  },
  {
    name: "the support flow, an approval's answer",
    agent: /^support \(example flow\)/,
    message: (i) => `Is invoice INV-1042 paid? Case ${i}`,
    async prepare(page, message) {
      await send(page, message);
      await region(page, 'Pending approvals').getByRole('button', { name: 'Approve' }).waitFor();
    },
    button: '.approvals li.approval button.primary',
    window: 12,
  },
  {
    name: "the Writing workflow, an approval's answer (publishes post.md)",
    agent: /workflow/i,
    message: (i) => `Kites ${i}`,
    async prepare(page, message) {
      await send(page, message);
      await region(page, 'Pending approvals').getByRole('button', { name: 'Approve' }).waitFor();
    },
    button: '.approvals li.approval button.primary',
    window: 12,
  },
];

/** A small seeded generator (mulberry32): the same seed, the same kills. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function openApp(page: Page): Promise<void> {
  await page.goto(appUrl());
  await waitReady(page);
}

/** The first launch of the profile: demos at full speed. */
async function setUp(browser: ChromiumProcess): Promise<void> {
  const { page } = browser;
  await openApp(page);
  await page.getByText('Settings', { exact: true }).click();
  await page.getByLabel('Instant demos (no pause per step)').check();
  await page.getByText('Settings', { exact: true }).click();
}

/**
 * Opens a new session, and waits until it is the open one: choosing the agent before that would
 * choose it for the session still open (the workbench acts on the open session).
 */
async function newSession(page: Page): Promise<void> {
  const sessions = page.locator('nav.sessions li');
  const before = await sessions.count();
  await page.getByRole('button', { name: 'New session', exact: true }).click();
  await expect
    .poll(
      async () =>
        (await sessions.count()) > before &&
        (await sessions.first().getAttribute('class')) === 'current',
    )
    .toBe(true);
}

interface CaseResult {
  /** What the kill found stored of the case: nothing, or the run cut off or not. */
  outcome: string;
  problems: string[];
}

/** One kill: start the run, kill at `delay`, relaunch, check, resume. */
async function killCase(
  profile: string,
  scenario: Scenario,
  i: number,
  delay: number,
): Promise<CaseResult> {
  const message = scenario.message(i);
  const problems: string[] = [];
  let shown: Shown;
  const first = await startChromium(profile);
  try {
    if (i === 0) await setUp(first);
    else await openApp(first.page);
    const { page } = first;
    try {
      await newSession(page);
      await chooseAgent(page, scenario.agent);
      await scenario.prepare(page, message);
    } catch (error) {
      // Not a kill's doing (nothing was killed yet): the page as it was, for the report.
      mkdirSync('test-results', { recursive: true });
      await page.screenshot({ path: `test-results/kill-${i}-setup.png` }).catch(() => undefined);
      const text = await page
        .locator('body')
        .innerText()
        .catch(() => '(no page)');
      throw new Error(
        `kill ${i}: the run could not be set up: ${String(error)}\n${text.slice(0, 2000)}\nerrors: ${first.errors.join('; ')}`,
      );
    }
    const watch = await watchShown(page);
    // Pressed from inside the page: the run starts at once, not after Playwright's own checks.
    await page.evaluate((selector) => {
      const button = document.querySelector<HTMLButtonElement>(selector);
      if (!button || button.disabled) throw new Error(`No button to press at ${selector}`);
      button.click();
    }, scenario.button);
    await sleep(delay);
    const last = await shownNow(page).catch(() => undefined);
    const streamed = watch.latest();
    // What was shown at the kill: the read just before it, else the last that arrived.
    shown = last && last.saved.length >= streamed.saved.length ? last : streamed;
  } finally {
    await first.kill();
  }

  const second = await startChromium(profile);
  try {
    const { page } = second;
    try {
      await openApp(page);
    } catch (error) {
      // What the page showed, and what it logged, say why (the worker, the store or a lock).
      const text = await page
        .locator('body')
        .innerText()
        .catch(() => '(no page)');
      const why = `${String(error)}\n${text.slice(0, 1500)}\nerrors: ${second.errors.join('; ')}`;
      return { outcome: 'app did not open', problems: [`the app did not open: ${why}`] };
    }
    const store = await readStore(page);
    for (const session of store.sessions)
      for (const problem of logProblems(session)) problems.push(`${session.record.id}: ${problem}`);
    // The case's session is the newest one, which the app opens.
    const after = await shownNow(page);
    for (const item of missing(shown.saved, after.saved))
      problems.push(`shown before the kill, gone after it: ${item}`);
    const cutOff = store.runs.filter(
      (run) => run.status === 'running' || run.status === 'interrupted',
    );
    // Resume is offered at the end of the cut-off turn in the chat, and in the banner for the
    // session's other runs.
    const resume = page.getByRole('button', { name: /^Resume/ });
    let outcome =
      cutOff.length > 0
        ? 'cut off'
        : started(store, scenario, message)
          ? 'done before the kill'
          : 'killed before it was stored';
    if (cutOff.length > 0) {
      try {
        await resume.first().waitFor({ timeout: 10_000 });
      } catch {
        problems.push(`a run was cut off (${JSON.stringify(cutOff)}), and no Resume is offered`);
        return { outcome, problems };
      }
      for (let round = 0; round < cutOff.length + 2 && (await resume.count()) > 0; round++) {
        await resume.first().click();
        await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
        // The banner is read again once the run has ended.
        for (let waited = 0; waited < 5_000 && (await resume.count()) > 0; waited += 100)
          await sleep(100);
      }
      const left = (await readStore(page)).runs.filter(
        (run) => run.status === 'running' || run.status === 'interrupted',
      );
      if (left.length > 0) problems.push(`Resume left runs cut off: ${JSON.stringify(left)}`);
      if ((await resume.count()) > 0) problems.push('Resume is still offered after resuming');
      const resumed = await readStore(page);
      for (const problem of artifactProblems(resumed)) problems.push(`after Resume, ${problem}`);
      for (const session of resumed.sessions)
        for (const problem of logProblems(session))
          problems.push(`after Resume, ${session.record.id}: ${problem}`);
      outcome = 'cut off, resumed';
    } else {
      if ((await resume.count()) > 0) problems.push('Resume is offered, but no run was cut off');
      // A run cut off between a tool's save and its answer leaves a version no event names yet:
      // its resume names it (the tool gets it back). With nothing cut off, there is none.
      problems.push(...artifactProblems(store));
    }
    if (shown.saved.length === 0 && shown.unsaved.length > 0) outcome += ', nothing saved shown';
    return { outcome, problems };
  } finally {
    await second.close();
  }
}

/** Whether what `act` did reached the store: the message sent, or the approval's answer. */
function started(store: Store, scenario: Scenario, message: string): boolean {
  const session = store.sessions.find(({ events }) =>
    events.some(({ event }) => event.author === 'user' && textOf(event.content) === message),
  );
  if (!session) return false;
  if (!scenario.name.includes('approval')) return true;
  return session.events.some(
    ({ event }) => event.author === 'user' && functionResponsesOf(event.content).length > 0,
  );
}

it(
  `survives ${KILLS} hard kills of the browser mid-run (seed ${SEED})`,
  async () => {
    console.log(`hard kills: seed ${SEED} (TRELLIS_KILL_SEED=${SEED} repeats this run)`);
    const random = seeded(SEED);
    const profile = mkdtempSync(join(tmpdir(), 'trellis-kills-'));
    const anomalies: string[] = [];
    const outcomes = new Map<string, number>();
    let tried = 0;
    let passed = 0;
    try {
      for (let i = 0; i < KILLS; i++) {
        const scenario = SCENARIOS[i % SCENARIOS.length]!;
        const delay = Math.floor(random() * scenario.window);
        const { outcome, problems } = await killCase(profile, scenario, i, delay);
        tried++;
        outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        if (problems.length === 0) passed++;
        for (const problem of problems)
          anomalies.push(`kill ${i} (${scenario.name}, at ${delay} ms): ${problem}`);
        console.log(
          `kill ${i}: ${scenario.name}, at ${delay} ms: ${outcome}, ${problems.length} anomalies`,
        );
      }
    } finally {
      rmSync(profile, { recursive: true, force: true });
      const kinds = [...outcomes].map(([outcome, count]) => `${count} ${outcome}`).join(', ');
      console.log(
        `hard kills: ${tried} tried, ${passed} passed, ${anomalies.length} anomalies (${kinds})`,
      );
      for (const anomaly of anomalies) console.log(`  ${anomaly}`);
    }
    expect(anomalies).toEqual([]);
  },
  KILLS * 30_000 + 60_000,
);
