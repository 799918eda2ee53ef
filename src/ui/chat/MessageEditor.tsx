// Edit in place: a user's message becomes an editor where it stands in the conversation, as in
// ChatGPT and Open WebUI. Save & send (or Ctrl+Enter) runs the edited text as a new version of
// its turn (the old one stays as a branch); Cancel (or Escape) puts the message back. Enter breaks
// the line: an edit is often longer than a new message, and Enter sending it would run a
// half-made edit.

import { useEffect, useRef, useState } from 'preact/hooks';

interface Props {
  text: string;
  /** A run holds the session: the edit waits (Save is off). */
  disabled: boolean;
  onSave: (text: string) => void;
  onCancel: () => void;
}

export function MessageEditor({ text: original, disabled, onSave, onCancel }: Props) {
  const [text, setText] = useState(original);
  const box = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    const node = box.current;
    if (!node) return;
    node.focus();
    node.setSelectionRange(node.value.length, node.value.length);
  }, []);
  const empty = !text.trim();
  const save = () => {
    if (!disabled && !empty) onSave(text.trim());
  };
  return (
    <form
      class="message-editor"
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <textarea
        ref={box}
        aria-label="Edited message"
        aria-describedby="message-editor-hint"
        value={text}
        rows={Math.min(12, Math.max(3, text.split('\n').length + 1))}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            onCancel();
          } else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            save();
          }
        }}
      />
      <p id="message-editor-hint" class="hint">
        Ctrl+Enter saves and sends; Escape cancels. The old version stays as a branch.
      </p>
      <div class="message-editor-buttons">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" class="primary" disabled={disabled || empty}>
          Save &amp; send
        </button>
      </div>
    </form>
  );
}
