// Debian's Chromium as a process of its own, to be killed as a user's browser dies: launched in
// its own process group on a fixed profile, reached over the DevTools protocol, and killed whole
// (every process of the group, SIGKILL: no unload, no flush, no goodbye).

import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM, FLAGS } from '../e2e/browser.ts';

/** As test/e2e/browser.ts launches it, headless, at the size of its pages. */
const ARGS = ['--headless', ...FLAGS, '--window-size=1280,800'];

export interface ChromiumProcess {
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Errors the page threw, for the report. */
  errors: string[];
  /** Kills the whole process group at once and waits until the browser is gone. */
  kill(): Promise<void>;
  /** Closes the browser politely (the end of a test). */
  close(): Promise<void>;
}

/** Starts Chromium on `profile` and connects to it. */
export async function startChromium(profile: string): Promise<ChromiumProcess> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it with "apt-get install -y chromium"`,
    );
  }
  const child = spawn(
    CHROMIUM,
    [...ARGS, `--user-data-dir=${profile}`, '--remote-debugging-port=0', 'about:blank'],
    // Its own process group, so that one kill reaches the renderers and the GPU/utility ones.
    { detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let endpoint: string;
  try {
    endpoint = await devToolsEndpoint(child);
  } catch (error) {
    killGroup(child);
    await exited;
    throw error;
  }
  const browser = await chromium.connectOverCDP(endpoint);
  const context = browser.contexts()[0] ?? (await browser.newContext());
  const page = context.pages()[0] ?? (await context.newPage());
  await page.setViewportSize({ width: 1280, height: 800 });
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // Console errors too (a worker's land here): they say why an app did not open after a kill.
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  return {
    browser,
    context,
    page,
    errors,
    async kill() {
      killGroup(child);
      await exited;
      // The connection died with it; closing the client side only frees its handles.
      await browser.close().catch(() => undefined);
    },
    async close() {
      await browser.close().catch(() => undefined);
      killGroup(child);
      await exited;
    },
  };
}

function killGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone: nothing left to kill.
  }
}

/** The browser's DevTools address, from the line it prints on stderr when it listens. */
function devToolsEndpoint(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`Chromium printed no DevTools address in 20 s:\n${seen}`)),
      20_000,
    );
    child.stderr!.setEncoding('utf8');
    const read = (chunk: string) => {
      seen += chunk;
      const match = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      // Keep reading, so that a full pipe never blocks the browser.
      child.stderr!.off('data', read);
      child.stderr!.on('data', () => undefined);
      resolve(match[1]!);
    };
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before it listened:\n${seen}`));
    });
  });
}
