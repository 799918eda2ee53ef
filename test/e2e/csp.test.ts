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
    // Trusted Types (the second test) refuse the first two at the assignment, with a TypeError;
    // the rest of the policy would block them anyway. Neither way may anything run.
    const attempt = (act: () => void) => {
      try {
        act();
      } catch (error) {
        if (!(error instanceof TypeError)) throw error;
      }
    };
    attempt(() => {
      const script = document.createElement('script');
      script.textContent = "window.__ran.push('inline script')";
      document.body.append(script);
    });
    attempt(() => {
      const image = document.createElement('img');
      image.setAttribute('onerror', "window.__ran.push('inline handler')");
      image.src = 'data:,not-an-image';
      document.body.append(image);
    });
    const link = document.createElement('a');
    link.href = "javascript:window.__ran.push('javascript url')";
    document.body.append(link);
    link.click();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { ran: w.__ran, violations };
  });
  expect(outcome.ran).toEqual([]);
  expect(outcome.violations).toEqual(expect.arrayContaining(['require-trusted-types-for']));
  // The browser says so in the console; nothing else went wrong.
  expect(
    browser.errors.filter(
      (error) => !/Content Security Policy|requires 'TrustedScript' assignment/.test(error),
    ),
  ).toEqual([]);
});

it('enforces Trusted Types: HTML strings, foreign script URLs and unnamed policies are refused', async () => {
  const { page } = browser;
  await page.goto(appUrl());
  expect(
    await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content'),
  ).toMatch(/require-trusted-types-for 'script'; trusted-types default trellis-markdown/);
  await openApp(page);

  const outcome = await page.evaluate(async () => {
    const w = window as unknown as { __ran: string[]; trustedTypes: { createPolicy: Function } };
    w.__ran = [];
    const violations: string[] = [];
    document.addEventListener('securitypolicyviolation', (event) =>
      violations.push(event.violatedDirective),
    );
    const refused: string[] = [];
    const attempt = (name: string, act: () => unknown) => {
      try {
        act();
      } catch (error) {
        if (error instanceof TypeError) refused.push(name);
      }
    };
    const box = document.createElement('div');
    document.body.append(box);
    attempt('innerHTML', () => {
      box.innerHTML = `<img src="data:," onerror="window.__ran.push('innerHTML')">`;
    });
    attempt('insertAdjacentHTML', () =>
      box.insertAdjacentHTML(
        'beforeend',
        `<img src="data:," onerror="window.__ran.push('adjacent')">`,
      ),
    );
    attempt('foreign worker', () => new Worker('https://example.com/worker.js'));
    attempt('script src', () => {
      const script = document.createElement('script');
      script.src = 'https://example.com/evil.js';
      document.head.append(script);
    });
    attempt('new policy', () =>
      w.trustedTypes.createPolicy('evil', { createHTML: (s: string) => s }),
    );
    attempt('second default', () =>
      w.trustedTypes.createPolicy('default', { createHTML: (s: string) => s }),
    );
    // The app's own script URLs still pass: a worker of this origin starts.
    const own = new Worker(URL.createObjectURL(new Blob(['postMessage(1)'])));
    const ownRan = await new Promise((resolve) => {
      own.onmessage = () => resolve(true);
      own.onerror = () => resolve(false);
      setTimeout(() => resolve(false), 2000);
    });
    own.terminate();
    await new Promise((resolve) => setTimeout(resolve, 300));
    return { ran: w.__ran, refused, violations, ownRan, html: box.innerHTML };
  });
  expect(outcome.ran).toEqual([]);
  expect(outcome.html).toBe('');
  expect(outcome.refused).toEqual([
    'innerHTML',
    'insertAdjacentHTML',
    'foreign worker',
    'script src',
    'new policy',
    'second default',
  ]);
  expect(outcome.violations).toEqual(
    expect.arrayContaining(['require-trusted-types-for', 'trusted-types']),
  );
  expect(outcome.ownRan).toBe(true);
});
