// A form of passphrase fields (Settings → Security, and the banner that unlocks keys).

import { useState } from 'preact/hooks';

interface Field {
  name: string;
  label: string;
  autocomplete: 'new-password' | 'current-password';
}

/**
 * A form of passphrase fields: submitted with Enter or its button; its fields are emptied once
 * the change it asks for is done (a refused one keeps them, to correct).
 */
export function PassphraseForm({
  label,
  fields,
  submit,
  busy,
  onSubmit,
  onCancel,
  cancel = 'Cancel',
}: {
  label: string;
  /** The cancel button's words. */
  cancel?: string;
  fields: Field[];
  submit: string;
  busy: boolean;
  onSubmit: (values: Record<string, string>) => Promise<boolean>;
  onCancel?: () => void;
}) {
  const [values, setValues] = useState<Record<string, string>>({});
  return (
    <form
      class="keys-form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit(values).then((done) => done && setValues({}));
      }}
    >
      {fields.map((field) => (
        <label key={field.name}>
          {field.label}
          <input
            type="password"
            autocomplete={field.autocomplete}
            required
            value={values[field.name] ?? ''}
            onInput={(event) => {
              const value = event.currentTarget.value;
              setValues((current) => ({ ...current, [field.name]: value }));
            }}
          />
        </label>
      ))}
      <div class="flow-buttons">
        <button type="submit" class="primary" disabled={busy}>
          {submit}
        </button>
        {onCancel && (
          <button type="button" onClick={onCancel}>
            {cancel}
          </button>
        )}
      </div>
    </form>
  );
}
