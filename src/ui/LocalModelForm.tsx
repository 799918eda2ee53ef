import { formatBytes } from '../core/format.ts';
import { localThreads } from '../models/local/local-threads.ts';
import { LocalModelPanel } from './LocalModelPanel.tsx';
import type { ProvidersEditor, ProvidersState } from './providers-editor.ts';

interface Props {
  editor: ProvidersEditor;
  state: ProvidersState;
}

/** The form of a local model: its name, its file, and how it runs here (threads, and why). */
export function LocalModelForm({ editor, state }: Props) {
  const { draft, saving, status, error } = state;
  if (!draft) return null;
  const { reason } = localThreads(crossOriginIsolated, navigator.hardwareConcurrency || 1);
  return (
    <form
      class="flow-editor provider-form"
      onSubmit={(event) => {
        event.preventDefault();
        void editor.save();
      }}
    >
      <label class="field">
        Name
        <input value={draft.name} onInput={(e) => editor.change({ name: e.currentTarget.value })} />
      </label>
      {draft.localFile && (
        <p class="hint">
          {draft.localFile.name}, {formatBytes(draft.localFile.size)}: kept in this browser’s
          private storage, one copy. It is loaded on an agent’s first message, which takes a while
          for a large model; one local model is loaded at a time.
        </p>
      )}
      <p class="hint">{reason}</p>
      {draft.id && <LocalModelPanel key={draft.id} editor={editor} providerId={draft.id} />}
      <div class="flow-buttons">
        <button type="submit" class="primary" disabled={saving}>
          Save
        </button>
        {status && (
          <span class="flow-status" role="status">
            {status}
          </span>
        )}
      </div>
      {error && (
        <p class="banner error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
