// Screenshots of "Chat with a model": a chat on the fixture server's model with its Model
// settings open (and the change noted in the chat), light and dark, desktop and phone:
// `npm run screenshots`.

import { it } from 'vitest';
import { chooseAgent, openApp, region, say } from '../e2e/app-page.ts';
import { addProvider } from '../e2e/model-setup.ts';
import { startModelServer } from '../support/model-server.ts';
import { inEachLook } from './looks.ts';

it('takes the Model settings screenshots: light and dark, desktop and phone', async () => {
  const server = await startModelServer();
  try {
    await inEachLook('model-chat', async (page, _look, shot) => {
      await openApp(page);
      await addProvider(page, server.url, 'sk-screenshot-0000-1234');
      await page.getByRole('button', { name: 'Back to the chat' }).click();
      await chooseAgent(page, /with this chat/);
      const bar = region(page, 'Model settings');
      await bar.getByRole('button', { name: 'Model settings' }).click();
      await bar.getByLabel('System prompt').fill('Answer in two sentences, for a curious child.');
      await bar.getByLabel('Temperature').fill('0.3');
      await bar.getByRole('button', { name: 'Save settings' }).click();
      await bar.getByText(/temperature 0\.3/).waitFor();
      await say(page, 'Why is the sky blue?');
      await bar.getByRole('button', { name: 'Model settings' }).click();
      await page.screenshot(shot);
    });
  } finally {
    await server.close();
  }
});
