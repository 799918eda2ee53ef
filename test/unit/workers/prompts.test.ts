// The prompt library in the worker's runtime (Node over fake-indexeddb): saved, changed, listed by
// name and deleted; every change heard by other tabs; bad input refused with a clear message and
// nothing written; two runtimes on one database (two tabs) saving at once both keep their prompt;
// export and import (Trellis's file, Open WebUI's); a backup carries the library and a restore
// merges it prompt by prompt.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { recordingRuntime } from '../../support/app-runtime.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { MAX_PROMPTS } from '../../../workers/prompts/prompt-protocol.ts';

const SUMMARY = { name: 'Summarize', text: 'Summarize {{topic}} in {{count}} bullet points.' };

describe('the prompt library', () => {
  it('saves, changes, lists by name and deletes, saying so to other tabs', async () => {
    const { runtime, broadcasts } = recordingRuntime();
    const summary = await runtime.prompts.save(SUMMARY);
    const review = await runtime.prompts.save({ name: '  code   review ', text: 'Review this.' });
    expect(review.name).toBe('code review');
    expect((await runtime.prompts.list()).map((p) => p.name)).toEqual(['code review', 'Summarize']);

    const changed = await runtime.prompts.save({ id: summary.id, name: 'Summary', text: 'Short.' });
    expect(changed.id).toBe(summary.id);
    expect(await runtime.prompts.list()).toEqual([review, changed]);

    await runtime.prompts.remove(review.id);
    await runtime.prompts.remove(review.id); // Gone already (another tab): not an error.
    expect(await runtime.prompts.list()).toEqual([changed]);
    expect(broadcasts.filter((b) => b.type === 'prompts-changed')).toHaveLength(5);
  });

  it.each([
    [{ name: '', text: 'x' }, 'The prompt needs a name'],
    [{ name: 'a', text: '   ' }, 'The prompt needs a text'],
    [{ name: 'a'.repeat(101), text: 'x' }, 'longer than 100 characters'],
    [{ name: 'a', text: 'x'.repeat(20_001) }, 'longer than 20000 characters'],
    [{ name: 'SUMMARIZE', text: 'x' }, 'A prompt is named “Summarize” already'],
    [{ id: 'nope', name: 'b', text: 'x' }, 'no longer in the library'],
    [{ name: 42, text: 'x' } as never, 'The prompt needs a name'],
  ])('refuses %j with a clear message, writing nothing', async (input, message) => {
    const { runtime, broadcasts } = recordingRuntime();
    const summary = await runtime.prompts.save(SUMMARY);
    const error = await rejectionOf(runtime.prompts.save(input));
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toContain(message);
    expect(await runtime.prompts.list()).toEqual([summary]);
    expect(broadcasts.filter((b) => b.type === 'prompts-changed')).toHaveLength(1);
  });

  it('keeps both prompts when two tabs save at once', async () => {
    const first = recordingRuntime();
    const second = recordingRuntime(first.dbName);
    await Promise.all([
      first.runtime.prompts.save({ name: 'one', text: '1' }),
      second.runtime.prompts.save({ name: 'two', text: '2' }),
      first.runtime.prompts.save({ name: 'three', text: '3' }),
    ]);
    expect((await second.runtime.prompts.list()).map((p) => p.name)).toEqual([
      'one',
      'three',
      'two',
    ]);
  });

  it('holds at most MAX_PROMPTS', async () => {
    const { runtime } = recordingRuntime();
    const many = Array.from({ length: MAX_PROMPTS }, (_, i) => ({ name: `p${i}`, text: 't' }));
    expect((await runtime.prompts.importFile(JSON.stringify(many))).added).toHaveLength(
      MAX_PROMPTS,
    );
    const error = await rejectionOf(runtime.prompts.save({ name: 'one more', text: 't' }));
    expect(error.message).toContain(`${MAX_PROMPTS} prompts at most`);
    expect(await runtime.prompts.list()).toHaveLength(MAX_PROMPTS);
  });
});

