// A knowledge base's documents: name, kind, size, pages, chunks and status (a failed one says
// why, as an alert the screen reader hears), each with Remove.

import type { KnowledgeDocument } from '../../../workers/protocol.ts';
import { documentFacts, documentStatus } from './knowledge-format.ts';

interface Props {
  documents: KnowledgeDocument[];
  busy: boolean;
  onRemove: (doc: KnowledgeDocument) => void;
}

export function KnowledgeDocuments({ documents, busy, onRemove }: Props) {
  if (documents.length === 0)
    return (
      <div class="knowledge-empty">
        <p>No documents yet.</p>
        <p class="hint">
          Add the files an agent should answer from (a handbook, notes, a manual as PDF), or paste
          text. Each is split into chunks and indexed here, in your browser.
        </p>
      </div>
    );
  return (
    <ul class="knowledge-documents" aria-label="Documents">
      {documents.map((doc) => (
        <li key={doc.id} class={`knowledge-document status-${doc.status}`}>
          <div class="knowledge-document-main">
            <span class="knowledge-document-name">{doc.name}</span>
            <span class="hint">{documentFacts(doc)}</span>
          </div>
          {doc.status === 'failed' ? (
            <p class="knowledge-document-status" role="alert">
              {documentStatus(doc)}
            </p>
          ) : (
            <p class="knowledge-document-status">{documentStatus(doc)}</p>
          )}
          <button
            type="button"
            class="quiet"
            disabled={busy}
            aria-label={`Remove ${doc.name}`}
            onClick={() => onRemove(doc)}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
