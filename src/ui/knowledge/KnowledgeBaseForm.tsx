// The form of a knowledge base, new or saved: name, description (what the agent's tool says of
// it), chunking, and the embedding model (none: full-text search only). A saved base's form says
// before Save what a change will do to its documents (re-index, re-embed).

import { useState } from 'preact/hooks';
import {
  CHUNKING_LIMITS,
  type KnowledgeBaseDraft,
  type KnowledgeBaseInfo,
  type ProviderInfo,
} from '../../../workers/protocol.ts';
import {
  changeEffect,
  draftOf,
  emptyForm,
  formOf,
  formProblems,
  defaultEmbeddingModel,
  type BaseForm,
} from './knowledge-format.ts';

interface Props {
  /** The saved base (absent: a new one). */
  base?: KnowledgeBaseInfo;
  providers: readonly ProviderInfo[];
  busy: boolean;
  onSave: (draft: KnowledgeBaseDraft) => Promise<boolean>;
  onCancel: () => void;
}

export function KnowledgeBaseForm({ base, providers, busy, onSave, onCancel }: Props) {
  const [form, setForm] = useState<BaseForm>(() => (base ? formOf(base) : emptyForm()));
  const [tried, setTried] = useState(false);
  const change = (patch: Partial<BaseForm>) => setForm((was) => ({ ...was, ...patch }));
  const problems = formProblems(form, providers);
  const effect = base && problems.length === 0 ? changeEffect(base, form) : undefined;
  const id = base?.id ?? 'new';
  const { minSize, maxSize } = CHUNKING_LIMITS;
  return (
    <form
      class="knowledge-form"
      // Its own checks say what to fix (formProblems), in words, all at once.
      noValidate
      aria-label={base ? `Settings of ${base.name}` : 'New knowledge base'}
      onSubmit={(event) => {
        event.preventDefault();
        setTried(true);
        if (problems.length === 0) void onSave(draftOf(form));
      }}
    >
      <label class="field">
        Name
        <input
          value={form.name}
          maxLength={120}
          onInput={(e) => change({ name: e.currentTarget.value })}
        />
      </label>
      <label class="field">
        Description
        <textarea
          rows={2}
          value={form.description}
          aria-describedby={`kb-description-${id}`}
          onInput={(e) => change({ description: e.currentTarget.value })}
        />
      </label>
      <p class="hint" id={`kb-description-${id}`}>
        What it holds, in a sentence (“Our product handbook and its FAQ”): an agent reads this to
        know when to search it.
      </p>
      <div class="field-row">
        <label class="field">
          Chunk size (characters)
          <input
            type="number"
            inputMode="numeric"
            min={minSize}
            max={maxSize}
            step={50}
            value={form.size}
            onInput={(e) => change({ size: e.currentTarget.value })}
          />
        </label>
        <label class="field">
          Overlap (characters)
          <input
            type="number"
            inputMode="numeric"
            min={0}
            step={10}
            value={form.overlap}
            onInput={(e) => change({ overlap: e.currentTarget.value })}
          />
        </label>
      </div>
      <div class="field-row">
        <label class="field">
          Embedding model
          <select
            value={form.providerId}
            onChange={(e) => {
              const providerId = e.currentTarget.value;
              change({
                providerId,
                model:
                  form.model || defaultEmbeddingModel(providers.find((p) => p.id === providerId)),
              });
            }}
          >
            <option value="">None (full-text search only)</option>
            {providers.map((provider) => (
              <option key={provider.id} value={provider.id}>
                {provider.name}
              </option>
            ))}
          </select>
        </label>
        {form.providerId && (
          <label class="field">
            Model name
            <input
              value={form.model}
              spellcheck={false}
              placeholder="The embedding model’s name"
              onInput={(e) => change({ model: e.currentTarget.value })}
            />
          </label>
        )}
      </div>
      <p class="hint">
        Full-text search finds the words asked for; an embedding model also finds passages that mean
        the same in other words (hybrid search). Vectors are kept per model.
      </p>
      {effect && <p class="banner notice">{effect}</p>}
      {tried && problems.length > 0 && (
        <div class="problems" role="alert">
          <ul>
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        </div>
      )}
      <div class="flow-buttons">
        <button type="submit" class="primary" disabled={busy}>
          {base ? 'Save settings' : 'Make knowledge base'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
