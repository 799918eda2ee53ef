import { formatBytes } from '../../core/format.ts';
import { DEFAULT_CACHE_CAP_BYTES, DEFAULT_CONTEXT_CAP } from '../../models/local/local-context.ts';
import { localThreads } from '../../models/local/local-threads.ts';
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
      <label class="field">
        Context size (tokens)
        <input
          inputMode="numeric"
          value={draft.contextTokens ?? ''}
          placeholder="The model’s own"
          aria-describedby="local-context-hint"
          onInput={(e) => editor.change({ contextTokens: e.currentTarget.value })}
        />
      </label>
      <p class="hint" id="local-context-hint">
        How much of a conversation the model reads at once, its reply included. Empty: the model’s
        own context length, at most {DEFAULT_CONTEXT_CAP.toLocaleString('en-US')} tokens (less for a
        large model, so that its cache stays under {formatBytes(DEFAULT_CACHE_CAP_BYTES)}). More
        takes more memory, set aside when the model loads; a new size loads it again. A conversation
        longer than the context is sent without its oldest turns, and the chat says so.
      </p>
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
