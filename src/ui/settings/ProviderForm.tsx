import type { ProvidersEditor, ProvidersState } from './providers-editor.ts';
import {
  KIND_LABELS,
  connectionText,
  keyPlaceholder,
  windowPlaceholder,
} from './providers-model.ts';
import type { ProviderKind } from '../../models/provider-spec.ts';
import { LocalModelForm } from './LocalModelForm.tsx';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';

interface Props {
  editor: ProvidersEditor;
  state: ProvidersState;
}

/** The form of one provider: its fields, Test connection (with the models found) and Save. */
export function ProviderForm({ editor, state }: Props) {
  const { draft, testing, test, models, saving, status, error } = state;
  if (!draft) {
    return (
      <div class="flow-editor">
        <p class="hint">Choose a provider, or add one from the buttons on the left.</p>
        {/* Adding a local model speaks here until its provider opens, or if it fails. */}
        {status && (
          <p class="flow-status" role="status">
            {status}
          </p>
        )}
        {error && (
          <p class="banner error" role="alert">
            {error}
          </p>
        )}
      </div>
    );
  }
  if (draft.kind === 'local-gguf') return <LocalModelForm editor={editor} state={state} />;
  return (
    <form
      class="flow-editor provider-form"
      onSubmit={(event) => {
        event.preventDefault();
        void editor.save();
      }}
    >
      {draft.hint && <p class="hint">{draft.hint}</p>}
      <label class="field">
        Name
        <input value={draft.name} onInput={(e) => editor.change({ name: e.currentTarget.value })} />
      </label>
      <label class="field">
        Kind
        <select
          value={draft.kind}
          onChange={(e) => editor.change({ kind: e.currentTarget.value as ProviderKind })}
        >
          {Object.entries(KIND_LABELS)
            // A local model comes from its file (Add local model), not from a server's fields.
            .filter(([kind]) => kind !== 'local-gguf')
            .map(([kind, label]) => (
              <option key={kind} value={kind}>
                {label}
              </option>
            ))}
        </select>
      </label>
      <label class="field">
        Base URL
        <input
          value={draft.baseUrl}
          spellcheck={false}
          onInput={(e) => editor.change({ baseUrl: e.currentTarget.value })}
        />
      </label>
      <label class="field">
        API key
        <input
          type="password"
          autocomplete="off"
          value={draft.apiKey}
          placeholder={keyPlaceholder(draft)}
          disabled={draft.removeKey}
          onInput={(e) => editor.change({ apiKey: e.currentTarget.value })}
        />
      </label>
      {draft.keyHint && (
        <label class="check">
          <input
            type="checkbox"
            checked={draft.removeKey}
            onChange={(e) => editor.change({ removeKey: e.currentTarget.checked, apiKey: '' })}
          />{' '}
          Remove the stored key
        </label>
      )}
      <p class="hint">The key stays in this browser: it goes only to this provider.</p>
      <label class="field">
        Default model
        <input
          value={draft.defaultModel}
          list="provider-models"
          spellcheck={false}
          placeholder={models.length > 0 ? 'Pick one of the models found' : 'e.g. qwen3:8b'}
          onInput={(e) => editor.change({ defaultModel: e.currentTarget.value })}
        />
        <datalist id="provider-models">
          {models.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
      </label>
      <label class="field">
        Context window (tokens)
        <input
          inputMode="numeric"
          value={draft.contextTokens ?? ''}
          placeholder={windowPlaceholder(draft)}
          aria-describedby="provider-window-hint"
          onInput={(e) => editor.change({ contextTokens: e.currentTarget.value })}
        />
      </label>
      <p class="hint" id="provider-window-hint">
        How much of a conversation the model reads at once. A chat that nears it is compacted: its
        earlier messages are summarised for the model (the chat keeps them all).
      </p>
      <div class="flow-buttons">
        <button type="button" disabled={testing} onClick={() => void editor.testConnection()}>
          {testing ? 'Testing…' : 'Test connection'}
        </button>
        <button type="submit" class="primary" disabled={saving}>
          Save
        </button>
        <FormStatus text={status} />
      </div>
      {test && (
        <p
          class={test.ok ? 'banner connection ok' : 'banner error'}
          role={test.ok ? 'status' : 'alert'}
          aria-label="Connection"
        >
          {connectionText(test)}
        </p>
      )}
      <ErrorBanner text={error} />
    </form>
  );
}
