// One knowledge base's page: what it is and how it searches, its job's progress with Stop, adding
// files and text, its documents, Re-index, its settings, Delete (confirmed in place), and "Try a
// search" whose hits open the document viewer.

import { useState } from 'preact/hooks';
import type { KnowledgeBaseSummary, KnowledgeProgress } from '../../../workers/protocol.ts';
import { DocumentViewer, type ViewerTarget } from './DocumentViewer.tsx';
import { KnowledgeAdd } from './KnowledgeAdd.tsx';
import { KnowledgeBaseForm } from './KnowledgeBaseForm.tsx';
import { KnowledgeDocuments } from './KnowledgeDocuments.tsx';
import { plural, progressText, running, searchKind } from './knowledge-format.ts';
import type { KnowledgeModel, KnowledgeState } from './knowledge-model.ts';
import { KnowledgeSearch } from './KnowledgeSearch.tsx';

interface Props {
  model: KnowledgeModel;
  state: KnowledgeState;
  base: KnowledgeBaseSummary;
}

export function KnowledgeBasePage({ model, state, base }: Props) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [viewing, setViewing] = useState<ViewerTarget>();
  const progress = model.progressOf(base);
  const busy = state.busy;
  const working = running(progress);
  return (
    <article class="knowledge-base" aria-labelledby="knowledge-base-title">
      <div class="knowledge-base-head">
        <h3 id="knowledge-base-title">{base.name}</h3>
        <button type="button" class="quiet" onClick={() => model.openBase(undefined)}>
          All knowledge bases
        </button>
      </div>
      {base.description && <p class="knowledge-description">{base.description}</p>}
      <p class="hint">
        {searchKind(base, state.providers)} · {plural(base.documents.length, 'document')} ·{' '}
        {plural(base.chunks, 'chunk')}
        {base.embedded !== undefined && base.embedded < base.chunks
          ? ` · ${base.embedded.toLocaleString('en')} embedded`
          : ''}{' '}
        · chunks of {base.chunking.size.toLocaleString('en')} characters, {base.chunking.overlap}{' '}
        overlapping
      </p>
      {progress && <JobProgress progress={progress} onStop={() => void model.stopJob(base.id)} />}
      {editing ? (
        <KnowledgeBaseForm
          base={base}
          providers={state.providers}
          busy={busy}
          onSave={async (draft) => {
            const saved = await model.update(base.id, draft);
            if (saved) setEditing(false);
            return saved;
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div class="flow-buttons">
          <button type="button" onClick={() => setEditing(true)}>
            Settings
          </button>
          <button
            type="button"
            disabled={busy || working || base.documents.length === 0}
            title="Read every document again and split it anew"
            onClick={() => void model.reindex(base.id)}
          >
            Re-index
          </button>
          <button
            type="button"
            class="danger"
            disabled={busy}
            aria-expanded={confirming}
            onClick={() => setConfirming(true)}
          >
            Delete knowledge base
          </button>
        </div>
      )}
      {confirming && (
        <div class="banner notice knowledge-confirm" role="group" aria-label="Confirm delete">
          <p>
            Delete “{base.name}” and its {plural(base.documents.length, 'document')}? Agents that
            use it will no longer find them. This cannot be undone.
          </p>
          <div class="flow-buttons">
            <button
              type="button"
              class="primary danger"
              disabled={busy}
              onClick={() => void model.remove(base)}
            >
              Delete
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      )}
      <KnowledgeAdd
        baseName={base.name}
        busy={busy}
        onFiles={(files) => model.addFiles(base.id, files)}
        onText={(name, text) => model.addText(base.id, name, text)}
      />
      <KnowledgeDocuments
        documents={base.documents}
        busy={busy}
        onRemove={(doc) => void model.removeDocument(base.id, doc.id, doc.name)}
      />
      {base.documents.length > 0 && (
        <KnowledgeSearch
          baseId={base.id}
          search={state.search}
          onSearch={(query) => void model.search(base.id, query)}
          onOpen={(hit) => setViewing({ chunkId: hit.chunkId })}
        />
      )}
      <DocumentViewer
        target={viewing}
        open={(chunkId) => model.openChunk(chunkId)}
        onClose={() => setViewing(undefined)}
      />
    </article>
  );
}

/** The base's job: a bar while it runs (with Stop), then how it ended. */
function JobProgress({ progress, onStop }: { progress: KnowledgeProgress; onStop: () => void }) {
  const text = progressText(progress);
  if (!running(progress))
    return progress.phase === 'failed' ? (
      <p class="banner error" role="alert">
        {text}
      </p>
    ) : (
      <p class="hint" role="status">
        {text}
      </p>
    );
  return (
    <div class="knowledge-progress">
      <progress
        value={progress.done}
        max={Math.max(progress.total, 1)}
        aria-label="Indexing progress"
      />
      <span role="status">{text}</span>
      <button type="button" onClick={onStop}>
        Stop
      </button>
    </div>
  );
}