describe('import and export', () => {
  it('round-trips its own file, and says what was there already or differs', async () => {
    const source = recordingRuntime().runtime;
    await source.prompts.save(SUMMARY);
    await source.prompts.save({ name: 'Translate', text: 'Translate to {{language}}: ' });
    const { filename, json } = await source.prompts.exportFile();
    expect(filename).toBe('trellis-prompts.json');

    const { runtime } = recordingRuntime();
    await runtime.prompts.save({ name: 'translate', text: 'Mine.' });
    expect(await runtime.prompts.importFile(json)).toEqual({
      added: ['Summarize'],
      unchanged: 0,
      conflicts: ['Translate'],
    });
    expect(await runtime.prompts.importFile(json)).toEqual({
      added: [],
      unchanged: 1,
      conflicts: ['Translate'],
    });
    const mine = (await runtime.prompts.list()).find((p) => p.name === 'translate');
    expect(mine?.text).toBe('Mine.');
  });

  it("reads Open WebUI's prompt export (its slash command is the name)", async () => {
    const { runtime } = recordingRuntime();
    const openWebUi = [{ command: '/explain', title: 'Explain', content: 'Explain {{thing}}.' }];
    expect((await runtime.prompts.importFile(JSON.stringify(openWebUi))).added).toEqual([
      'explain',
    ]);
    expect((await runtime.prompts.list())[0]?.text).toBe('Explain {{thing}}.');
  });

  it.each([
    ['not json', 'it is not JSON'],
    ['{"format":"other"}', 'not a prompt library'],
    ['[{"name":"a","text":"x"},{"name":"b"}]', 'prompt 2 needs a text'],
    ['[{"name":"a","text":"x"},{"name":"A","text":"y"}]', 'two prompts in it are named “A”'],
  ])('refuses %s whole, adding nothing', async (json, message) => {
    const { runtime, broadcasts } = recordingRuntime();
    const error = await rejectionOf(runtime.prompts.importFile(json));
    expect(error.message).toMatch(/^Not imported: /);
    expect(error.message).toContain(message);
    expect(await runtime.prompts.list()).toEqual([]);
    expect(broadcasts).toEqual([]);
  });
});

describe('backups', () => {
  it('carry the library, and a restore merges it prompt by prompt', async () => {
    const source = recordingRuntime().runtime;
    const summary = await source.prompts.save(SUMMARY);
    const other = await source.prompts.save({ name: 'Other', text: 'Backup text.' });
    const { json } = await source.backups.backup();
    expect(JSON.parse(json).settings.prompts).toEqual([summary, other]);

    const { runtime, broadcasts } = recordingRuntime();
    const mine = await runtime.prompts.save({ name: 'other', text: 'My text.' });
    const report = await runtime.backups.restore(json);
    expect(report.restored).toContain('prompt Summarize');
    expect(report.conflicts).toContain(
      'The prompt "other" here differs from the backup\'s "Other": yours is kept',
    );
    expect(await runtime.prompts.list()).toEqual([mine, summary]);
    expect(broadcasts.at(-1)).toEqual({ type: 'prompts-changed' });

    const again = await runtime.backups.restore(json);
    expect(again.restored.filter((line) => line.startsWith('prompt'))).toEqual([]);
    expect(await runtime.prompts.list()).toEqual([mine, summary]);
  });

  it('refuse a backup whose prompts do not fit, changing nothing', async () => {
    const source = recordingRuntime().runtime;
    await source.prompts.save(SUMMARY);
    const file = JSON.parse((await source.backups.backup()).json);
    file.settings.prompts[0].text = 42;
    const { runtime } = recordingRuntime();
    const error = await rejectionOf(runtime.backups.restore(JSON.stringify(file)));
    expect(error.message).toContain('saved prompts are not valid');
    expect(await runtime.prompts.list()).toEqual([]);
  });
});
