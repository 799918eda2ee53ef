// The Trellis side of the local model bench: the production app, driven as a user drives it
// (as test/e2e/local-model.test.ts does): Settings → Providers → Add local model, an agent on
// it, then one new session per message. Times come from the page's own clock, taken by a probe
// installed before the app's scripts: the Send click (capture phase, before the app sees it),
// and every change of the answer's text on screen. Nothing in the app is changed for the bench.

import type { Page } from 'playwright-core';
import type { Event } from '../../../../src/core/event.ts';
import { RELOADED } from '../../../../src/ui/shell/isolation.ts';
import { addLocalModelFiles } from '../../../e2e/app-page.ts';

/** One message, as the page showed its answer. Times from the Send click, on the page's clock. */
export interface AppSample {
  /** Each time the answer's text on screen grew: when, and to how many characters. */
  shownMs: number[];
  chars: number[];
  text: string;
  /** The worker's own timing of the model call (customMetadata.trellis.timing). */
  workerFirstTokenMs?: number;
  workerTotalMs?: number;
  promptTokens?: number;
  replyTokens?: number;
}

interface Probe {
  sentAt?: number;
  shown: { at: number; chars: number; text: string }[];
  /** Told once the answer on screen has this many characters. */
  waiting?: { chars: number; done: () => void };
}

