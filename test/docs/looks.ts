// Screenshots in the four looks the README shows: desktop and phone, light and dark, each in a
// fresh browser (so one look's state never leaks into the next).

import type { Page } from 'playwright-core';
import { launch } from '../e2e/browser.ts';

export interface Look {
  /** `name`, `name-dark`, `name-phone`, `name-phone-dark`. */
  file: string;
  phone: boolean;
}

/** Runs `take` once per look, in a fresh browser; `take` ends with `page.screenshot(shot)`. */
export async function inEachLook(
  name: string,
  take: (page: Page, look: Look, shot: { path: string }) => Promise<void>,
  desktop = { width: 1440, height: 900 },
): Promise<void> {
  for (const phone of [false, true]) {
    for (const dark of [false, true]) {
      const file = `${name}${phone ? '-phone' : ''}${dark ? '-dark' : ''}`;
      const browser = await launch({ viewport: phone ? { width: 390, height: 844 } : desktop });
      try {
        if (dark) await browser.page.emulateMedia({ colorScheme: 'dark' });
        await take(browser.page, { file, phone }, { path: `docs/screenshots/${file}.png` });
      } finally {
        await browser.close();
      }
    }
  }
}
