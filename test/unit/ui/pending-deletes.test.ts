// Deleting with an Undo (src/ui/common/pending-deletes.ts): hidden at once, deleted only once its
// time has passed, unless undone; kept across a reload and shared by tabs, deleted by one only.

import { describe, expect, it } from 'vitest';
import {
  PendingDeletes,
  UNDO_MS,
  type PendingDelete,
} from '../../../src/ui/common/pending-deletes.ts';

/** A hand-made clock: timers run when the test moves time on. */
class Clock {
  time = 1_000_000;
  private timers = new Map<number, { at: number; run: () => void }>();
  private next = 0;
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    const id = ++this.next;
    this.timers.set(id, { at: this.time + ms, run });
    return id;
  };
  clearTimeout = (id: unknown) => void this.timers.delete(id as number);
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = due[1].at;
      due[1].run();
    }
    this.time = end;
  }
}

/** A tab: its own clock's view of time and timers, the storage shared with other tabs. */
function tab(storage: Map<string, string>, clock = new Clock()) {
  const deleted: string[] = [];
  const pending = new PendingDeletes({
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
    },
    now: clock.now,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    commit: async (item: PendingDelete) => void deleted.push(`${item.kind}:${item.id}`),
  });
  pending.start();
  return { pending, clock, deleted };
}

describe('deleting with an Undo', () => {
  it('hides at once and deletes only once the Undo has had its time', () => {
    const { pending, clock, deleted } = tab(new Map());
    pending.delete('session', 's1', 'Deleted “Colors”.');
    expect([...pending.hidden('session')]).toEqual(['s1']);
    expect(pending.hidden('flow').size).toBe(0);
    clock.advance(UNDO_MS - 1);
    expect(deleted).toEqual([]);
    clock.advance(1);
    expect(deleted).toEqual(['session:s1']);
    expect(pending.hidden('session').size).toBe(0);
    expect(pending.snapshot.items).toEqual([]);
  });

  it('deletes nothing that is undone, and shows it again', () => {
    const { pending, clock, deleted } = tab(new Map());
    pending.delete('flow', 'f1', 'Deleted the flow “triage”.');
    pending.delete('agent', 'a1', 'Deleted the agent “writer”.');
    pending.undo('flow', 'f1');
    expect(pending.hidden('flow').size).toBe(0);
    clock.advance(UNDO_MS);
    expect(deleted).toEqual(['agent:a1']);
  });

  it('deletes several as one: one Undo brings them all back, one Dismiss deletes them all', () => {
    const storage = new Map<string, string>();
    const { pending, clock, deleted } = tab(storage);
    pending.delete('session', 's0', 'Deleted “Alone”.');
    pending.deleteAll('session', ['s1', 's2'], 'Deleted 2 sessions.');
    expect([...pending.hidden('session')].sort()).toEqual(['s0', 's1', 's2']);
    pending.undo('session', 's2');
    expect([...pending.hidden('session')]).toEqual(['s0']);
    // Another tab sees the group as one too.
    pending.deleteAll('session', ['s1', 's2'], 'Deleted 2 sessions.');
    const other = tab(storage, clock);
    other.pending.finish('session', 's1');
    expect(other.deleted).toEqual(['session:s1', 'session:s2']);
    clock.advance(UNDO_MS);
    expect(deleted).toEqual(['session:s0']);
  });

  it('deletes at once on Dismiss', () => {
    const { pending, deleted } = tab(new Map());
    pending.delete('provider', 'p1', 'Deleted the provider “Gemini” and its key.');
    pending.finish('provider', 'p1');
    expect(deleted).toEqual(['provider:p1']);
    expect(pending.snapshot.items).toEqual([]);
  });

  it('holds everything while the pointer or focus is on the Undo bar, and a moment after', () => {
    const { pending, clock, deleted } = tab(new Map());
    pending.delete('session', 's1', 'Deleted “Colors”.');
    pending.hold(true);
    clock.advance(UNDO_MS * 5);
    expect(deleted).toEqual([]);
    pending.hold(false);
    clock.advance(1_000);
    expect(deleted).toEqual([]);
    clock.advance(UNDO_MS);
    expect(deleted).toEqual(['session:s1']);
  });

  it('survives a reload: still hidden within its time, deleted on the next start after it', () => {
    const storage = new Map<string, string>();
    const first = tab(storage);
    first.pending.delete('session', 's1', 'Deleted “Colors”.');
    first.pending.delete('session', 's2', 'Deleted “Shapes”.');
    first.clock.advance(UNDO_MS / 2);
    first.pending.undo('session', 's2');
    // The tab is closed here; its timers die with it.

    const reloaded = tab(storage, first.clock);
    expect([...reloaded.pending.hidden('session')]).toEqual(['s1']);
    expect(reloaded.deleted).toEqual([]);
    const clock = new Clock();
    clock.time = first.clock.time + UNDO_MS; // opened again long after
    const later = tab(storage, clock);
    expect(later.deleted).toEqual(['session:s1']);
    expect(later.pending.hidden('session').size).toBe(0);
  });

  it('is shared by tabs, and only one of them deletes', () => {
    const storage = new Map<string, string>();
    const clock = new Clock();
    const a = tab(storage, clock);
    const b = tab(storage, clock);
    a.pending.delete('flow', 'f1', 'Deleted the flow “triage”.');
    b.pending.reread(); // the storage event
    expect([...b.pending.hidden('flow')]).toEqual(['f1']);
    clock.advance(UNDO_MS);
    expect([...a.deleted, ...b.deleted]).toEqual(['flow:f1']);
  });

  it('ignores a stored list it cannot read', () => {
    const storage = new Map([['trellis-pending-deletes', '{not json']]);
    const { pending, deleted } = tab(storage);
    expect(pending.snapshot.items).toEqual([]);
    storage.set(
      'trellis-pending-deletes',
      JSON.stringify([{ kind: 'disk', id: 'x', said: '', until: 0 }]),
    );
    pending.reread();
    expect(pending.snapshot.items).toEqual([]);
    expect(deleted).toEqual([]);
  });
});