/** Runs in the page before the app (addInitScript); keep it self-contained. */
function installProbe() {
  const probe: Probe = { shown: [] };
  (window as unknown as { __localBench: Probe }).__localBench = probe;
  document.addEventListener(
    'click',
    (event) => {
      const button = (event.target as Element | null)?.closest?.('button');
      if (button?.textContent?.trim() === 'Send') probe.sentAt = performance.now();
    },
    { capture: true },
  );
  // The answer's text: the streaming bubble while it streams, then the stored message. The
  // author's name is left out; what is left is the reply itself.
  const answer = () => {
    const bubble =
      document.querySelector('.chat .message.streaming') ??
      [...document.querySelectorAll('.chat .message.from-agent')].at(-1);
    if (!bubble) return '';
    const author = bubble.querySelector('.author')?.textContent ?? '';
    return (bubble.textContent ?? '').slice(author.length).trim();
  };
  new MutationObserver(() => {
    if (probe.sentAt === undefined) return;
    const text = answer();
    const last = probe.shown.at(-1);
    if (text.length > (last?.chars ?? 0))
      probe.shown.push({ at: performance.now(), chars: text.length, text });
    if (probe.waiting && text.length >= probe.waiting.chars) probe.waiting.done();
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/**
 * Opens the app as a tab that has already made its one reload for cross-origin isolation
 * (src/ui/shell/isolation.ts): served without the headers, it stays single-threaded, as the
 * baseline is loaded, instead of reloading under its service worker in the middle of the setup.
 */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.addInitScript(installProbe);
  await page.addInitScript((key) => sessionStorage.setItem(key, 'local model bench'), RELOADED);
  await page.goto(url);
  await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
}

/**
 * Adds the model file as a local model and an agent on it; returns the agent's id and what
 * Settings says of threads.
 */
export async function addLocalAgent(
  page: Page,
  modelPath: string,
  agent: { name: string; instruction: string },
): Promise<{ agentId: string; threads: string }> {
  const providers = await addLocalModelFiles(page, modelPath);
  await providers
    .getByRole('status')
    .filter({ hasText: /^Added “/ })
    .waitFor({ timeout: 60_000 });
  const threads = await providers.getByText(/^Runs (multi|single)-threaded/).innerText();

  await page.getByRole('button', { name: 'Agents', exact: true }).click();
  const agents = page.getByRole('region', { name: 'Agents' });
  await agents.getByLabel('Name').fill(agent.name);
  // The provider list loads after the form: the new local model is picked once it has.
  const provider = agents.getByLabel('Provider');
  for (let tries = 0; (await provider.inputValue()) === ''; tries++) {
    if (tries > 100) throw new Error('Bench setup: no provider to pick for the agent');
    await page.waitForTimeout(100);
  }
  await agents.getByLabel('Model').fill(modelPath.split('/').at(-1)!);
  await agents.getByLabel('Instruction').fill(agent.instruction);
  await agents.getByRole('button', { name: 'Save' }).click();
  await agents
    .getByRole('status')
    .filter({ hasText: `Saved “${agent.name}”` })
    .waitFor();
  await agents.getByRole('button', { name: 'Use in this session' }).click();
  const select = page.getByLabel('Agent', { exact: true });
  await page.waitForFunction(() =>
    (document.querySelector('.agent-select select') as HTMLSelectElement | null)?.value.startsWith(
      'agent:',
    ),
  );
  return { agentId: await select.inputValue(), threads };
}

/** A new session talking to `agentId`, as a user makes one (New session, then Agent). */
async function newSession(page: Page, agentId: string): Promise<void> {
  const sessions = await page.locator('.sessions li').count();
  await page.click('.sessions-head button');
  await page.waitForFunction(
    (before) =>
      document.querySelectorAll('.sessions li').length > before &&
      document.querySelector('.sessions li')?.classList.contains('current'),
    sessions,
  );
  await page.selectOption('.agent-select select', agentId);
  await page.waitForFunction(
    (id) => (document.querySelector('.agent-select select') as HTMLSelectElement).value === id,
    agentId,
  );
}

/**
 * Sends `message` in a new session and waits until the answer of `replyChars` characters is
 * shown and the run has ended (Send is back). `settle` is awaited once the session is made and
 * the message typed, before Send: the page's work for those is not the answer's.
 */
export async function askApp(
  page: Page,
  agentId: string,
  message: string,
  replyChars: number,
  {
    hideChat = false,
    settle = async () => {},
  }: { hideChat?: boolean; settle?: () => Promise<unknown> } = {},
): Promise<AppSample> {
  await newSession(page, agentId);
  await page.getByLabel('Message').fill(message);
  // A diagnosis: the chat still renders the answer into the DOM, but nothing of it is laid
  // out, painted or rastered.
  await page.evaluate((hide) => {
    const chat = document.querySelector<HTMLElement>('.chat');
    if (chat) chat.style.display = hide ? 'none' : '';
  }, hideChat);
  await page.evaluate(() => {
    const probe = (window as unknown as { __localBench: Probe }).__localBench;
    probe.sentAt = undefined;
    probe.shown = [];
    probe.waiting = undefined;
  });
  // Told by the probe, not polled: waitForFunction would run a check every frame in the page
  // while it streams, work the baseline's page does not do.
  const shown = page.evaluate(
    (chars) =>
      new Promise<void>((done) => {
        const probe = (window as unknown as { __localBench: Probe }).__localBench;
        if ((probe.shown.at(-1)?.chars ?? 0) >= chars) done();
        else probe.waiting = { chars, done };
      }),
    replyChars,
  );
  await settle();
  await page.getByRole('button', { name: 'Send' }).click();
  await shown;
  await page.getByRole('button', { name: 'Send' }).and(page.locator(':enabled')).waitFor();
  const probe = await page.evaluate(
    () => (window as unknown as { __localBench: Probe }).__localBench,
  );
  const sentAt = probe.sentAt!;
  const stored = await lastModelEvent(page);
  const timing = stored?.customMetadata?.trellis as
    { timing?: { firstTokenMs: number; totalMs: number } } | undefined;
  return {
    shownMs: probe.shown.map((s) => s.at - sentAt),
    chars: probe.shown.map((s) => s.chars),
    text: probe.shown.at(-1)!.text,
    workerFirstTokenMs: timing?.timing?.firstTokenMs,
    workerTotalMs: timing?.timing?.totalMs,
    promptTokens: stored?.usageMetadata?.promptTokenCount,
    replyTokens: stored?.usageMetadata?.candidatesTokenCount,
  };
}

/** The last stored event with usage: the answer, read from the app's IndexedDB. */
function lastModelEvent(page: Page): Promise<Event | undefined> {
  return page.evaluate(
    () =>
      new Promise<Event | undefined>((resolve, reject) => {
        const open = indexedDB.open('trellis');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('events').objectStore('events').getAll();
          request.onerror = () => reject(request.error);
          request.onsuccess = () => {
            const events = (request.result as { event: Event }[]).map((r) => r.event);
            const answers = events.filter((e) => e.usageMetadata);
            answers.sort((a, b) => a.timestamp - b.timestamp);
            open.result.close();
            resolve(answers.at(-1));
          };
        };
      }),
  );
}
