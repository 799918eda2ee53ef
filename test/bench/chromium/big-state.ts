// Issue 19's third target: "a state value of 1 MB costs the page nothing more than a small one".
// The production app, driven as a user would: a state keeper session imported with one key `big`
// (a short text, a 1 MB text or a 1 MB JSON object) set 30 turns back, then turns of
// `set k to <n>`. Per turn, what the page's main thread spends (its own CPU time, from the
// DevTools protocol's Performance metrics in thread ticks, so a loaded machine does not stretch
// it) and how much the worker sends the page (every message the page receives from the runtime
// worker and from the ports of its callbacks, sized by a walk of what arrived).

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { launch } from '../../e2e/browser.ts';

export const BIG_STATE_KINDS = ['small', '1 MB text', '1 MB object'] as const;
export type BigStateKind = (typeof BIG_STATE_KINDS)[number];

/** Turns before the measured ones: their events push the one that set `big` out of the tail. */
const FILLER_TURNS = 30;
const MB = 1024 * 1024;

export interface BigStateSample {
  kind: BigStateKind;
  turns: number;
  /** The main thread's CPU time per turn (Performance metrics in thread ticks). */
  taskMs: number;
  /** Of which JavaScript. */
  scriptMs: number;
  /** Message sent → its run ended and the state shows it, per turn (wall; the worker's too). */
  turnMs: number;
  /** What the page received from the worker per warmup turn (estimated: `sizeOf` in the probe). */
  bytes: number;
}

/** The value of `big` in each session. */
function valueOf(kind: BigStateKind): unknown {
  if (kind === 'small') return 'a short text';
  if (kind === '1 MB text')
    return 'lorem ipsum dolor sit amet '.repeat(Math.ceil(MB / 27)).slice(0, MB);
  // Records as an agent keeps them: about 1 MB of JSON.
  const records = [];
  for (let i = 0; JSON.stringify(records).length < MB - 200; i++)
    records.push({ id: i, name: `item ${i}`, done: i % 3 === 0, tags: ['alpha', 'beta'], n: i });
  return { records };
}

