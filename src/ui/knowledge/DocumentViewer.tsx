// A knowledge base's document opened at a chunk, in a modal dialog: the text around the chunk
// (a PDF's page) with the chunk marked and scrolled into view. Opened from a source under an
// answer and from a hit of "Try a search". The native <dialog> gives the focus trap, the inert
// page behind and Escape; the focus goes back to what opened it.
//
// What must stay true: a source whose document was removed since still shows the text the tool
// gave the model (from the session's event), saying the document is gone; any other failure is
// said as it is (role=alert), never as a removal.

import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { KnowledgeChunkView } from '../../../workers/protocol.ts';
import { isGone } from './answer-sources.ts';
import './sources.css';

/** What the viewer opens: a chunk, and what the tool said of it when it came from an answer. */
export interface ViewerTarget {
  chunkId: string;
  /** The source as the answer's event holds it: shown when the document is gone. */
  fallback?: { document: string; place: string; text: string };
}

interface Props {
  target: ViewerTarget | undefined;
  /** The worker's `knowledge.open`. */
  open: (chunkId: string) => Promise<KnowledgeChunkView>;
  onClose: () => void;
}

type Shown =
  | { kind: 'loading' }
  | { kind: 'view'; view: KnowledgeChunkView }
  | { kind: 'failed'; removed: boolean; message: string };

export function DocumentViewer({ target, open, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const mark = useRef<HTMLElement>(null);
  const [shown, setShown] = useState<Shown>({ kind: 'loading' });
  useEffect(() => {
    if (!target) return;
    opener.current = document.activeElement;
    if (!dialog.current?.open) dialog.current?.showModal();
    let live = true;
    setShown({ kind: 'loading' });
    open(target.chunkId).then(
      (view) => live && setShown({ kind: 'view', view }),
      (error: unknown) =>
        live &&
        setShown({
          kind: 'failed',
          removed: isGone(error),
          message: (error as Error | null)?.message ?? String(error),
        }),
    );
    return () => {
      live = false;
    };
  }, [target?.chunkId]);
  useLayoutEffect(() => {
    if (shown.kind === 'view') mark.current?.scrollIntoView({ block: 'center' });
  }, [shown]);
  if (!target) return null;
  const title =
    shown.kind === 'view' ? shown.view.document : (target.fallback?.document ?? 'Document');
  const place = shown.kind === 'view' ? shown.view.place : target.fallback?.place;
  const close = () => dialog.current?.close();
  return (
    <dialog
      ref={dialog}
      class="knowledge-viewer"
      aria-labelledby="knowledge-viewer-title"
      onClose={() => {
        onClose();
        (opener.current as HTMLElement | null)?.focus?.();
      }}
      // A click on the backdrop lands on the dialog itself, not on what it holds.
      onClick={(event) => event.target === event.currentTarget && close()}
    >
      <header class="knowledge-viewer-head">
        <h2 id="knowledge-viewer-title">{title}</h2>
        {place && <p class="hint">{place}</p>}
        <button type="button" onClick={close}>
          Close
        </button>
      </header>
      {shown.kind === 'loading' && (
        <p class="hint" role="status">
          Opening…
        </p>
      )}
      {shown.kind === 'view' && (
        <div class="knowledge-viewer-text" tabIndex={0} aria-label={`Text of ${title}`}>
          {shown.view.text.slice(0, shown.view.start)}
          <mark ref={mark}>{shown.view.text.slice(shown.view.start, shown.view.end)}</mark>
          {shown.view.text.slice(shown.view.end)}
        </div>
      )}
      {shown.kind === 'failed' && (
        <>
          <p class="banner error" role="alert">
            {shown.removed
              ? 'This document was removed from the knowledge base.'
              : `Could not open the document: ${shown.message}`}
          </p>
          {target.fallback && (
            <>
              <p class="hint">What the agent was given from it:</p>
              <div class="knowledge-viewer-text" tabIndex={0} aria-label={`Text of ${title}`}>
                <mark>{target.fallback.text}</mark>
              </div>
            </>
          )}
        </>
      )}
    </dialog>
  );
}
