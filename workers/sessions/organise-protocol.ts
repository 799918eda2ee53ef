// What crosses the worker boundary about organising sessions (workers/sessions/organise.ts):
// plain data only. `protocol.ts` re-exports it.

/** One change to several sessions at once; `folder: null` takes them out of any folder. */
export type OrganiseChange =
  | { type: 'pin'; pinned: boolean }
  | { type: 'archive'; archived: boolean }
  | { type: 'folder'; folder: string | null };

/** A session as it was organised before a change: what its Undo puts back. */
export interface Organised {
  id: string;
  pinned: boolean;
  archived: boolean;
  /** Absent: in no folder. */
  folder?: string;
}

/** A folder's name is clipped to this many characters (a list row has room for no more). */
export const FOLDER_CHARS = 60;
