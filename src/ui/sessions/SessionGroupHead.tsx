import { useState } from 'preact/hooks';
import type { SessionGroup } from './session-groups.ts';
import type { SessionOrganiser } from './session-organiser.ts';
import { InlineRename } from './InlineRename.tsx';
import { MenuButton } from './MenuButton.tsx';
import { focusUndo } from './SessionMenu.tsx';

interface Props {
  group: SessionGroup;
  open: boolean;
  /** Select mode: a folder's own actions wait. */
  selecting: boolean;
  organiser: SessionOrganiser;
}

/**
 * A group's heading, which opens and closes it ("Archived (2)" starts closed); a folder's also has
 * Rename folder and Remove folder (its sessions stay, in no folder).
 */
export function SessionGroupHead({ group, open, selecting, organiser }: Props) {
  const [renaming, setRenaming] = useState(false);
  const folder = group.kind === 'folder' ? group.label : undefined;
  if (renaming && folder !== undefined)
    return (
      <h3 class="session-group-head">
        <InlineRename
          label="Folder name"
          value={folder}
          onSave={(name) => {
            setRenaming(false);
            void organiser.renameFolder(folder, name).then(focusUndo);
          }}
          onCancel={() => setRenaming(false)}
        />
      </h3>
    );
  return (
    <h3 class="session-group-head">
      <button
        type="button"
        class="session-group-toggle"
        aria-expanded={open}
        onClick={() => organiser.toggleGroup(group.key)}
      >
        <span aria-hidden="true" class="session-group-arrow">
          {open ? '▾' : '▸'}
        </span>
        {group.label} <span class="session-group-count">({group.sessions.length})</span>
      </button>
      {folder !== undefined && !selecting && (
        <MenuButton label={`Folder “${folder}”`}>
          {(close) => (
            <>
              <button
                type="button"
                onClick={() => {
                  close(false);
                  setRenaming(true);
                }}
              >
                Rename folder
              </button>
              <button
                type="button"
                onClick={() => {
                  close(false);
                  void organiser.removeFolder(folder).then(focusUndo);
                }}
              >
                Remove folder
              </button>
            </>
          )}
        </MenuButton>
      )}
    </h3>
  );
}
