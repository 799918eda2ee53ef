// Figures of the production app in headless Chromium, driven as a user would: page load → ready,
// a reload in the middle of a run → the resumed run's first event, and the main thread's long
// tasks during a 200-turn conversation. Times come from the page's own clock, recorded by a
// probe installed before the app's scripts: nothing in the app is changed for the bench.

import type { Page } from 'playwright-core';
import { launch } from '../../e2e/browser.ts';
import { traceLongTasks, type LongTaskTrace } from './long-task-trace.ts';

interface Broadcast {
  at: number;
  type: string;
  sessionId?: string;
  busy?: boolean;
}

interface ProbeState {
  /** The app is ready (test/e2e/app-page.ts waitReady): the Message box is enabled. */
  readyAt?: number;
  /** The first streamed text shown after ready. */
  firstStreamAt?: number;
  /** What every tab's runtime worker says on the app's BroadcastChannel, as it says it. */
  broadcasts: Broadcast[];
  longTasks: { start: number; duration: number }[];
}

/** Runs in the page before the app (addInitScript); keep it self-contained. */
function installProbe() {
  const state: ProbeState = { broadcasts: [], longTasks: [] };
  (window as unknown as { __bench: ProbeState }).__bench = state;
  const observer = new MutationObserver(() => {
    if (state.readyAt === undefined) {
      if (document.querySelector('[aria-label="Message"]:not([disabled])'))
        state.readyAt = performance.now();
    } else if (state.firstStreamAt === undefined) {
      if (document.querySelector('.chat .message.streaming')) {
        state.firstStreamAt = performance.now();
        observer.disconnect(); // nothing left to watch: it costs the long-task run nothing
      }
    }
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
  new BroadcastChannel('trellis').onmessage = (message: MessageEvent<Omit<Broadcast, 'at'>>) =>
    state.broadcasts.push({ at: performance.now(), ...message.data });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      state.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const probe = (page: Page) =>
  page.evaluate(() => (window as unknown as { __bench: ProbeState }).__bench);

async function readyAt(page: Page): Promise<number> {
  await page.waitForFunction(
    () => (window as unknown as { __bench: ProbeState }).__bench.readyAt !== undefined,
  );
  return (await probe(page)).readyAt!;
}

const submit = '.composer button[type="submit"]';
const eventCount = (page: Page) =>
  page.evaluate(() =>
    Number.parseInt(document.querySelector('.event-log .hint')?.textContent ?? '0', 10),
  );

/** A new session talking to `agentId`, as a user makes one (New session, then Agent). */
async function newSession(page: Page, agentId: string): Promise<void> {
  const sessions = await page.locator('.sessions li').count();
  await page.click('.sessions-head button');
  await page.waitForFunction(
    (before) =>
      document.querySelectorAll('.sessions li').length > before &&
      document.querySelector('.sessions li')?.classList.contains('current') &&
      document.querySelector('.event-log .hint')?.textContent === '0 events',
    sessions,
  );
  await page.selectOption('.agent-select select', agentId);
  await page.waitForFunction(
    (id) => (document.querySelector('.agent-select select') as HTMLSelectElement).value === id,
    agentId,
  );
}

/** Sends a message and waits until the run has ended and its events are shown. */
async function say(page: Page, text: string): Promise<void> {
  const before = await eventCount(page);
  await page.fill('[aria-label="Message"]', text);
  await page.click(submit);
  await page.waitForFunction(
    ([selector, count]) =>
      Number.parseInt(document.querySelector('.event-log .hint')?.textContent ?? '0', 10) > count &&
      document.querySelector(`${selector}:not([disabled])`) !== null,
    [submit, before] as const,
  );
}

export interface LoadSamples {
  /** Navigation start → ready, a first visit (fresh profile: no cache, no service worker). */
  firstVisitMs: number[];
  /** Navigation start → ready, a reload (service worker and HTTP cache warm). */
  reloadMs: number[];
  /** Navigation start → DOMContentLoaded of the same reloads. */
  reloadDomContentLoadedMs: number[];
}

export async function measureLoad(appUrl: string, runs: number): Promise<LoadSamples> {
  const samples: LoadSamples = { firstVisitMs: [], reloadMs: [], reloadDomContentLoadedMs: [] };
  for (let run = 0; run < runs; run++) {
    const browser = await launch();
    try {
      await browser.page.addInitScript(installProbe);
      await browser.page.goto(appUrl);
      samples.firstVisitMs.push(await readyAt(browser.page));
    } finally {
      await browser.close();
    }
  }
  const browser = await launch();
  try {
    const { page } = browser;
    await page.addInitScript(installProbe);
    await page.goto(appUrl);
    await readyAt(page);
    await page
      .waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, {
        timeout: 10_000,
      })
      .catch(() => undefined); // without a controlling worker the reloads are still reloads
    for (let run = 0; run < runs + 1; run++) {
      await page.reload();
      const ready = await readyAt(page);
      const loaded = await page.evaluate(
        () =>
          (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming)
            .domContentLoadedEventEnd,
      );
      if (run === 0) continue; // the first reload installs the service worker's cache
      samples.reloadMs.push(ready);
      samples.reloadDomContentLoadedMs.push(loaded);
    }
  } finally {
    await browser.close();
  }
  return samples;
}

export interface ResumeSamples {
  /** Ready → the resumed run holds its session (the worker says busy): the runtime's latency. */
  runStartMs: number[];
  /** Ready → the first streamed text of the resumed run on screen. */
  firstStreamMs: number[];
  /** Ready → the resumed run's first stored event (the worker says the session changed). */
  firstEventMs: number[];
}

const AUTO_RESUME = 'Resume interrupted runs automatically after a reload';
const INSTANT_DEMOS = 'Instant demos (no pause per step)';

/** Sets a checkbox of the Settings menu (opening the menu if needed). */
async function setSetting(page: Page, label: string, on: boolean): Promise<void> {
  if (!(await page.locator('details.settings').evaluate((menu) => menu.hasAttribute('open'))))
    await page.click('.settings summary');
  await page.getByLabel(label).setChecked(on);
  await page.waitForFunction(
    ([text, wanted]) =>
      [...document.querySelectorAll<HTMLLabelElement>('.settings label')].some(
        (label) =>
          label.textContent?.includes(text) && label.querySelector('input')?.checked === wanted,
      ),
    [label, on] as const,
  );
}

/**
 * The writing workflow, reloaded while its critic works, with Settings → "Resume interrupted
 * runs automatically" on: times from ready to the resumed run's first signs. With `pace`
 * `visible` the demo model pauses 600 ms before each answer (thinkMs), so its first event cannot
 * come sooner; with `instant` (Settings → instant demos, switched on just before the reload) the
 * resumed run's model answers at once, so what is left is the app's own latency.
 */
export async function measureResume(
  appUrl: string,
  runs: number,
  pace: 'visible' | 'instant',
): Promise<ResumeSamples> {
  const samples: ResumeSamples = { runStartMs: [], firstStreamMs: [], firstEventMs: [] };
  const browser = await launch();
  try {
    const { page } = browser;
    await page.addInitScript(installProbe);
    await page.goto(appUrl);
    await readyAt(page);
    await setSetting(page, AUTO_RESUME, true);
    await page.reload();
    await readyAt(page);
    if (!(await page.getByLabel(AUTO_RESUME).isChecked()))
      throw new Error('Bench setup: auto-resume did not stay on after a reload');
    for (let run = 0; run < runs; run++) {
      await setSetting(page, INSTANT_DEMOS, false);
      await newSession(page, 'writing-workflow');
      await page.fill('[aria-label="Message"]', `topic ${run}`);
      await page.click(submit);
      await page.locator('.chat .message p', { hasText: /^Critique:/ }).waitFor();
      if (pace === 'instant') await setSetting(page, INSTANT_DEMOS, true);
      await page.reload();
      const ready = await readyAt(page);
      await page.waitForFunction(() => {
        const { broadcasts } = (window as unknown as { __bench: ProbeState }).__bench;
        const start = broadcasts.findIndex((b) => b.type === 'busy-changed' && b.busy);
        return start >= 0 && broadcasts.slice(start).some((b) => b.type === 'session-changed');
      });
      // Wait until the run pauses for approval, so that nothing is left running.
      await page
        .locator('button', { hasText: /^Approve$/ })
        .first()
        .waitFor();
      const { broadcasts, firstStreamAt } = await probe(page);
      const start = broadcasts.findIndex((b) => b.type === 'busy-changed' && b.busy);
      const firstEvent = broadcasts.slice(start).find((b) => b.type === 'session-changed')!;
      samples.runStartMs.push(broadcasts[start]!.at - ready);
      samples.firstEventMs.push(firstEvent.at - ready);
      if (firstStreamAt !== undefined) samples.firstStreamMs.push(firstStreamAt - ready);
    }
  } finally {
    await browser.close();
  }
  return samples;
}

export interface LongTaskFigures {
  turns: number;
  events: number;
  /** Every long task (> 50 ms) during the run, in ms. */
  durations: number[];
  /** The longest task during the first and the last quarter of the turns. */
  longestFirstQuarterMs: number;
  longestLastQuarterMs: number;
  /** Each turn, message sent → its events shown. */
  turnMs: number[];
  /** What the long tasks were made of (the page was traced during the turns). */
  trace: LongTaskTrace;
}

/**
 * The state keeper, 200 messages in one session, as fast as the user can send them, traced
 * (the DevTools timeline categories: a little overhead on every task, long ones included).
 */
export async function measureLongTasks(appUrl: string, turns: number): Promise<LongTaskFigures> {
  const browser = await launch();
  try {
    const { page } = browser;
    await page.addInitScript(installProbe);
    await page.goto(appUrl);
    await readyAt(page);
    await newSession(page, 'state-keeper');
    const now = () => page.evaluate(() => performance.now());
    const starts: number[] = [];
    const turnMs: number[] = [];
    const stopTrace = await traceLongTasks(page);
    for (let turn = 0; turn < turns; turn++) {
      const text = turn % 4 === 3 ? `what is key${turn % 20}` : `set key${turn % 20} to ${turn}`;
      const start = await now();
      starts.push(start);
      await say(page, text);
      turnMs.push((await now()) - start);
    }
    const trace = await stopTrace();
    const { longTasks } = await probe(page);
    const during = longTasks.filter((task) => task.start >= starts[0]!);
    const quarter = Math.floor(turns / 4);
    const longest = (from: number, to: number) =>
      Math.max(0, ...during.filter((t) => t.start >= from && t.start < to).map((t) => t.duration));
    return {
      turns,
      events: await eventCount(page),
      durations: during.map((task) => task.duration),
      longestFirstQuarterMs: longest(starts[0]!, starts[quarter]!),
      longestLastQuarterMs: longest(starts[turns - quarter]!, Infinity),
      turnMs,
      trace,
    };
  } finally {
    await browser.close();
  }
}
