// The Knowledge view (Settings → Knowledge): the user's knowledge bases — documents an agent can
// search and cite — with New knowledge base, and a base's own page (KnowledgeBasePage). Its
// model follows every tab's changes and every job's progress.

import { useEffect, useMemo, useState } from 'preact/hooks';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import { KnowledgeBaseForm } from './KnowledgeBaseForm.tsx';
import { KnowledgeBasePage } from './KnowledgeBasePage.tsx';
import { plural, progressText, running, searchKind } from './knowledge-format.ts';
import { KnowledgeModel, type KnowledgeClient } from './knowledge-model.ts';
import './knowledge.css';

interface Props {
  client: KnowledgeClient;
  onClose: () => void;
}

export function KnowledgeView({ client, onClose }: Props) {
  const model = useMemo(() => new KnowledgeModel(client), [client]);
  const state = useSnapshot(model);
  useEffect(() => {
    void model.start();
    return () => model.stop();
  }, [model]);
  const [creating, setCreating] = useState(false);
  const open = model.open;
  return (
    <section class="flows-view knowledge-view" aria-label="Knowledge">
      <header class="flows-head">
        <h2 tabIndex={-1}>Knowledge</h2>
        <p class="hint">
          Documents your agents can search and cite: choose a knowledge base for an agent in Agents,
          and its answers list the passages they used as numbered sources.
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <ErrorBanner text={state.error} />
      <FormStatus text={state.status} label="Knowledge" />
      {open ? (
        <KnowledgeBasePage key={open.id} model={model} state={state} base={open} />
      ) : (
        <>
          {creating ? (
            <KnowledgeBaseForm
              providers={state.providers}
              busy={state.busy}
              onSave={async (draft) => {
                const made = await model.create(draft);
                if (made) setCreating(false);
                return made;
              }}
              onCancel={() => setCreating(false)}
            />
          ) : (
            <div class="flow-buttons">
              <button type="button" class="primary" onClick={() => setCreating(true)}>
                New knowledge base
              </button>
            </div>
          )}
          {state.loaded && state.bases.length === 0 && !creating && (
            <div class="knowledge-empty">
              <p>No knowledge bases yet.</p>
              <p class="hint">
                A knowledge base holds documents — a product handbook, meeting notes, a manual as
                PDF — split into passages and indexed in this browser. An agent given one searches
                it before answering and cites what it used, so you can check the answer against the
                source.
              </p>
            </div>
          )}
          <ul class="knowledge-bases" aria-label="Knowledge bases">
            {state.bases.map((base) => {
              const progress = model.progressOf(base);
              return (
                <li key={base.id}>
                  <button
                    type="button"
                    class="knowledge-base-card"
                    onClick={() => model.openBase(base.id)}
                  >
                    <strong>{base.name}</strong>
                    {base.description && (
                      <span class="knowledge-description">{base.description}</span>
                    )}
                    <span class="hint">
                      {plural(base.documents.length, 'document')} · {plural(base.chunks, 'chunk')} ·{' '}
                      {searchKind(base, state.providers)}
                    </span>
                    {progress && running(progress) && (
                      <span class="hint">{progressText(progress)}</span>
                    )}
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
