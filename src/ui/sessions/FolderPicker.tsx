import { useState } from 'preact/hooks';

interface Props {
  /** The folders there are (session-groups.ts's folderNames). */
  folders: readonly string[];
  /** The folder the sessions are in, when all are in the same one. */
  current: string | undefined;
  /** Shown "No folder" when some are in one. */
  inSome: boolean;
  onMove: (folder: string | null) => void;
  onCancel: () => void;
}

/**
 * "Move to folder…": one button per folder there is, a new folder's name, or out of any. A
 * folder is a name the sessions carry (workers/sessions/organise.ts): one with no session left
 * in it is gone.
 */
export function FolderPicker({ folders, current, inSome, onMove, onCancel }: Props) {
  const [name, setName] = useState('');
  const others = folders.filter((folder) => folder !== current);
  return (
    <form
      class="folder-picker"
      aria-label="Move to folder"
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) onMove(name);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onCancel();
      }}
    >
      {others.map((folder) => (
        <button key={folder} type="button" onClick={() => onMove(folder)}>
          Move to “{folder}”
        </button>
      ))}
      <input
        aria-label="New folder"
        placeholder="New folder"
        maxLength={60}
        value={name}
        onInput={(event) => setName(event.currentTarget.value)}
        autoFocus
      />
      <button type="submit" disabled={!name.trim()}>
        Move
      </button>
      {inSome && (
        <button type="button" onClick={() => onMove(null)}>
          No folder
        </button>
      )}
      <button type="button" class="quiet" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
