// "Try a search" on a knowledge base: what an agent's search_knowledge would find for a question,
// each hit with its document, place and text; a hit opens the document at its chunk.

import { useState } from 'preact/hooks';
import type { KnowledgeSearchHit } from '../../../workers/protocol.ts';
import type { KnowledgeSearchState } from './knowledge-model.ts';

interface Props {
  baseId: string;
  search: KnowledgeSearchState | undefined;
  onSearch: (query: string) => void;
  onOpen: (hit: KnowledgeSearchHit) => void;
}

export function KnowledgeSearch({ baseId, search, onSearch, onOpen }: Props) {
  const mine = search?.baseId === baseId ? search : undefined;
  const [query, setQuery] = useState(mine?.query ?? '');
  return (
    <section class="knowledge-search" aria-labelledby="knowledge-search-title">
      <h3 id="knowledge-search-title">Try a search</h3>
      <form
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(query);
        }}
      >
        <input
          type="search"
          aria-label="Search this knowledge base"
          placeholder="A question an agent might look up"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <button type="submit" disabled={!query.trim()}>
          Search
        </button>
      </form>
      {mine?.searching && (
        <p class="hint" role="status">
          Searching…
        </p>
      )}
      {mine?.error && (
        <p class="banner error" role="alert">
          The search failed: {mine.error}
        </p>
      )}
      {mine?.hits && (
        <p class="hint" role="status">
          {mine.hits.length === 0
            ? 'Nothing found.'
            : `${mine.hits.length} ${mine.hits.length === 1 ? 'passage' : 'passages'} found, the best first.`}
        </p>
      )}
      {mine?.hits && mine.hits.length > 0 && (
        <ol class="knowledge-hits">
          {mine.hits.map((hit) => (
            <li key={hit.chunkId}>
              <button type="button" class="knowledge-hit" onClick={() => onOpen(hit)}>
                <span class="knowledge-hit-where">
                  <strong>{hit.document}</strong> — {hit.place}
                </span>
                <span class="knowledge-hit-text">{hit.text}</span>
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
