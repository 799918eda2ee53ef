// The search dialog (Ctrl+K, ⌘K, the Sessions pane's Search): results as the user types, hits
// grouped by session with their words marked, ↑↓ to move, Enter to open, Esc to close. What
// must stay true: user text is only ever text nodes (the marks are <mark> elements cut from the
// worker's ranges, never HTML); it is a native modal <dialog> (labelled; what is behind it inert,
// so the focus stays inside; given back by the launcher on close). Loaded lazily with its model
// (SearchLauncher.tsx).

import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { SearchHit } from '../../../workers/protocol.ts';
import type { RuntimeClient, Workbench } from '../workbench/workbench.ts';
import { openHit, showSelectedTurn } from './open-hit.ts';
import { EMPTY_SEARCH, SearchModel, type ListedHit } from './search-model.ts';

interface Props {
  client: RuntimeClient;
  workbench: Workbench;
  onClose: () => void;
  /** A hit was opened (the App shows the chat pane on a phone). */
  onOpened?: () => void;
}

const KIND: Record<SearchHit['kind'], string> = {
  title: 'Title',
  message: 'Message',
  state: 'State',
  artifact: 'File',
};

/** The snippet as text nodes, with its marked ranges in <mark>. */
function Marked({ text, marks }: { text: string; marks: SearchHit['marks'] }) {
  const parts = [];
  let at = 0;
  for (const [from, to] of marks) {
    if (from < at || to > text.length || from >= to) continue;
    if (from > at) parts.push(text.slice(at, from));
    parts.push(<mark key={from}>{text.slice(from, to)}</mark>);
    at = to;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts}</>;
}

function when(time: number | undefined): string {
  return time === undefined ? '' : new Date(time).toLocaleString();
}

export function SearchDialog({ client, workbench, onClose, onOpened }: Props) {
  const [view, setView] = useState(EMPTY_SEARCH);
  const model = useMemo(() => new SearchModel(client, setView), [client]);
  const input = useRef<HTMLInputElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  // A native modal <dialog>: what is behind it is inert, so the focus stays in it.
  useEffect(() => {
    const shown = dialog.current;
    if (shown && !shown.open) shown.showModal();
    input.current?.focus();
    return () => {
      model.close();
      if (shown?.open) shown.close();
    };
  }, [model]);
  // The hit the keyboard is on stays in view.
  useEffect(() => {
    dialog.current?.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: 'nearest' });
  }, [view.active, view.hits]);

  const open = (listed: ListedHit | undefined) => {
    if (!listed) return;
    onClose();
    onOpened?.();
    void openHit(workbench, listed.sessionId, listed.hit).then(() =>
      requestAnimationFrame(showSelectedTurn),
    );
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onClose();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      model.move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      open(view.hits[view.active]);
    }
  };

  const { query, results, answered, hits, active, error, slow } = view;
  const activeId = hits[active] ? `search-hit-${active}` : undefined;
  let index = 0;
  return (
    <dialog
      ref={dialog}
      class="search-dialog"
      aria-modal="true"
      aria-labelledby="search-title"
      onKeyDown={onKeyDown}
      // Esc: the dialog's own cancel, which the page closes as its state says.
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      <div class="search-body">
        <div class="search-head">
          <h2 id="search-title">Search sessions</h2>
          <button type="button" class="quiet" onClick={onClose}>
            Close
          </button>
        </div>
        <input
          ref={input}
          type="search"
          role="combobox"
          list={undefined}
          aria-label="Search titles, messages, state and files"
          aria-expanded={hits.length > 0}
          aria-controls="search-results"
          aria-autocomplete="list"
          aria-activedescendant={activeId}
          placeholder="Search titles, messages (rewound ones too), state, files"
          value={query}
          maxLength={200}
          onInput={(event) => model.type(event.currentTarget.value)}
        />
        <p class="search-status" role="status">
          {error
            ? error
            : slow
              ? 'Searching…'
              : results && answered.trim()
                ? hits.length === 0
                  ? `No session holds “${answered}”.`
                  : `${results.sessions.length} session${results.sessions.length === 1 ? '' : 's'}`
                : ''}
        </p>
        <ul id="search-results" class="search-results" role="listbox" aria-label="Hits">
          {results?.sessions.map((session) => (
            <li key={session.sessionId} role="presentation">
              <p class="search-session" aria-hidden="true">
                {session.title}
              </p>
              <ul role="group" aria-label={session.title}>
                {session.hits.map((hit) => {
                  const at = index++;
                  return (
                    <li
                      key={at}
                      id={`search-hit-${at}`}
                      role="option"
                      aria-selected={at === active}
                      class="search-hit"
                      onMouseMove={() => at !== active && model.pick(at)}
                      onClick={() => open(hits[at])}
                    >
                      <span class="search-kind">
                        {KIND[hit.kind]}
                        {hit.name ? ` · ${hit.name}` : ''}
                      </span>
                      {hit.kind === 'message' && hit.active === false && (
                        <span class="search-badge">rewound branch</span>
                      )}
                      <span class="search-snippet">
                        <Marked text={hit.snippet} marks={hit.marks} />
                      </span>
                      {hit.time !== undefined && <span class="search-time">{when(hit.time)}</span>}
                    </li>
                  );
                })}
              </ul>
            </li>
          ))}
        </ul>
        <p class="hint search-keys">↑↓ to move · Enter to open · Esc to close</p>
      </div>
    </dialog>
  );
}
