// Screenshots of search across sessions (Ctrl+K): a word found in a rewound turn of an older
// session, marked, with its "rewound branch" badge; light and dark, desktop and phone:
// `npx vitest run --project docs test/docs/search.docs.ts`.

import { it } from 'vitest';
import { launch } from '../e2e/browser.ts';
import { messageBox, openApp, say, sayRewindSay } from '../e2e/search-page.ts';

const shot = (name: string) => ({ path: `docs/screenshots/${name}.png` });

it('takes the search screenshots: light and dark, desktop and phone', async () => {
  for (const [name, viewport, dark] of [
    ['search', { width: 1280, height: 800 }, false],
    ['search-dark', { width: 1280, height: 800 }, true],
    ['search-phone', { width: 390, height: 844 }, false],
    ['search-phone-dark', { width: 390, height: 844 }, true],
  ] as const) {
    const browser = await launch({ viewport });
    const { page } = browser;
    try {
      if (dark) await page.emulateMedia({ colorScheme: 'dark' });
      await openApp(page);
      if (viewport.width > 700)
        await sayRewindSay(
          page,
          ['set color to red', 'set color to magenta', 'save a note that magenta suits the logo'],
          'set color to magenta',
          'set color to green',
        );
      else await say(page, 'set color to magenta');
      if (viewport.width > 700) {
        await page.getByRole('button', { name: 'New session' }).click();
        await messageBox(page).waitFor();
      }
      await say(page, 'set mood to magenta-ish calm');
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search sessions' });
      await dialog.getByRole('combobox').pressSequentially('magenta');
      await dialog.getByRole('option').first().waitFor();
      await page.waitForTimeout(200);
      await page.screenshot(shot(name));
    } finally {
      await browser.close();
    }
  }
});
