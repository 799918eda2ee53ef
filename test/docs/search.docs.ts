// Screenshots of search across sessions (Ctrl+K): a word found in a rewound turn of an older
// session, marked, with its "rewound branch" badge; light and dark, desktop and phone:
// `npx vitest run --project docs test/docs/search.docs.ts`.

import { it } from 'vitest';
import { messageBox, openApp, say, sayRewindSay } from '../e2e/search-page.ts';
import { inEachLook } from './looks.ts';

it('takes the search screenshots: light and dark, desktop and phone', async () => {
  await inEachLook(
    'search',
    async (page, { phone }, shot) => {
      await openApp(page);
      if (!phone)
        await sayRewindSay(
          page,
          ['set color to red', 'set color to magenta', 'save a note that magenta suits the logo'],
          'set color to magenta',
          'set color to green',
        );
      else await say(page, 'set color to magenta');
      if (!phone) {
        await page.getByRole('button', { name: 'New session' }).click();
        await messageBox(page).waitFor();
      }
      await say(page, 'set mood to magenta-ish calm');
      await page.keyboard.press('Control+k');
      const dialog = page.getByRole('dialog', { name: 'Search sessions' });
      await dialog.getByRole('combobox').pressSequentially('magenta');
      await dialog.getByRole('option').first().waitFor();
      await page.waitForTimeout(200);
      await page.screenshot(shot);
    },
    { width: 1280, height: 800 },
  );
});
