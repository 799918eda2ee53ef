// Debian's Chromium, driven by playwright-core: headless, a fresh profile per test, never a
// downloaded browser.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterEach, beforeEach } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Errors the page threw or logged, for tests to assert there were none. */
  errors: string[];
  close(): Promise<void>;
}

export async function launch(
  options: {
    viewport?: { width: number; height: number };
    /** A touch screen: `(pointer: coarse)` matches, taps instead of clicks. */
    hasTouch?: boolean;
  } = {},
): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}: install it with "apt-get install -y chromium"`,
    );
  }
  const profile = mkdtempSync(join(tmpdir(), 'trellis-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    hasTouch: options.hasTouch ?? false,
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const errors: string[] = [];
  const watch = (p: Page) => {
    p.on('pageerror', (error) => errors.push(error.message));
    p.on('console', (message) => {
      if (message.type() === 'error' && !/favicon/.test(message.location().url))
        errors.push(message.text());
    });
  };
  watch(page);
  context.on('page', watch);
  return {
    context,
    page,
    errors,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * A fresh Chromium (and profile) for each test of the file, closed after it. The returned object
 * always shows the current test's browser.
 */
export function freshBrowserPerTest(options: Parameters<typeof launch>[0] = {}): Browser {
  let current: Browser | undefined;
  beforeEach(async () => {
    current = await launch(options);
  });
  afterEach(async ({ task }) => {
    // A failed test says what its pages showed, for a failure seen only in CI.
    if (task.result?.state === 'fail' && current) await describePages(current, task.name);
    await current?.close();
    current = undefined;
  });
  const live = () => {
    if (!current) throw new Error('No browser outside a test');
    return current;
  };
  return {
    get context() {
      return live().context;
    },
    get page() {
      return live().page;
    },
    get errors() {
      return live().errors;
    },
    close: () => live().close(),
  };
}

/** Prints what each page of a failed test showed (its text, cut) and saves a screenshot. */
async function describePages(browser: Browser, test: string): Promise<void> {
  const dir = join(process.cwd(), 'test-results');
  mkdirSync(dir, { recursive: true });
  for (const [index, page] of browser.context.pages().entries()) {
    try {
      const text = await page.locator('body').innerText({ timeout: 2000 });
      const file = join(dir, `${test.replace(/\W+/g, '-').slice(0, 80)}-${index}.png`);
      await page.screenshot({ path: file, timeout: 5000 });
      console.log(
        `[${test}] page ${index} at ${page.url()} showed:\n${text.slice(0, 3000)}\n(screenshot: ${file})`,
      );
    } catch (error) {
      console.log(`[${test}] page ${index}: could not be described (${(error as Error).message})`);
    }
  }
}

/** The sizes and schemes of a view's screenshots: desktop and phone, light and dark. */
export const SHOT_SIZES = [
  ['', { width: 1280, height: 800 }, false],
  ['-dark', { width: 1280, height: 800 }, true],
  ['-phone', { width: 390, height: 844 }, false],
  ['-phone-dark', { width: 390, height: 844 }, true],
] as const;

/**
 * Takes `docs/screenshots/<name>[-phone][-dark].png`, each in a fresh Chromium: `show` brings the
 * page to what is to be shown (at `viewport`, in the scheme already set).
 */
export async function screenshotsOf(
  name: string,
  show: (page: Page, viewport: { width: number; height: number }) => Promise<void>,
): Promise<void> {
  for (const [suffix, viewport, dark] of SHOT_SIZES) {
    const shots = await launch({ viewport });
    try {
      if (dark) await shots.page.emulateMedia({ colorScheme: 'dark' });
      await show(shots.page, viewport);
      await shots.page.screenshot({ path: `docs/screenshots/${name}${suffix}.png` });
    } finally {
      await shots.close();
    }
  }
}
