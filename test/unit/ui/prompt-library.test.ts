// The page's prompt library (PromptLibrary) over the worker's runtime in this process: it reads
// the list when started and again when any tab says the library changed; a save that fails says
// why and keeps nothing; an import says what it added, found and kept.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { PromptLibrary } from '../../../src/ui/prompts/prompt-library.ts';
import type { RuntimeBroadcast } from '../../../workers/protocol.ts';
import type { RuntimeClient } from '../../../src/ui/workbench/workbench.ts';
import { recordingRuntime } from '../../support/app-runtime.ts';

/** A page's client of a runtime whose broadcasts reach the page's listeners, as a channel does. */
function pageOf() {
  const listeners = new Set<(message: RuntimeBroadcast) => void>();
  const { runtime, broadcasts } = recordingRuntime();
  const prompts = runtime.prompts;
  const client = {
    runtime: {
      listPrompts: () => prompts.list(),
      savePrompt: (input) => prompts.save(input),
      deletePrompt: (id) => prompts.remove(id),
      importPrompts: (json) => prompts.importFile(json),
      exportPrompts: () => prompts.exportFile(),
    } as Partial<RuntimeClient['runtime']> as RuntimeClient['runtime'],
    onBroadcast: (listener: (message: RuntimeBroadcast) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const hear = () => {
    for (const message of broadcasts.splice(0)) for (const listener of listeners) listener(message);
  };
  return { library: new PromptLibrary(client), runtime, hear };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('PromptLibrary', () => {
  it('reads the list when started, and again when another tab changes it', async () => {
    const { library, runtime, hear } = pageOf();
    await runtime.prompts.save({ name: 'One', text: '1' });
    library.start();
    await settled();
    expect(library.snapshot.loaded).toBe(true);
    expect(library.snapshot.prompts.map((p) => p.name)).toEqual(['One']);
    await runtime.prompts.save({ name: 'Two', text: '2' }); // Another tab.
    hear();
    await settled();
    expect(library.snapshot.prompts.map((p) => p.name)).toEqual(['One', 'Two']);
  });

  it('says why a save failed, and keeps the list as it was', async () => {
    const { library } = pageOf();
    expect(await library.save({ name: 'A', text: 'x' })).toBe(true);
    expect(library.snapshot.status).toBe('Saved “A”.');
    expect(await library.save({ name: 'a', text: 'y' })).toBe(false);
    expect(library.snapshot.error).toBe('A prompt is named “A” already: choose another name');
    expect(library.snapshot.prompts.map((p) => p.text)).toEqual(['x']);
    expect(library.snapshot.busy).toBe(false);
  });

  it('says what an import added, found and kept', async () => {
    const { library } = pageOf();
    await library.save({ name: 'Same', text: 's' });
    await library.save({ name: 'Mine', text: 'm' });
    const file = new File(
      [
        JSON.stringify([
          { name: 'Same', text: 's' },
          { name: 'mine', text: 'theirs' },
          { name: 'New', text: 'n' },
        ]),
      ],
      'prompts.json',
    );
    await library.importFile(file);
    expect(library.snapshot.status).toBe(
      'Imported 1 prompt; 1 here already; kept yours for “mine” (same name, other text).',
    );
    expect(library.snapshot.prompts.map((p) => p.name)).toEqual(['Mine', 'New', 'Same']);
  });
});
