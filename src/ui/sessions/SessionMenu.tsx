import { useState } from 'preact/hooks';
import type { SessionSummary } from '../../../workers/protocol.ts';
import { FolderPicker } from './FolderPicker.tsx';
import type { SessionOrganiser } from './session-organiser.ts';

interface Props {
  session: SessionSummary;
  folders: readonly string[];
  organiser: SessionOrganiser;
  onRename: () => void;
  close: (refocus?: boolean) => void;
}

/**
 * One session's "⋯" actions: Pin, Archive, Move to folder…, Rename, Write a title (its model
 * titles it now, whatever the model: workers/sessions/model-titles.ts). A session on an ADK
 * server is only renamed here: the worker refuses to organise or title it.
 */
export function SessionMenu({ session, folders, organiser, onRename, close }: Props) {
  const [picking, setPicking] = useState(false);
  // The row moves to another group, or away: the focus goes to the change's Undo.
  const act = (change: Promise<void>) => {
    close(false);
    void change.then(focusUndo);
  };
  const rename = (
    <button
      type="button"
      onClick={() => {
        close(false);
        onRename();
      }}
    >
      Rename
    </button>
  );
  if (session.remote)
    return (
      <>
        {rename}
        <p class="menu-note">
          On an ADK server: copy it to this browser to pin, archive or file it.
        </p>
      </>
    );
  if (picking)
    return (
      <FolderPicker
        folders={folders}
        current={session.folder}
        inSome={!!session.folder}
        onMove={(folder) => act(organiser.move([session], folder))}
        onCancel={() => setPicking(false)}
      />
    );
  return (
    <>
      <button type="button" onClick={() => act(organiser.pin([session], !session.pinned))}>
        {session.pinned ? 'Unpin' : 'Pin'}
      </button>
      <button type="button" onClick={() => act(organiser.archive([session], !session.archived))}>
        {session.archived ? 'Unarchive' : 'Archive'}
      </button>
      <button type="button" onClick={() => setPicking(true)}>
        Move to folder…
      </button>
      {rename}
      <button type="button" onClick={() => act(organiser.writeTitle(session))}>
        Write a title
      </button>
    </>
  );
}

/** After a change: its Undo, which the status line under the list now offers. */
export function focusUndo(): void {
  requestAnimationFrame(() => document.querySelector<HTMLElement>('.organise-undo')?.focus());
}
