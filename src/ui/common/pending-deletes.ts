// Deleting with an Undo, as Gmail does: a session, flow, agent or provider the user deletes
// leaves the page at once, and is deleted for good only once its Undo has had its time
// (UNDO_MS). Deferred rather than restorable: what a delete takes (a session's log and
// artifacts, a provider's key, a local model's file) cannot be put back from the page, and a key
// never comes back out of the worker.
//
// What must stay true:
// - nothing is deleted before its time, unless the user says so (Dismiss);
// - the list is kept in localStorage, so a reload or a closed tab keeps it: on the next start,
//   what is past its time is deleted then, the rest waits for what is left of its time, hidden
//   all along;
// - every tab reads the same list (the `storage` event: `reread`), so a thing deleted in one tab
//   is hidden in all, and only one deletes it: each takes an item off the stored list before
//   deleting it, and deletes only what it took;
// - the pointer or the focus on the Undo bar holds every item (`hold`): nothing goes while the
//   user is reaching for Undo.

import { ViewState } from '../workbench/view-state.ts';

export type DeletedKind = 'session' | 'flow' | 'agent' | 'provider' | 'prompt';

export interface PendingDelete {
  kind: DeletedKind;
  id: string;
  /** What the Undo bar says was deleted: "Deleted the flow “triage”. Its sessions are kept." */
  said: string;
  /** When it is deleted for good (ms since the epoch). */
  until: number;
  /** Deleted together with others (a selection): one line, one Undo for them all. */
  group?: string;
}

export interface PendingDeletesDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  now: () => number;
  setTimeout: (run: () => void, ms: number) => unknown;
  clearTimeout: (timer: unknown) => void;
  /** Deletes it for good (the view model's own delete, which shows its own errors). */
  commit: (item: PendingDelete) => Promise<void>;
}

/** How long Undo is offered: time to read one line and reach its button (Gmail: 5–30 s). */
export const UNDO_MS = 10_000;
/** What is left at least once the pointer or focus leaves the Undo bar. */
const AFTER_HOLD_MS = 4_000;
/** DO NOT CHANGE: a tab of the new version would not see what an older one left to delete. */
const STORAGE_KEY = 'trellis-pending-deletes';

const NO_IDS: ReadonlySet<string> = new Set();

export class PendingDeletes extends ViewState<{ items: readonly PendingDelete[] }> {
  private timer: unknown;
  private held = false;
  private hiddenCache = new Map<DeletedKind, ReadonlySet<string>>();

  /** Hides what the stored list holds at once; nothing is deleted before `start`. */
  constructor(private readonly deps: PendingDeletesDeps) {
    super({ items: [] });
    this.show(this.stored());
  }

  /** Deletes what is past its time (the page is ready for it), and waits for the rest. */
  start(): void {
    this.reread();
  }

  /** Another tab changed the stored list (the `storage` event), or the page starts. */
  reread(): void {
    this.show(this.stored());
    this.schedule();
  }

  /** Hides `id` now and deletes it once its Undo has had its time. */
  delete(kind: DeletedKind, id: string, said: string): void {
    const item = { kind, id, said, until: this.deps.now() + UNDO_MS };
    this.store([...this.stored().filter((other) => !same(other, item)), item]);
  }

  /** Hides several now, as one delete: one line says `said`, and one Undo brings all back. */
  deleteAll(kind: DeletedKind, ids: readonly string[], said: string): void {
    const group = `${kind} ${ids[0]} ${this.deps.now()}`;
    const until = this.deps.now() + UNDO_MS;
    const items = ids.map((id) => ({ kind, id, said, until, group }));
    const kept = this.stored().filter((other) => !items.some((item) => same(other, item)));
    this.store([...kept, ...items]);
  }

  /** Takes the delete back (with its group's): the thing shows again, as it was. */
  undo(kind: DeletedKind, id: string): void {
    const items = this.stored();
    this.store(items.filter((item) => !inDelete(items, { kind, id })(item)));
  }

