import { useState } from 'preact/hooks';
import type { SessionSummary } from '../../../workers/protocol.ts';
import { focusNewestUndo } from '../common/DeleteButton.tsx';
import { FolderPicker } from './FolderPicker.tsx';
import type { SessionOrganiser } from './session-organiser.ts';
import { focusUndo } from './SessionMenu.tsx';

interface Props {
  /** The sessions checked, as listed now. */
  selected: readonly SessionSummary[];
  folders: readonly string[];
  organiser: SessionOrganiser;
}

/**
 * Select mode's actions on the sessions checked: Pin, Archive, Move to folder…, Delete, each with
 * its Undo. A button that would undo for all (Unpin, Unarchive) shows when all are so already.
 */
export function SelectionBar({ selected, folders, organiser }: Props) {
  const [picking, setPicking] = useState(false);
  const none = selected.length === 0;
  const allPinned = !none && selected.every((session) => session.pinned);
  const allArchived = !none && selected.every((session) => session.archived);
  const inFolder = new Set(selected.map((session) => session.folder));
  const act = (change: Promise<void>) => {
    setPicking(false);
    void change.then(focusUndo);
  };
  return (
    <div class="selection-bar" role="group" aria-label="Selected sessions">
      <p class="selection-count" aria-live="polite">
        {selected.length} selected
      </p>
      <button
        type="button"
        disabled={none}
        onClick={() => act(organiser.pin(selected, !allPinned))}
      >
        {allPinned ? 'Unpin' : 'Pin'}
      </button>
      <button
        type="button"
        disabled={none}
        onClick={() => act(organiser.archive(selected, !allArchived))}
      >
        {allArchived ? 'Unarchive' : 'Archive'}
      </button>
      <button
        type="button"
        disabled={none}
        aria-expanded={picking}
        onClick={() => setPicking(!picking)}
      >
        Move to folder…
      </button>
      <button
        type="button"
        class="danger"
        disabled={none}
        onClick={() => {
          organiser.delete(selected);
          focusNewestUndo();
        }}
      >
        Delete
      </button>
      {picking && (
        <FolderPicker
          folders={folders}
          current={inFolder.size === 1 ? [...inFolder][0] : undefined}
          inSome={selected.some((session) => session.folder)}
          onMove={(folder) => act(organiser.move(selected, folder))}
          onCancel={() => setPicking(false)}
        />
      )}
    </div>
  );
}
