// Organising the app's sessions: pinned, archived, and one folder each (issue 33), kept on each
// session's record (SessionMetaRecord) beside its title.
//
// What must stay true:
// - every change, to one session or several, is one IndexedDB transaction: all or nothing. An
//   unknown id, or a bad folder name, is refused with a clear error and changes nothing;
// - every change returns the sessions as they were, so that the page's Undo can put them back
//   exactly (`restore`), not merely flip the flag back;
// - a folder is a name the sessions carry, not a record of its own: it exists while a session is
//   in it (as ChatGPT's and Open WebUI's folders are lists of chats), so renaming or removing one
//   is a change to its sessions;
// - sessions on an ADK server are refused: their list lives in a setting of their own
//   (workers/remote/remote.ts), and a half-supported pin is worse than a clear "copy it first";
// - every change broadcasts `sessions-changed`, so that every tab's list follows.

import { DEFAULT_AGENT_ID } from '../../src/demos/index.ts';
import {
  IndexedDbSessionService,
  InvalidRequestError,
  SessionNotFoundError,
} from '../../src/index.ts';
import { IndexedDbAppStore, type SessionMeta } from '../../src/store/app-store.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import { FOLDER_CHARS, type OrganiseChange, type Organised } from './organise-protocol.ts';
import { APP_NAME, DEFAULT_TITLE, USER_ID, newMeta } from './sessions.ts';
import { localOnly } from '../remote/adk-servers.ts';

export interface OrganiseDeps {
  sessions: IndexedDbSessionService;
  store: IndexedDbAppStore;
  broadcast: (message: RuntimeBroadcast) => void;
}

export class AppOrganise {
  constructor(private readonly deps: OrganiseDeps) {}

  /**
   * The room on its own services (the same database connection as the runtime's: connection.ts
   * shares one per name). runtime.ts makes it so, since app.ts has no line left for it.
   */
  static open(options: { dbName?: string; broadcast: OrganiseDeps['broadcast'] }): AppOrganise {
    const dbName = options.dbName ? { dbName: options.dbName } : {};
    return new AppOrganise({
      sessions: new IndexedDbSessionService(dbName),
      store: new IndexedDbAppStore(dbName),
      broadcast: options.broadcast,
    });
  }

  /** Pins, archives or files `ids` (or undoes that); returns them as they were. */
  async organise(ids: readonly string[], change: OrganiseChange): Promise<Organised[]> {
    const apply = changer(change);
    return this.change(checkedIds(ids), apply);
  }

  /** Puts sessions back as a change found them (its Undo). */
  async restore(before: readonly Organised[]): Promise<void> {
    const wanted = new Map(before.map((item) => [item.id, checkedOrganised(item)]));
    await this.change(checkedIds([...wanted.keys()]), (meta) =>
      withOrganisation(meta, wanted.get(meta.sessionId)!),
    );
  }

  /** Renames a folder: its sessions move to `to` (into it, if that folder exists too). */
  async renameFolder(from: string, to: string): Promise<Organised[]> {
    const target = folderName(to);
    return this.change(await this.inFolder(from), (meta) => ({ ...meta, folder: target }));
  }

  /** Removes a folder: its sessions stay, in no folder. */
  async removeFolder(name: string): Promise<Organised[]> {
    return this.change(await this.inFolder(name), (meta) => withFolder(meta, undefined));
  }

  /** The ids of the sessions in folder `name`; none is an error (there is no such folder). */
  private async inFolder(name: string): Promise<string[]> {
    const metas = await this.deps.store.listSessionMeta(APP_NAME, USER_ID);
    const ids = metas.filter((meta) => meta.folder === name).map((meta) => meta.sessionId);
    if (ids.length === 0) throw new InvalidRequestError(`There is no folder “${name}”`);
    return ids;
  }

  private async change(
    ids: readonly string[],
    apply: (meta: SessionMeta) => SessionMeta,
  ): Promise<Organised[]> {
    for (const id of ids) localOnly(id, 'Pinning, archiving and folders');
    // A session the library made directly has no record yet: it gets one, as app.ts's meta().
    // Looked up before the transaction, which may await nothing but its own requests.
    const unrecorded = new Set<string>();
    for (const id of ids) {
      if (await this.deps.store.getSessionMeta(APP_NAME, USER_ID, id)) continue;
      const key = { appName: APP_NAME, userId: USER_ID, sessionId: id };
      if (await this.deps.sessions.getSession({ ...key, config: { numRecentEvents: 0 } }))
        unrecorded.add(id);
    }
    const before = await this.deps.store.changeSessionMetas(
      APP_NAME,
      USER_ID,
      ids,
      apply,
      (id) => (unrecorded.has(id) ? newMeta(id, DEFAULT_TITLE, DEFAULT_AGENT_ID) : undefined),
      (id) => new SessionNotFoundError(id),
    );
    this.deps.broadcast({ type: 'sessions-changed' });
    return before.map(organisedOf);
  }
}

function changer(change: OrganiseChange): (meta: SessionMeta) => SessionMeta {
  switch (change?.type) {
    case 'pin':
      return (meta) => withFlag(meta, 'pinned', checkedFlag(change.pinned));
    case 'archive':
      return (meta) => withFlag(meta, 'archived', checkedFlag(change.archived));
    case 'folder': {
      const folder = change.folder === null ? undefined : folderName(change.folder);
      return (meta) => withFolder(meta, folder);
    }
    default:
      throw new InvalidRequestError('Pin, archive or folder: which change?');
  }
}

/** A folder's name as stored: one line, trimmed, at most FOLDER_CHARS characters. */
export function folderName(name: unknown): string {
  const clean =
    typeof name === 'string'
      ? name
          .replace(/[\u0000-\u001f\u007f]/g, ' ')
          .replace(/\s+/g, ' ')
          .trim()
          .slice(0, FOLDER_CHARS)
          .trim()
      : '';
  if (!clean) throw new InvalidRequestError('A folder needs a name');
  return clean;
}

function checkedIds(ids: readonly unknown[]): string[] {
  if (!Array.isArray(ids) || ids.length === 0)
    throw new InvalidRequestError('Choose at least one session');
  if (ids.some((id) => typeof id !== 'string' || !id))
    throw new InvalidRequestError('A session id is missing');
  return [...new Set(ids as string[])];
}

function checkedFlag(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new InvalidRequestError('Say on or off (true or false)');
  return value;
}

function checkedOrganised(item: Organised): Organised {
  return {
    id: item?.id,
    pinned: checkedFlag(item?.pinned),
    archived: checkedFlag(item?.archived),
    ...(item?.folder === undefined ? {} : { folder: folderName(item.folder) }),
  };
}

function organisedOf(meta: SessionMeta): Organised {
  return {
    id: meta.sessionId,
    pinned: !!meta.pinned,
    archived: !!meta.archived,
    ...(meta.folder ? { folder: meta.folder } : {}),
  };
}

function withOrganisation(meta: SessionMeta, organised: Organised): SessionMeta {
  const flagged = withFlag(
    withFlag(meta, 'pinned', organised.pinned),
    'archived',
    organised.archived,
  );
  return withFolder(flagged, organised.folder);
}

/** Absent rather than false, so that an unorganised record stays as it was written. */
function withFlag(meta: SessionMeta, flag: 'pinned' | 'archived', on: boolean): SessionMeta {
  const { [flag]: _old, ...rest } = meta;
  return on ? { ...rest, [flag]: true } : rest;
}

function withFolder(meta: SessionMeta, folder: string | undefined): SessionMeta {
  const { folder: _old, ...rest } = meta;
  return folder ? { ...rest, folder } : rest;
}
