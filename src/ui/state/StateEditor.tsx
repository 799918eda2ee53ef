import { useMemo, useRef, useState } from 'preact/hooks';
import type { LongState } from '../../../workers/protocol.ts';
import { clip } from '../common/preview.ts';
import {
  NO_CHANGES,
  changesSharedKeys,
  editedValue,
  editorRows,
  keyProblem,
  onlyPreviewOf,
  parseValue,
  valueText,
  withChange,
  withoutChange,
  type RowStatus,
  type StateChanges,
} from './state-edit-model.ts';

interface Props {
  /** The state the changes start from (but for its long values). */
  base: Readonly<Record<string, unknown>>;
  /** The long values of the state, of which the page holds only a preview. */
  long?: Readonly<LongState>;
  /** Reads a long value whole, to edit it. */
  loadValue?: (key: string) => Promise<unknown>;
  /** What saving does: "Save changes", "Re-run with this state". */
  submitLabel: string;
  /** Saving with no change is allowed (a re-run can go from the state as it was). */
  allowNoChanges?: boolean;
  disabled: boolean;
  onSubmit: (changes: StateChanges) => void;
  onCancel: () => void;
}

const NO_LONG: LongState = {};

/** Characters of a key in a row and in its buttons' names. */
const KEY_CHARS = 80;

const STATUS_TEXT: Record<RowStatus, string> = {
  same: '',
  added: 'added',
  changed: 'changed',
  removed: 'removed',
};

/**
 * Edits a state: keys changed, added or removed one at a time, then saved together as one edit.
 * A value is typed as JSON; one that is not changes nothing and says why.
 */
export function StateEditor(props: Props) {
  const { base, long = NO_LONG, loadValue, submitLabel, allowNoChanges = false } = props;
  const { disabled, onSubmit, onCancel } = props;
  const [changes, setChanges] = useState<StateChanges>(NO_CHANGES);
  const [key, setKey] = useState('');
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string>();
  /** A long value being read whole, to edit it: the form waits for it. */
  const [reading, setReading] = useState<string>();
  const keyInput = useRef<HTMLInputElement>(null);
  const rows = useMemo(() => editorRows(base, changes, long), [base, changes, long]);
  const changed = Object.keys(changes).length > 0;

  const startEdit = async (name: string) => {
    setKey(name);
    setProblem(undefined);
    keyInput.current?.focus();
    if (!onlyPreviewOf(changes, name, long)) {
      setText(valueText(editedValue(base, changes, name)));
      return;
    }
    setText('');
    setReading(name);
    const value = await loadValue?.(name);
    setReading(undefined);
    // A failed read says so in the error banner; the value box stays empty.
    setText(valueText(value));
  };
  /** The changes with the key being typed set, or `undefined` when it is wrong (it says why). */
  const withTyped = (): StateChanges | undefined => {
    const badKey = keyProblem(key);
    const parsed = badKey === undefined ? parseValue(text) : { problem: badKey };
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return undefined;
    }
    setKey('');
    setText('');
    setProblem(undefined);
    return withChange(base, changes, key, parsed.value, long);
  };
  const setValue = (event: Event) => {
    event.preventDefault();
    const next = withTyped();
    if (next) setChanges(next);
  };
  // A key typed but not set yet is saved with the rest, rather than lost.
  const typing = key.trim() !== '' || text.trim() !== '';
  const submit = () => {
    const next = typing ? withTyped() : changes;
    if (next) onSubmit(next);
  };

  return (
    <div class="state-editor">
      <p class="hint">
        Values are JSON: <code>"blue"</code> (a text needs quotes), <code>3</code>,{' '}
        <code>true</code>, <code>{'{"a": 1}'}</code>. Saved as one turn you can rewind.{' '}
        <strong class={changesSharedKeys(changes) ? 'state-shared-note' : undefined}>
          user: and app: keys are shared with your other sessions, and rewind does not restore them.
        </strong>
      </p>
      {rows.length === 0 ? (
        <p class="hint">No keys yet.</p>
      ) : (
        <ul class="state-edit-rows">
          {rows.map((row) => {
            const name = clip(row.key, KEY_CHARS);
            return (
              <li key={row.key} class={`state-edit-row ${row.status}`}>
                <code class="state-edit-key">{name}</code>
                <span class="state-edit-value">{row.preview.text}</span>
                {row.status !== 'same' && (
                  <span class="state-edit-status">{STATUS_TEXT[row.status]}</span>
                )}
                <span class="state-edit-buttons">
                  {row.status !== 'removed' && (
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`Edit ${name}`}
                      onClick={() => void startEdit(row.key)}
                    >
                      Edit
                    </button>
                  )}
                  {row.status === 'same' ? (
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`Remove ${name}`}
                      onClick={() => setChanges(withChange(base, changes, row.key, null, long))}
                    >
                      Remove
                    </button>
                  ) : (
                    <button
                      type="button"
                      class="quiet"
                      aria-label={`Undo the change of ${name}`}
                      onClick={() => setChanges(withoutChange(changes, row.key))}
                    >
                      Undo
                    </button>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <form class="state-edit-form" onSubmit={setValue}>
        <label>
          Key
          <input
            ref={keyInput}
            value={key}
            spellcheck={false}
            autoComplete="off"
            onInput={(event) => setKey(event.currentTarget.value)}
          />
        </label>
        <label>
          Value (JSON)
          <textarea
            value={text}
            rows={2}
            spellcheck={false}
            disabled={reading !== undefined}
            placeholder={reading === undefined ? undefined : 'Reading the whole value…'}
            aria-invalid={problem !== undefined}
            onInput={(event) => setText(event.currentTarget.value)}
          />
        </label>
        {problem && (
          <p class="form-problem" role="alert">
            {problem}
          </p>
        )}
        <button type="submit" disabled={reading !== undefined}>
          Set key
        </button>
      </form>
      <div class="state-edit-actions">
        <button
          type="button"
          class="primary"
          disabled={disabled || reading !== undefined || (!changed && !typing && !allowNoChanges)}
          onClick={submit}
        >
          {submitLabel}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
