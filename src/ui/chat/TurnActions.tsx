import { useState } from 'preact/hooks';
import type { HistoryOperations } from '../history/history-model.ts';
import { StateEditor } from '../state/state-editor-lazy.ts';
import type { StateChanges } from '../state/state-edit-model.ts';

interface Props {
  operations: HistoryOperations;
  disabled: boolean;
  onRewind: (invocationId: string) => void;
  onSwitchBranch: (invocationId: string) => void;
  onEdit: (invocationId: string, text: string) => void;
  onFork: (invocationId: string) => void;
  /** The state just before a turn, for "Edit state and re-run" (`undefined`: it failed, and says so). */
  onLoadStateBefore?: (invocationId: string) => Promise<Record<string, unknown> | undefined>;
  onEditStateAndRerun?: (invocationId: string, changes: StateChanges) => void;
  /** Opens the turn's trace (where its time went). */
  onTrace?: () => void;
  onClose: () => void;
}

/** "Edit state and re-run": loading the state before the turn, then editing it. */
type StateRerun = { loading: true } | { loading: false; base: Record<string, unknown> };

export function TurnActions(props: Props) {
  const { operations, disabled, onRewind, onSwitchBranch, onEdit, onFork, onTrace, onClose } =
    props;
  const { onLoadStateBefore, onEditStateAndRerun } = props;
  const [editing, setEditing] = useState(false);
  const [rerun, setRerun] = useState<StateRerun>();
  const [text, setText] = useState(operations.edit?.text ?? '');
  const { rewindBefore, switchToBranch, edit, fork } = operations;
  // Re-running asks the turn's message again: only a turn the user's message began offers it.
  const rerunnable = edit && onLoadStateBefore && onEditStateAndRerun;
  if (rerun && rerunnable) {
    const { invocationId } = edit;
    return (
      <div class="turn-actions" role="group" aria-label="Edit state and re-run">
        {rerun.loading ? (
          <p class="hint">Reading the state before this turn…</p>
        ) : (
          <>
            <p class="hint">The state just before this turn. Change it, then run the turn again.</p>
            <StateEditor
              base={rerun.base}
              submitLabel="Re-run with this state"
              allowNoChanges
              disabled={disabled}
              onSubmit={(changes) => onEditStateAndRerun(invocationId, changes)}
              onCancel={() => setRerun(undefined)}
            />
          </>
        )}
      </div>
    );
  }
  const startRerun = (invocationId: string) => {
    setRerun({ loading: true });
    void onLoadStateBefore!(invocationId).then((base) =>
      setRerun(base ? { loading: false, base } : undefined),
    );
  };
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
      {rerunnable && (
        <button type="button" disabled={disabled} onClick={() => startRerun(edit.invocationId)}>
          Edit state and re-run
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
