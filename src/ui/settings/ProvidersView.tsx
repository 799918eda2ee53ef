import { useEffect, useRef } from 'preact/hooks';
import { formatBytes } from '../../core/format.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import { PROVIDER_PRESETS } from '../../models/provider-spec.ts';
import { ProviderForm } from './ProviderForm.tsx';
import type { ProvidersEditor } from './providers-editor.ts';
import { KIND_LABELS } from './providers-model.ts';
import { LocalDownload } from './LocalDownload.tsx';
import { DeleteButton, useHiddenIds } from '../common/DeleteButton.tsx';

interface Props {
  editor: ProvidersEditor;
  onClose: () => void;
}

/** Settings → Providers: the model providers (keys masked), presets to add one, and its form. */
export function ProvidersView({ editor, onClose }: Props) {
  const state = useSnapshot(editor);
  const { providers, draft } = state;
  // Deleted, waiting for its Undo: not listed.
  const deleted = useHiddenIds('provider');
  const listed = providers.filter((item) => !deleted.has(item.id));
  const filePicker = useRef<HTMLInputElement>(null);

  useEffect(() => {
    void editor.start();
    return () => editor.stop();
  }, [editor]);

  return (
    <section class="flows-view" aria-label="Providers">
      <header class="flows-head">
        <h2>Providers</h2>
        <p class="hint">
          Real models: the Gemini API, any server that speaks OpenAI’s chat completions, or a GGUF
          model file run in this browser (docs/local-models.md). Keys are kept in this browser only.
          A local server must allow this page’s origin (CORS: see docs/models.md).
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <div class="flows-body">
        <nav class="flows-list" aria-label="Provider list">
          <ul>
            {listed.map((provider) => (
              <li key={provider.id} class={provider.id === draft?.id ? 'current' : ''}>
                <button
                  type="button"
                  class="flow-open"
                  aria-pressed={provider.id === draft?.id}
                  onClick={() => editor.open(provider.id)}
                >
                  {provider.name}
                </button>
                <div class="flow-actions">
                  <span class="hint">
                    {KIND_LABELS[provider.kind]},{' '}
                    {provider.localFile
                      ? formatBytes(provider.localFile.size)
                      : provider.keyHint
                        ? `key ${provider.keyHint}`
                        : 'no key'}
                  </span>
                  <DeleteButton
                    kind="provider"
                    id={provider.id}
                    label={`Delete ${provider.name}`}
                    said={`Deleted the provider “${provider.name}” and ${
                      provider.localFile
                        ? `its file (${formatBytes(provider.localFile.size)})`
                        : 'its key'
                    }.`}
                  />
                </div>
              </li>
            ))}
          </ul>
          <p class="hint">Add a provider:</p>
          <div class="presets">
            {[...PROVIDER_PRESETS.map((preset) => preset.label), 'Other server'].map((label) => (
              <button key={label} type="button" onClick={() => editor.add(label)}>
                Add {label}
              </button>
            ))}
            <button
              type="button"
              disabled={state.saving}
              onClick={() => filePicker.current?.click()}
            >
              Add local model
            </button>
            <input
              ref={filePicker}
              type="file"
              accept=".gguf"
              multiple
              hidden
              aria-label="Local model file (.gguf), or all the parts of a split model"
              onChange={(e) => {
                const files = [...(e.currentTarget.files ?? [])];
                e.currentTarget.value = ''; // the same file may be picked again later
                if (files.length > 0) void editor.addLocalModel(files);
              }}
            />
          </div>
          <p class="hint">Or download a local model (.gguf) from a URL:</p>
          <LocalDownload editor={editor} />
        </nav>
        <ProviderForm editor={editor} state={state} />
      </div>
    </section>
  );
}
