// The Prompts view (Settings → Prompts): the saved prompts that `/` in the message box inserts,
// each with its name, the start of its text and its variables; New, Edit, Delete (with an Undo,
// as every delete here), and the library as a JSON file out and in. Its model (PromptLibrary)
// follows every tab's changes.

import { useContext, useEffect, useRef, useState } from 'preact/hooks';
import type { PromptRecord } from '../../../workers/protocol.ts';
import { DeleteButton, useHiddenIds } from '../common/DeleteButton.tsx';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';
import { clip } from '../common/preview.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import { PromptsContext, type PromptLibrary } from './prompt-library.ts';
import { promptVariables } from './prompt-text.ts';
import './prompts.css';

/** The prompt the form edits: a new one (`id` absent) or a saved one. */
type Draft = { id?: string; name: string; text: string };

export function PromptsView({ onClose }: { onClose: () => void }) {
  const library = useContext(PromptsContext);
  if (!library) return null;
  return <Prompts library={library} onClose={onClose} />;
}

function Prompts({ library, onClose }: { library: PromptLibrary; onClose: () => void }) {
  const state = useSnapshot(library);
  useEffect(() => library.start(), [library]);
  const hidden = useHiddenIds('prompt');
  const [draft, setDraft] = useState<Draft>();
  const prompts = state.prompts.filter((prompt) => !hidden.has(prompt.id));
  const edit = (prompt?: PromptRecord) =>
    setDraft(
      prompt ? { id: prompt.id, name: prompt.name, text: prompt.text } : { name: '', text: '' },
    );

  return (
    <section class="flows-view prompts-view" aria-label="Prompts">
      <header class="flows-head">
        <h2 tabIndex={-1}>Prompts</h2>
        <p class="hint">
          Saved prompts: type <kbd>/</kbd> in the message box and the start of a name to insert one.
          Write <code>{'{{topic}}'}</code> in a text for a variable you fill in when you insert it.
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <ErrorBanner text={state.error} />
      <div class="prompts-actions">
        <button type="button" class="primary" disabled={state.busy} onClick={() => edit()}>
          New prompt
        </button>
        <label class="import">
          Import prompts…
          <input
            type="file"
            accept="application/json,.json"
            disabled={state.busy}
            onChange={(event) => {
              const input = event.currentTarget;
              const file = input.files?.[0];
              if (file) void library.importFile(file).then(() => (input.value = ''));
            }}
          />
        </label>
        <button
          type="button"
          disabled={state.busy || prompts.length === 0}
          onClick={() => void library.exportFile()}
        >
          Export
        </button>
        <FormStatus text={state.status} label="Prompts" />
      </div>
      {draft && (
        <PromptForm
          key={draft.id ?? 'new'}
          draft={draft}
          busy={state.busy}
          onSave={async (input) => {
            if (await library.save(input)) setDraft(undefined);
          }}
          onCancel={() => setDraft(undefined)}
        />
      )}
      {state.loaded && prompts.length === 0 && !draft ? (
        <p class="hint">No saved prompts yet. New prompt starts one.</p>
      ) : (
        <ul class="prompts-list" aria-label="Saved prompts">
          {prompts.map((prompt) => {
            const variables = promptVariables(prompt.text);
            return (
              <li key={prompt.id}>
                <h3>{prompt.name}</h3>
                <p class="prompt-text">{clip(prompt.text.trim(), 200)}</p>
                {variables.length > 0 && <p class="hint">Variables: {variables.join(', ')}</p>}
                <div class="prompt-buttons">
                  <button
                    type="button"
                    aria-label={`Edit ${prompt.name}`}
                    disabled={state.busy}
                    onClick={() => edit(prompt)}
                  >
                    Edit
                  </button>
                  <DeleteButton
                    kind="prompt"
                    id={prompt.id}
                    label={`Delete ${prompt.name}`}
                    said={`Deleted the prompt “${clip(prompt.name, 60)}”.`}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

function PromptForm(props: {
  draft: Draft;
  busy: boolean;
  onSave: (draft: Draft) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(props.draft.name);
  const [text, setText] = useState(props.draft.text);
  const variables = promptVariables(text);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <form
      class="prompt-form"
      aria-label={props.draft.id ? `Edit ${props.draft.name}` : 'New prompt'}
      onSubmit={(event) => {
        event.preventDefault();
        props.onSave({ ...(props.draft.id ? { id: props.draft.id } : {}), name, text });
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          props.onCancel();
        }
      }}
    >
      <label>
        Name
        <input
          value={name}
          required
          maxLength={100}
          ref={first}
          onInput={(event) => setName(event.currentTarget.value)}
        />
      </label>
      <label>
        Text
        <textarea
          value={text}
          required
          rows={6}
          onInput={(event) => setText(event.currentTarget.value)}
        />
      </label>
      <p class="hint" aria-live="polite">
        {variables.length > 0
          ? `Variables asked for when it is inserted: ${variables.join(', ')}.`
          : 'No variables: write {{name}} in the text for one.'}
      </p>
      <div class="prompt-buttons">
        <button type="submit" class="primary" disabled={props.busy}>
          Save prompt
        </button>
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
