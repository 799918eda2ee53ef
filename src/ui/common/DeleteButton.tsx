import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { DeletedKind, PendingDeletes } from './pending-deletes.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';

/** The page's deletes waiting for their Undo (App provides it; main.tsx makes it). */
export const PendingDeletesContext = createContext<PendingDeletes | undefined>(undefined);

interface Props {
  kind: DeletedKind;
  id: string;
  /** The button's accessible name, when "Delete" alone would not say what ("Delete triage"). */
  label?: string;
  /** What the Undo bar then says: "Deleted the flow “triage”. Its sessions are kept." */
  said: string;
}

/**
 * Delete, with an Undo for a few seconds in place of a confirm() dialog (pending-deletes.ts):
 * the thing leaves its list at once and the focus goes to the Undo button, since this one goes
 * with it.
 */
export function DeleteButton({ kind, id, label, said }: Props) {
  const pending = useContext(PendingDeletesContext);
  return (
    <button
      type="button"
      class="danger"
      aria-label={label}
      disabled={!pending}
      onClick={() => {
        pending?.delete(kind, id, said);
        focusNewestUndo();
      }}
    >
      Delete
    </button>
  );
}

/** Hands the focus to the Undo of what was just deleted (the newest line is the last). */
export function focusNewestUndo(): void {
  requestAnimationFrame(() =>
    [...document.querySelectorAll<HTMLElement>('.undo-bar button.undo')].at(-1)?.focus(),
  );
}

/** The ids of `kind` deleted and waiting for their Undo: a list leaves them out. */
export function useHiddenIds(kind: DeletedKind): ReadonlySet<string> {
  const pending = useContext(PendingDeletesContext);
  if (!pending) return NONE;
  // Subscribes the component to the list; the set is the same until the list changes.
  useSnapshot(pending);
  return pending.hidden(kind);
}

const NONE: ReadonlySet<string> = new Set();
