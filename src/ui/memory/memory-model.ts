// The Memory view's model: what the user's agents remember across sessions, a page of sessions at
// a time (the latest first), and its deletes. It follows every tab's changes (`memory-changed`,
// and `sessions-changed` for titles), reading again as many sessions as it shows.

import {
  MEMORY_PAGE_SESSIONS as PAGE,
  type MemoryItem,
  type MemoryPage,
  type RememberedSession,
  type RuntimeBroadcast,
} from '../../../workers/protocol.ts';
import { ViewState } from '../workbench/view-state.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';

export interface MemoryState {
  sessions: RememberedSession[];
  sessionCount: number;
  memoryCount: number;
  /** Where the next page starts (absent: all is shown). */
  next: number | undefined;
  /** The first page has come. */
  loaded: boolean;
  busy: boolean;
  status: string | undefined;
  error: string | undefined;
}

export class MemoryModel extends ViewState<MemoryState> {
  private unsubscribe: (() => void) | undefined;
  private readTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>) {
    super({
      sessions: [],
      sessionCount: 0,
      memoryCount: 0,
      next: undefined,
      loaded: false,
      busy: false,
      status: undefined,
      error: undefined,
    });
  }

  /** Reads the first page and follows every tab's changes until `stop`. */
  async start(): Promise<void> {
    this.unsubscribe ??= this.client.onBroadcast((message) => this.onBroadcast(message));
    await this.guard(() => this.read(1));
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearTimeout(this.readTimer);
  }

  /** The next page of sessions. */
  async more(): Promise<void> {
    const { next, sessions } = this.state;
    if (next === undefined) return;
    await this.guard(async () => {
      const page = await this.client.runtime.listMemories(next);
      this.show(page, [...sessions, ...page.sessions]);
    });
  }

  async removeMemory(sessionId: string, eventId: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deleteMemory(sessionId, eventId);
      await this.read(this.pagesShown());
      this.set({ status: 'Memory deleted.' });
    });
  }

  async removeSession(session: RememberedSession): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.deleteSessionMemories(session.sessionId);
      await this.read(this.pagesShown());
      this.set({ status: `Deleted what “${session.title}” left in memory.` });
    });
  }

  private onBroadcast(message: RuntimeBroadcast): void {
    if (message.type !== 'memory-changed' && message.type !== 'sessions-changed') return;
    // A run's turns come one after another: one read for a burst of them.
    this.readTimer ??= setTimeout(() => {
      this.readTimer = undefined;
      void this.guard(() => this.read(this.pagesShown()), 'quietly');
    }, 150);
  }

  private pagesShown(): number {
    return Math.max(1, Math.ceil(this.state.sessions.length / PAGE));
  }

  /** Reads the first `pages` pages again. */
  private async read(pages: number): Promise<void> {
    let page = await this.client.runtime.listMemories(0, PAGE);
    const sessions = [...page.sessions];
    for (let n = 1; n < pages && page.next !== undefined; n++) {
      page = await this.client.runtime.listMemories(page.next, PAGE);
      sessions.push(...page.sessions);
    }
    this.show(page, sessions);
  }

  private show(page: MemoryPage, sessions: RememberedSession[]): void {
    const { sessionCount, memoryCount, next } = page;
    this.set({ sessions, sessionCount, memoryCount, next, loaded: true });
  }

  /**
   * Runs a user's action: the buttons wait for it, and it says what went wrong. `quietly` (a
   * read another tab's change asked for) leaves the buttons and what was said as they are: a
   * disabled button would lose the keyboard's focus.
   */
  private async guard(action: () => Promise<void>, quietly?: 'quietly'): Promise<void> {
    if (!quietly) this.set({ busy: true, error: undefined, status: undefined });
    try {
      await action();
    } catch (error) {
      this.set({ error: (error as Error | null)?.message ?? String(error) });
    } finally {
      if (!quietly) this.set({ busy: false });
    }
  }
}

/** "3 memories from 2 sessions". */
export function memorySummary({ memoryCount, sessionCount }: MemoryState): string {
  const memories = memoryCount === 1 ? '1 memory' : `${memoryCount} memories`;
  const sessions = sessionCount === 1 ? '1 session' : `${sessionCount} sessions`;
  return `${memories} from ${sessions}`;
}

/** Who said it, as the view names them: You, or the agent by the name the user gave it. */
export function authorName({ author, authorName }: MemoryItem): string {
  if (author === undefined) return 'Unknown';
  return author === 'user' ? 'You' : (authorName ?? author);
}
