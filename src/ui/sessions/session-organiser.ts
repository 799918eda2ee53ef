// The Sessions list's organising (issue 33): Select mode and its selection, which groups are
// open, and the worker's pin / archive / folder changes with their Undo. What must stay true:
// - a change's Undo puts back what the worker says was there before it (workers/sessions/
//   organise.ts), not the opposite flag: archiving two sessions, one archived already, and
//   undoing leaves that one archived;
// - one Undo is offered at a time, for UNDO_MS, as the Undo bar's deletes are; a newer change
//   takes its place;
// - deleting the selection goes through PendingDeletes, as one delete with one Undo line;
// - a failed change changes nothing (the worker's transaction) and says why here.

import type { OrganiseChange, Organised, SessionSummary } from '../../../workers/protocol.ts';
import { UNDO_MS, type PendingDeletes } from '../common/pending-deletes.ts';
import { clip, TITLE_CHARS } from '../common/preview.ts';
import { ViewState } from '../workbench/view-state.ts';
import { rangeOf } from './session-groups.ts';

/** The worker's organising methods (RuntimeClient's `runtime` has them). */
export interface OrganiseApi {
  organiseSessions(ids: string[], change: OrganiseChange): Promise<Organised[]>;
  restoreOrganisation(before: Organised[]): Promise<void>;
  renameFolder(from: string, to: string): Promise<Organised[]>;
  removeFolder(name: string): Promise<Organised[]>;
}

export interface OrganiserState {
  /** Select mode: each row has its checkbox, and the selection bar its actions. */
  selecting: boolean;
  selected: ReadonlySet<string>;
  /** Where a Shift-click's range starts: the last session (un)checked without Shift. */
  anchor: string | undefined;
  /** Groups the user opened or closed against their default (Archived starts closed). */
  toggled: ReadonlySet<string>;
  /** The last change, and how to take it back. */
  undo: { said: string; before: Organised[] } | undefined;
  error: string | undefined;
}

const NONE: ReadonlySet<string> = new Set();

export class SessionOrganiser extends ViewState<OrganiserState> {
  private undoTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly runtime: OrganiseApi,
    private readonly pending: PendingDeletes | undefined,
  ) {
    super({
      selecting: false,
      selected: NONE,
      anchor: undefined,
      toggled: NONE,
      undo: undefined,
      error: undefined,
    });
  }

  setSelecting(selecting: boolean): void {
    this.set({ selecting, selected: NONE, anchor: undefined });
  }

  /** Checks or unchecks `id`; with `range`, everything shown from the anchor to it, as it. */
  toggle(id: string, shown: readonly string[], range: boolean): void {
    const { selected, anchor } = this.state;
    const on = !selected.has(id);
    const ids = range ? rangeOf(shown, anchor, id) : [id];
    const next = new Set(selected);
    for (const one of ids)
      if (on) next.add(one);
      else next.delete(one);
    this.set({ selected: next, anchor: range && anchor !== undefined ? anchor : id });
  }

  isOpen(key: string): boolean {
    return (key === 'archived') === this.state.toggled.has(key);
  }

  toggleGroup(key: string): void {
    const toggled = new Set(this.state.toggled);
    if (!toggled.delete(key)) toggled.add(key);
    this.set({ toggled });
  }

  pin(sessions: readonly SessionSummary[], pinned: boolean): Promise<void> {
    const said = `${pinned ? 'Pinned' : 'Unpinned'} ${named(sessions)}.`;
    return this.change(sessions, { type: 'pin', pinned }, said);
  }

  archive(sessions: readonly SessionSummary[], archived: boolean): Promise<void> {
    const said = `${archived ? 'Archived' : 'Unarchived'} ${named(sessions)}.`;
    return this.change(sessions, { type: 'archive', archived }, said);
  }

  /** Into folder `folder`, or out of any (`null`). */
  move(sessions: readonly SessionSummary[], folder: string | null): Promise<void> {
    const said =
      folder === null
        ? `Took ${named(sessions)} out of ${sessions.length > 1 ? 'their folders' : 'its folder'}.`
        : `Moved ${named(sessions)} to “${clip(folder, TITLE_CHARS)}”.`;
    return this.change(sessions, { type: 'folder', folder }, said);
  }

  renameFolder(from: string, to: string): Promise<void> {
    return this.run(() => this.runtime.renameFolder(from, to), `Renamed the folder “${from}”.`);
  }

  removeFolder(name: string): Promise<void> {
    const said = `Removed the folder “${name}”; its sessions are kept.`;
    return this.run(() => this.runtime.removeFolder(name), said);
  }

  /** Deletes the sessions (the selection) with one Undo line, and leaves Select mode. */
  delete(sessions: readonly SessionSummary[]): void {
    if (!this.pending || sessions.length === 0) return;
    const said =
      sessions.length === 1
        ? `Deleted ${named(sessions)} and its artifacts.`
        : `Deleted ${named(sessions)} and their artifacts.`;
    this.pending.deleteAll(
      'session',
      sessions.map((session) => session.id),
      said,
    );
    this.setSelecting(false);
  }

  async undo(): Promise<void> {
    const undo = this.state.undo;
    if (!undo) return;
    this.clearUndo();
    await this.run(() => this.runtime.restoreOrganisation(undo.before), undefined);
  }

  clearUndo(): void {
    clearTimeout(this.undoTimer);
    this.set({ undo: undefined });
  }

  dismissError(): void {
    this.set({ error: undefined });
  }

  private change(sessions: readonly SessionSummary[], change: OrganiseChange, said: string) {
    const ids = sessions.map((session) => session.id);
    return this.run(() => this.runtime.organiseSessions(ids, change), said);
  }

  private async run(work: () => Promise<Organised[] | void>, said: string | undefined) {
    this.set({ error: undefined });
    try {
      const before = await work();
      if (said && before) this.offerUndo(said, before);
      if (this.state.selecting) this.setSelecting(false);
    } catch (error) {
      this.set({ error: (error as Error).message });
    }
  }

  private offerUndo(said: string, before: Organised[]): void {
    clearTimeout(this.undoTimer);
    this.set({ undo: { said, before } });
    this.undoTimer = setTimeout(() => this.set({ undo: undefined }), UNDO_MS);
  }
}

/** “Title” for one session, “3 sessions” for several. */
function named(sessions: readonly SessionSummary[]): string {
  return sessions.length === 1
    ? `“${clip(sessions[0]!.title, TITLE_CHARS)}”`
    : `${sessions.length} sessions`;
}
