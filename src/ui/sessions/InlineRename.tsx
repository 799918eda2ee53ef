import { useState } from 'preact/hooks';

interface Props {
  /** The input's accessible name ("Session title", "Folder name"). */
  label: string;
  value: string;
  onSave: (value: string) => void;
  /** Esc, or Cancel: nothing changes. */
  onCancel: () => void;
}

/**
 * A name edited where it stands (a session's title, a folder's name): Enter saves, Esc cancels.
 * Blurring does neither, so that reaching for Cancel does not save first.
 */
export function InlineRename({ label, value, onSave, onCancel }: Props) {
  const [draft, setDraft] = useState(value);
  return (
    <form
      class="rename"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(draft);
      }}
    >
      <input
        aria-label={label}
        value={draft}
        onInput={(event) => setDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape') return;
          // Ours: not the app's Escape, which stops a run.
          event.preventDefault();
          event.stopPropagation();
          onCancel();
        }}
        ref={(input) => input?.select()}
        autoFocus
      />
      <button type="submit">Save</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