  /** Deletes it (with its group) now (the Undo bar's Dismiss). */
  finish(kind: DeletedKind, id: string): void {
    const item = this.take(inDelete(this.stored(), { kind, id }));
    for (const taken of item) void this.deps.commit(taken);
    this.schedule();
  }

  /** The pointer or the focus is on the Undo bar: nothing is deleted until it leaves. */
  hold(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    if (held) return this.schedule();
    const soonest = this.deps.now() + AFTER_HOLD_MS;
    this.store(this.stored().map((item) => ({ ...item, until: Math.max(item.until, soonest) })));
  }

  /** The ids of one kind waiting to be deleted (the same set until the list changes). */
  hidden(kind: DeletedKind): ReadonlySet<string> {
    let ids = this.hiddenCache.get(kind);
    if (!ids) {
      const found = this.state.items.filter((item) => item.kind === kind).map((item) => item.id);
      ids = found.length ? new Set(found) : NO_IDS;
      this.hiddenCache.set(kind, ids);
    }
    return ids;
  }

  private schedule(): void {
    if (this.timer !== undefined) this.deps.clearTimeout(this.timer);
    this.timer = undefined;
    if (this.held) return;
    const now = this.deps.now();
    for (const item of this.take((item) => item.until <= now)) void this.deps.commit(item);
    const next = Math.min(...this.state.items.map((item) => item.until));
    if (Number.isFinite(next))
      this.timer = this.deps.setTimeout(() => this.reread(), Math.max(0, next - now));
  }

  /** Takes the items that `due` picks off the stored list (so that no other tab deletes them). */
  private take(due: (item: PendingDelete) => boolean): PendingDelete[] {
    const items = this.stored();
    const taken = items.filter(due);
    if (taken.length)
      this.store(
        items.filter((item) => !due(item)),
        false,
      );
    else this.show(items);
    return taken;
  }

  private store(items: readonly PendingDelete[], reschedule = true): void {
    this.deps.storage.setItem(STORAGE_KEY, JSON.stringify(items));
    this.show(items);
    if (reschedule) this.schedule();
  }

  private show(items: readonly PendingDelete[]): void {
    const shown = this.state.items;
    if (items.length === shown.length && items.every((item, i) => sameItem(item, shown[i]!)))
      return;
    this.hiddenCache.clear();
    this.set({ items });
  }

  private stored(): PendingDelete[] {
    try {
      const items: unknown = JSON.parse(this.deps.storage.getItem(STORAGE_KEY) ?? '[]');
      return Array.isArray(items) ? items.filter(isPendingDelete) : [];
    } catch {
      return []; // Not ours, or cut short: nothing is deleted on its word.
    }
  }
}

const same = (a: Pick<PendingDelete, 'kind' | 'id'>, b: Pick<PendingDelete, 'kind' | 'id'>) =>
  a.kind === b.kind && a.id === b.id;

const sameItem = (a: PendingDelete, b: PendingDelete) =>
  same(a, b) && a.until === b.until && a.said === b.said && a.group === b.group;

/** Picks the item named, and the others deleted in one go with it. */
function inDelete(
  items: readonly PendingDelete[],
  named: Pick<PendingDelete, 'kind' | 'id'>,
): (item: PendingDelete) => boolean {
  const group = items.find((item) => same(item, named))?.group;
  return (item) => same(item, named) || (group !== undefined && item.group === group);
}

function isPendingDelete(value: unknown): value is PendingDelete {
  const item = value as Partial<PendingDelete> | null;
  return (
    typeof item === 'object' &&
    item !== null &&
    ['session', 'flow', 'agent', 'provider', 'prompt'].includes(item.kind as string) &&
    typeof item.id === 'string' &&
    typeof item.said === 'string' &&
    typeof item.until === 'number' &&
    (item.group === undefined || typeof item.group === 'string')
  );
}
