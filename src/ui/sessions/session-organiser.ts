// The Sessions list's organising (issue 33): Select mode and its selection, which groups are
// open, and the worker's pin / archive / folder changes with their Undo. What must stay true:
// - a change's Undo puts back what the worker says was there before it (workers/sessions/
//   organise.ts), not the opposite flag: archiving two sessions, one archived already, and
//   undoing leaves that one archived;
// - one Undo is offered at a time, for UNDO_MS, as the Undo bar's deletes are; a newer change
//   takes its place;
// - deleting the selection goes through PendingDeletes, as one delete with one Undo line;
// - "Write a title" (the session's model titles it now) has its Undo too: the title before;
// - a failed change changes nothing (the worker's transaction) and says why here;
// - the groups opened or closed against their default are remembered in the page's storage
//   (a reload keeps them; what is stored damaged reads as none).

import type {
  OrganiseChange,
  Organised,
  SessionSummary,
  WrittenTitle,
} from '../../../workers/protocol.ts';
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

/** The worker's titling methods (workers/sessions/model-titles.ts; RuntimeClient's `runtime`). */
export interface TitleApi {
  writeTitle(sessionId: string): Promise<WrittenTitle>;
  renameSession(sessionId: string, title: string): Promise<void>;
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
  undo: Undo | undefined;
  /** What is under way that takes a moment (a model writing a title). */
  working: string | undefined;
  error: string | undefined;
}

const NONE: ReadonlySet<string> = new Set();

/** Where the groups opened or closed against their default are remembered, across reloads. */
export const GROUPS_KEY = 'trellis:session-groups';
/** Groups remembered at most (folders come and go: the oldest toggles are forgotten first). */
const MOST_GROUPS = 200;

/** The groups remembered as toggled; none when nothing readable is stored. */
function rememberedGroups(storage: Pick<Storage, 'getItem'> | undefined): ReadonlySet<string> {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(GROUPS_KEY) ?? '[]');
    if (!Array.isArray(stored)) return NONE;
    const keys = stored.filter((key): key is string => typeof key === 'string' && key.length < 300);
    return new Set(keys.slice(-MOST_GROUPS));
  } catch {
    return NONE;
  }
}

export class SessionOrganiser extends ViewState<OrganiserState> {
  private undoTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly runtime: OrganiseApi,
    private readonly pending: PendingDeletes | undefined,
    private readonly titles?: TitleApi,
    /** Where the groups opened or closed are remembered (the page's localStorage). */
    private readonly storage?: Pick<Storage, 'getItem' | 'setItem'>,
  ) {
    super({
      selecting: false,
      selected: NONE,
      anchor: undefined,
      toggled: rememberedGroups(storage),
      undo: undefined,
      working: undefined,
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
    try {
      this.storage?.setItem(GROUPS_KEY, JSON.stringify([...toggled].slice(-MOST_GROUPS)));
    } catch {
      // Storage refused (full, or off): the groups stay as they are for this page only.
    }
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
    const said = `Renamed the folder “${from}”.`;
    return this.run(async () => this.restoring(said, await this.runtime.renameFolder(from, to)));
  }

  removeFolder(name: string): Promise<void> {
    const said = `Removed the folder “${name}”; its sessions are kept.`;
    return this.run(async () => this.restoring(said, await this.runtime.removeFolder(name)));
  }

  /** "Write a title": the session's model titles it now, with Undo to the title it had. */
  writeTitle(session: SessionSummary): Promise<void> {
    const titles = this.titles;
    if (!titles) return Promise.resolve();
    this.clearUndo();
    this.set({ working: `Writing a title for ${named([session])}…` });
    return this.run(async () => {
      const { title, before } = await titles.writeTitle(session.id);
      const said = `Titled “${clip(title, TITLE_CHARS)}”.`;
      return { said, restore: () => titles.renameSession(session.id, before) };
    }).finally(() => this.set({ working: undefined }));
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
    await this.run(async () => void (await undo.restore()));
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
    return this.run(async () =>
      this.restoring(said, await this.runtime.organiseSessions(ids, change)),
    );
  }

  /** The Undo of an organising change: the worker puts back what was `before` it. */
  private restoring(said: string, before: Organised[]): Undo {
    return { said, restore: () => this.runtime.restoreOrganisation(before) };
  }

  /** Runs a change, then offers the Undo it returns (none for an Undo itself). */
  private async run(work: () => Promise<Undo | void>) {
    this.set({ error: undefined });
    try {
      const undo = await work();
      if (undo) this.offerUndo(undo);
      if (this.state.selecting) this.setSelecting(false);
    } catch (error) {
      this.set({ error: (error as Error).message });
    }
  }

  private offerUndo(undo: Undo): void {
    clearTimeout(this.undoTimer);
    this.set({ undo });
    this.undoTimer = setTimeout(() => this.set({ undo: undefined }), UNDO_MS);
  }
}

/** A change's Undo: what the status line says, and how to take the change back. */
interface Undo {
  said: string;
  restore: () => Promise<unknown>;
}

/** “Title” for one session, “3 sessions” for several. */
function named(sessions: readonly SessionSummary[]): string {
  return sessions.length === 1
    ? `“${clip(sessions[0]!.title, TITLE_CHARS)}”`
    : `${sessions.length} sessions`;
}
