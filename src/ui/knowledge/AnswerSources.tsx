// The numbered "Sources" under an answer: `[n] document — place`, each a button that opens the
// document at that chunk (DocumentViewer). What they are comes from the turn's knowledge tool
// responses (answer-sources.ts); the chat hands them in.

import { useContext, useState } from 'preact/hooks';
import type { KnowledgeSource } from '../../../workers/protocol.ts';
import { sourceLabel } from './answer-sources.ts';
import { DocumentViewer, type ViewerTarget } from './DocumentViewer.tsx';
import { KnowledgeOpenContext } from './knowledge-context.ts';
import './sources.css';

/** Without the worker (no provider), the viewer says it cannot open: the tool's text still shows. */
const UNAVAILABLE = () => Promise.reject(new Error('the knowledge bases are not available here'));

export function AnswerSources({
  sources,
  answerId,
}: {
  sources: KnowledgeSource[];
  answerId: string;
}) {
  const open = useContext(KnowledgeOpenContext) ?? UNAVAILABLE;
  const [target, setTarget] = useState<ViewerTarget>();
  const headingId = `sources-${answerId}`;
  return (
    <section class="answer-sources" aria-labelledby={headingId}>
      <h3 id={headingId}>Sources</h3>
      <ol>
        {sources.map((source) => (
          <li key={source.source} value={source.source}>
            <button
              type="button"
              class="quiet"
              data-source={source.source}
              title={source.text.slice(0, 300)}
              onClick={() =>
                setTarget({
                  chunkId: source.ref.chunkId,
                  fallback: { document: source.document, place: source.place, text: source.text },
                })
              }
            >
              {sourceLabel(source)}
            </button>
          </li>
        ))}
      </ol>
      <DocumentViewer target={target} open={open} onClose={() => setTarget(undefined)} />
    </section>
  );
}
