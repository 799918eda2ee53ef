import { useState } from 'preact/hooks';
import type { HistoryOperations } from './history-model.ts';

interface Props {
  operations: HistoryOperations;
  disabled: boolean;
  onRewind: (invocationId: string) => void;
  onSwitchBranch: (invocationId: string) => void;
  onEdit: (invocationId: string, text: string) => void;
  onFork: (invocationId: string) => void;
  /** Opens the turn's trace (where its time went). */
  onTrace?: () => void;
  onClose: () => void;
}

export function TurnActions(props: Props) {
  const { operations, disabled, onRewind, onSwitchBranch, onEdit, onFork, onTrace, onClose } =
    props;
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(operations.edit?.text ?? '');
  const { rewindBefore, switchToBranch, edit, fork } = operations;
  if (editing && edit) {
    return (
      <form
        class="turn-actions"
        onSubmit={(event) => {
          event.preventDefault();
          if (text.trim()) onEdit(edit.invocationId, text);
        }}
      >
        <label>
          Edited message
          <textarea
            value={text}
            rows={2}
            onInput={(event) => setText(event.currentTarget.value)}
            autoFocus
          />
        </label>
        <button type="submit" class="primary" disabled={disabled}>
          Run edited message
        </button>
        <button type="button" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </form>
    );
  }
  return (
    <div class="turn-actions" role="group" aria-label="Turn actions">
      {switchToBranch && (
        <button
          type="button"
          class="primary"
          disabled={disabled}
          onClick={() => onSwitchBranch(switchToBranch.invocationId)}
        >
          Switch to this branch
        </button>
      )}
      <button
        type="button"
        disabled={disabled}
        onClick={() => onRewind(rewindBefore.rewindBeforeInvocationId)}
      >
        Rewind to before this turn
      </button>
      {edit && (
        <button type="button" disabled={disabled} onClick={() => setEditing(true)}>
          Edit and re-run
        </button>
      )}
      {fork && (
        <button type="button" onClick={() => onFork(fork.atInvocationId)}>
          Fork to new session
        </button>
      )}
      {onTrace && (
        <button type="button" onClick={onTrace}>
          Trace
        </button>
      )}
      <button type="button" class="quiet" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
