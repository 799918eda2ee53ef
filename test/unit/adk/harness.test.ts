import { test, expect } from 'vitest';
import { startAdkServer } from '../../adk/adk-server';
test('starts', async () => {
  const s = await startAdkServer();
  try {
    const r = await fetch(s.url + '/list-apps');
    expect(await r.json()).toEqual(['approval', 'echo']);
  } finally {
    await s.stop();
  }
}, 70000);
