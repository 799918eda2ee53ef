// The start node's input in its node form: a chat message, or a form the user fills to start a
// run (Flowise V2's Form Input) with its title, description and fields.

import { FORM_FIELDS } from './node-fields.ts';
import { RowsField } from './RowsField.tsx';
import { startFormOf, startFormValue, type StartFormView } from './start-form-model.ts';

const EMPTY: StartFormView = { title: '', description: '', fields: [] };

export function StartFormField({
  node,
  onForm,
}: {
  node: Record<string, unknown>;
  /** The node's new `form` (undefined: none). */
  onForm: (form: Record<string, unknown> | undefined) => void;
}) {
  const view = startFormOf(node);
  const set = (next: StartFormView | undefined) => onForm(startFormValue(next, node.form));
  return (
    <>
      <label>
        Input type
        <select
          value={view ? 'form' : 'chat'}
          onChange={(event) =>
            set(event.currentTarget.value === 'form' ? (view ?? EMPTY) : undefined)
          }
        >
          <option value="chat">Chat input</option>
          <option value="form">Form input</option>
        </select>
      </label>
      {view && (
        <fieldset class="start-form-input">
          <legend>Form input</legend>
          <label>
            Form title
            <input
              type="text"
              value={view.title}
              onInput={(event) => set({ ...view, title: event.currentTarget.value })}
            />
          </label>
          <label>
            Form description
            <textarea
              rows={2}
              value={view.description}
              onInput={(event) => set({ ...view, description: event.currentTarget.value })}
            />
          </label>
          <RowsField
            node={{ fields: view.fields }}
            field={FORM_FIELDS}
            onRows={(fields) => set({ ...view, fields })}
          />
        </fieldset>
      )}
    </>
  );
}
