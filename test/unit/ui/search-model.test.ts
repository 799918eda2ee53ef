// The search dialog's model (src/ui/search/search-model.ts): a keystroke asks the worker after a
// quiet; an older query's answer is dropped; a search not answered after SEARCH_SLOW_MS says so,
// and stops saying so once answered, failed or cleared.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  SEARCH_DEBOUNCE_MS,
  SEARCH_SLOW_MS,
  SearchModel,
  type SearchView,
} from '../../../src/ui/search/search-model.ts';
import type { SearchResults } from '../../../workers/protocol.ts';
import type { RuntimeClient } from '../../../src/ui/workbench/workbench.ts';

/** A client whose searches answer when the test says. */
function slowClient() {
  const asked: { query: string; answer: (results: SearchResults) => void; fail: () => void }[] =
    [];
  const client = {
    runtime: {
      search: (query: string) =>
        new Promise<SearchResults>((resolve, reject) =>
          asked.push({ query, answer: resolve, fail: () => reject(new Error('It broke')) }),
        ),
    },
  } as unknown as RuntimeClient;
  return { client, asked };
}

const ONE: SearchResults = {
  words: ['otter'],
  sessions: [
    {
      sessionId: 's1',
      title: 'Otters',
      lastUpdateTime: 1,
      hits: [{ kind: 'title', snippet: 'Otters', marks: [[0, 5]] }],
    },
  ],
};

describe('the search model', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('says it is searching once a search takes long, and stops once answered', async () => {
    const { client, asked } = slowClient();
    let view: SearchView | undefined;
    const model = new SearchModel(client, (next) => (view = next));
    model.type('otter');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    expect(asked.map((a) => a.query)).toEqual(['otter']);
    expect(view?.slow).toBe(false);
    await vi.advanceTimersByTimeAsync(SEARCH_SLOW_MS);
    expect(view?.slow).toBe(true);
    asked[0]!.answer(ONE);
    await vi.advanceTimersByTimeAsync(0);
    expect(view).toMatchObject({ slow: false, answered: 'otter', error: undefined });
    expect(view?.hits).toHaveLength(1);
  });

  it('drops an older answer, and a failure or a cleared box is not slow', async () => {
    const { client, asked } = slowClient();
    let view: SearchView | undefined;
    const model = new SearchModel(client, (next) => (view = next));
    model.type('ott');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    model.type('otter');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS + SEARCH_SLOW_MS);
    expect(view?.slow).toBe(true);
    asked[0]!.answer(ONE); // the older query's answer
    await vi.advanceTimersByTimeAsync(0);
    expect(view).toMatchObject({ slow: true, answered: '' });
    asked[1]!.fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(view).toMatchObject({ slow: false, answered: 'otter', error: 'It broke' });

    model.type('otters');
    await vi.advanceTimersByTimeAsync(SEARCH_DEBOUNCE_MS);
    model.type('');
    await vi.advanceTimersByTimeAsync(SEARCH_SLOW_MS * 2);
    expect(view).toMatchObject({ slow: false, query: '', hits: [] });
  });
});
