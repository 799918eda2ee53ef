// The built app's Content-Security-Policy, in Chromium: sent by `vite preview` with the other
// security headers and written in index.html; an inline script injected into the page, an inline
// event handler and a javascript: URL do not run, and the browser reports each violation.

import { expect, it } from 'vitest';
import { appUrl, openApp } from './app-page.ts';
import { freshBrowserPerTest } from './browser.ts';

const browser = freshBrowserPerTest();

it('is sent and written, and blocks injected inline script, inline handlers and javascript: URLs', async () => {
  const { page } = browser;
  const response = await page.goto(appUrl());
  const headers = response!.headers();
  expect(headers['content-security-policy']).toMatch(/script-src 'self' 'wasm-unsafe-eval'/);
  expect(headers['content-security-policy']).toMatch(/object-src 'none'/);
  expect(headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(
    await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'),
  ).toMatch(/base-uri 'self'/);
  await openApp(page);

  const outcome = await page.evaluate(async () => {
    const w = window as unknown as { __ran: string[] };
    w.__ran = [];
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(event.violatedDirective),
    );
    const script = document.createElement('script');
    script.textContent = "window.__ran.push('inline script')";
    document.body.append(script);
    const image = document.createElement('img');
    image.setAttribute('onerror', "window.__ran.push('inline handler')");
    image.src = 'data:,not-an-image';
    document.body.append(image);
    const link = document.createElement('a');
    link.href = "javascript:window.__ran.push('javascript url')";
    document.body.append(link);
    link.click();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { ran: w.__ran, violations };
  });
  expect(outcome.ran).toEqual([]);
  expect(outcome.violations).toEqual(
    expect.arrayContaining(['script-src-elem', 'script-src-attr']),
  );
  // The browser says so in the console; nothing else went wrong.
  expect(browser.errors.filter((error) => !/Content Security Policy/.test(error))).toEqual([]);
});
