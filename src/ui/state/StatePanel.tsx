import { useMemo, useState } from 'preact/hooks';
import { LongText } from '../common/LongText.tsx';
import { StateEditor } from './state-editor-lazy.ts';
import type { StateChanges } from './state-edit-model.ts';
import { longValues, type StateGroup } from './state-model.ts';
import { pure } from '../common/pure.ts';
import { clip } from '../common/preview.ts';

/** Characters of a key shown: keys come from chats and files, and can be anything. */
const KEY_CHARS = 200;

interface Props {
  groups: StateGroup[];
  /** The session's state, which an edit starts from. */
  state: Readonly<Record<string, unknown>>;
  /** Offered for sessions in this browser (an ADK server keeps its sessions' state). */
  editable: boolean;
  /** A run holds the session: an edit now would be refused. */
  disabled: boolean;
  /** Saves the changes as one state edit; true once it is stored. */
  onEdit: (changes: StateChanges) => Promise<boolean>;
  /** Reads a long value whole (the opening holds only its preview): Show all, Download, Edit. */
  loadValue: (key: string) => Promise<unknown>;
}

function StateView({ groups, state, editable, disabled, onEdit, loadValue }: Props) {
  const [editing, setEditing] = useState(false);
  const long = useMemo(() => longValues(groups), [groups]);
  return (
    <section class="panel state" aria-label="State">
      <div class="panel-heading">
        <h2>State</h2>
        {editable && !editing && (
          <button type="button" class="quiet" disabled={disabled} onClick={() => setEditing(true)}>
            Edit state
          </button>
        )}
      </div>
      {editing ? (
        <StateEditor
          base={state}
          long={long}
          loadValue={loadValue}
          submitLabel="Save changes"
          disabled={disabled}
          onSubmit={(changes) => void onEdit(changes).then((saved) => saved && setEditing(false))}
          onCancel={() => setEditing(false)}
        />
      ) : (
        groups.map((group) => (
          <div key={group.scope} class="state-group">
            <h3>{group.label}</h3>
            {group.entries.length === 0 ? (
              <p class="hint">No keys.</p>
            ) : (
              <dl>
                {group.entries.map(({ key, value, preview, long }) => (
                  <div key={key} class="state-entry">
                    <dt title={key.length > KEY_CHARS ? `${key.length} characters` : undefined}>
                      {clip(key, KEY_CHARS)}
                    </dt>
                    <dd>
                      <LongText
                        value={value}
                        load={long ? () => loadValue(key) : undefined}
                        preview={preview}
                        filename={clip(key, 60)}
                      />
                    </dd>
                  </div>
                ))}
              </dl>
            )}
          </div>
        ))
      )}
    </section>
  );
}

export const StatePanel = pure(StateView);
