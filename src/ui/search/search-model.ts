// The search dialog's view model (Ctrl+K): the query as typed, the worker's results for it (asked
// a moment after the last keystroke; an answer to an older query is dropped), and the hit the
// keyboard is on. Part of the dialog's lazily loaded chunk.

import type { SearchHit, SearchResults } from '../../../workers/protocol.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';

/** Quiet after a keystroke before the worker is asked, in ms. */
export const SEARCH_DEBOUNCE_MS = 60;
/** A search not answered after this many ms says it is searching (the first may read a lot). */
export const SEARCH_SLOW_MS = 400;

/** One hit as the list shows it: its session, and where it is in the flat keyboard order. */
export interface ListedHit {
  key: string;
  sessionId: string;
  hit: SearchHit;
}

export interface SearchView {
  query: string;
  results: SearchResults | undefined;
  /** The query `results` answer (the typed one may be newer). */
  answered: string;
  hits: ListedHit[];
  active: number;
  error: string | undefined;
  /** The search asked last is taking long (SEARCH_SLOW_MS): the dialog says it is searching. */
  slow: boolean;
}

export const EMPTY_SEARCH: SearchView = {
  query: '',
  results: undefined,
  answered: '',
  hits: [],
  active: 0,
  error: undefined,
  slow: false,
};

/** Every hit in the order the list shows them (sessions, then their hits). */
export function listedHits(results: SearchResults | undefined): ListedHit[] {
  return (results?.sessions ?? []).flatMap((session) =>
    session.hits.map((hit, i) => ({
      key: `${session.sessionId}:${i}`,
      sessionId: session.sessionId,
      hit,
    })),
  );
}

export class SearchModel {
  private view: SearchView = EMPTY_SEARCH;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private slowTimer: ReturnType<typeof setTimeout> | undefined;
  private asked = 0;

  constructor(
    private readonly client: RuntimeClient,
    private readonly onChange: (view: SearchView) => void,
  ) {}

  get state(): SearchView {
    return this.view;
  }

  type(query: string): void {
    this.set({ query });
    clearTimeout(this.timer);
    if (query.trim() === '') {
      this.asked += 1;
      clearTimeout(this.slowTimer);
      this.set({ ...EMPTY_SEARCH, query });
      return;
    }
    this.timer = setTimeout(() => void this.ask(query), SEARCH_DEBOUNCE_MS);
  }

  /** Moves the keyboard's hit by `step`, round the ends. */
  move(step: number): void {
    const count = this.view.hits.length;
    if (count === 0) return;
    this.set({ active: (this.view.active + step + count) % count });
  }

  pick(index: number): void {
    if (index >= 0 && index < this.view.hits.length) this.set({ active: index });
  }

  close(): void {
    clearTimeout(this.timer);
    clearTimeout(this.slowTimer);
    this.asked += 1;
  }

  private async ask(query: string): Promise<void> {
    const asked = ++this.asked;
    clearTimeout(this.slowTimer);
    this.slowTimer = setTimeout(() => {
      if (asked === this.asked) this.set({ slow: true });
    }, SEARCH_SLOW_MS);
    try {
      const results = await this.client.runtime.search(query);
      if (asked !== this.asked) return;
      this.set({
        results,
        answered: query,
        hits: listedHits(results),
        active: 0,
        error: undefined,
        slow: false,
      });
    } catch (error) {
      if (asked !== this.asked) return;
      const message = error instanceof Error ? error.message : String(error);
      this.set({
        results: undefined,
        answered: query,
        hits: [],
        active: 0,
        error: message,
        slow: false,
      });
    } finally {
      if (asked === this.asked) clearTimeout(this.slowTimer);
    }
  }

  private set(patch: Partial<SearchView>): void {
    this.view = { ...this.view, ...patch };
    this.onChange(this.view);
  }
}