/** A state keeper session file: `big` set by its first turn, then filler turns. */
function sessionFile(dir: string, kind: BigStateKind): string {
  const start = Date.now() - (FILLER_TURNS + 1) * 2000;
  const events = Array.from({ length: FILLER_TURNS + 1 }, (_, turn) => [
    {
      id: `u${turn}`,
      invocationId: `i${turn}`,
      author: 'user',
      timestamp: start + turn * 2000,
      content: { role: 'user', parts: [{ text: `turn ${turn}` }] },
      actions: { stateDelta: {}, artifactDelta: {} },
    },
    {
      id: `a${turn}`,
      invocationId: `i${turn}`,
      author: 'state_keeper',
      timestamp: start + turn * 2000 + 1000,
      content: { role: 'model', parts: [{ text: `noted: turn ${turn}` }] },
      actions: { stateDelta: turn === 0 ? { big: valueOf(kind) } : {}, artifactDelta: {} },
    },
  ]).flat();
  const title = `Big state: ${kind}`;
  const path = join(dir, `${kind.replace(/\W+/g, '-')}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      id: `big-state-${kind.replace(/\W+/g, '-')}`,
      appName: 'trellis',
      userId: 'local',
      state: {},
      events,
      lastUpdateTime: Date.now(),
      trellis: { format: 'trellis-session', version: 1, title, agentId: 'state-keeper' },
    }),
  );
  return path;
}

interface Probe {
  counting: boolean;
  bytes: number;
}

/**
 * Runs in the page before the app (addInitScript); keep it self-contained. Sizes every message
 * the page receives on a Worker or a MessagePort (Comlink's replies, and the calls of the
 * callbacks it passes the worker) while `counting`: string characters (a UTF-16 code unit is two
 * bytes; most text here is ASCII, which V8 keeps in one) plus 8 per other value and per key.
 */
function installProbe() {
  const probe: Probe = { counting: false, bytes: 0 };
  (window as unknown as { __bigState: Probe }).__bigState = probe;
  const sizeOf = (value: unknown): number => {
    let size = 0;
    const stack = [value];
    while (stack.length > 0) {
      const item = stack.pop();
      if (typeof item === 'string') size += item.length;
      else if (item === null || typeof item !== 'object') size += 8;
      else if (ArrayBuffer.isView(item)) size += item.byteLength;
      else if (item instanceof ArrayBuffer) size += item.byteLength;
      else
        for (const [key, member] of Object.entries(item)) {
          size += key.length + 8;
          stack.push(member);
        }
    }
    return size;
  };
  const add = EventTarget.prototype.addEventListener;
  EventTarget.prototype.addEventListener = function (
    this: EventTarget,
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions,
  ) {
    if (type === 'message' && (this instanceof Worker || this instanceof MessagePort))
      add.call(this, 'message', (event) => {
        if (probe.counting) probe.bytes += sizeOf((event as MessageEvent).data);
      });
    add.call(this, type, listener, options);
  };
}

const MESSAGE = '[aria-label="Message"]';
const SEND = '.composer button[type="submit"]';

/** A checkbox of the Settings menu, set (opening the menu). */
async function setSetting(page: Page, label: string, on: boolean): Promise<void> {
  await page.click('.settings summary');
  await page.getByLabel(label).setChecked(on);
  await page.click('.settings summary');
}

/**
 * Sends `set k to <value>` and waits until the run ended, the State panel shows `k` as `value`
 * and History lists the turn (which only the opening read again at the run's end brings).
 */
async function turn(page: Page, value: string): Promise<void> {
  await page.fill(MESSAGE, `set k to ${value}`);
  await page.click(SEND);
  // Waits on the page's own mutations, never by polling it (that would cost it time of its own).
  await page.evaluate(
    ([send, wanted]) =>
      new Promise<void>((resolve) => {
        const done = () => {
          const entry = [...document.querySelectorAll('.state .state-entry')].find(
            (element) => element.querySelector('dt')?.textContent === 'k',
          );
          return (
            entry?.querySelector('dd')?.textContent === wanted &&
            document.querySelector(`${send}:not([disabled])`) !== null &&
            document.querySelector('.history')?.textContent?.includes(`set k to ${wanted}`)
          );
        };
        if (done()) return resolve();
        const observer = new MutationObserver(() => {
          if (!done()) return;
          observer.disconnect();
          resolve();
        });
        observer.observe(document, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
      }),
    [SEND, value] as const,
  );
}

async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return Object.fromEntries(metrics.map(({ name, value }) => [name, value]));
}

/**
 * One session of `kind` in a fresh browser: imported, `warmup` turns, then `turns` measured ones.
 * The probe sizes what the page receives during the warmup turns only: its walk costs the page
 * time of its own.
 */
export async function measureBigState(
  appUrl: string,
  kind: BigStateKind,
  turns: number,
  warmup = 2,
): Promise<BigStateSample> {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-big-state-'));
  const browser = await launch();
  try {
    const { page } = browser;
    await page.addInitScript(installProbe);
    await page.goto(appUrl);
    await page.waitForSelector(`${MESSAGE}:not([disabled])`);
    await setSetting(page, 'Instant demos (no pause per step)', true);
    await page.getByLabel('Import session…').setInputFiles(sessionFile(dir, kind));
    await page.getByText(`Imported “Big state: ${kind}”.`).waitFor({ timeout: 60_000 });
    await page.waitForSelector(`${MESSAGE}:not([disabled])`);
    const count = (on: boolean) =>
      page.evaluate((counting) => {
        (window as unknown as { __bigState: Probe }).__bigState.counting = counting;
      }, on);
    await count(true);
    for (let i = 0; i < warmup; i++) await turn(page, `warm ${i}`);
    await page.waitForTimeout(1000);
    await count(false);

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    const before = await metrics(cdp);
    const started = Date.now();
    for (let i = 0; i < turns; i++) await turn(page, `v${i}`);
    const wallMs = Date.now() - started;
    // What the last turn set off after it was shown (the opening read again) lands too.
    await page.waitForTimeout(1000);
    const after = await metrics(cdp);
    const bytes = await page.evaluate(
      () => (window as unknown as { __bigState: Probe }).__bigState.bytes,
    );
    await cdp.detach();
    if (browser.errors.length > 0) throw new Error(`The page failed: ${browser.errors.join('; ')}`);
    const per = (name: string) => ((after[name]! - before[name]!) * 1000) / turns;
    return {
      kind,
      turns,
      taskMs: per('TaskDuration'),
      scriptMs: per('ScriptDuration'),
      turnMs: wallMs / turns,
      bytes: bytes / warmup,
    };
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
