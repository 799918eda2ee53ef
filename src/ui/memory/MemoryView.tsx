// The Memory view (Settings → Memory): what the user's agents remember across sessions, by
// session (the latest first), each memory with who said it, when, and its text (a long one cut),
// and Delete for a memory or all of a session's. Its model follows every tab's changes.

import { useEffect, useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';
import { LongText } from '../common/LongText.tsx';
import { clip, TITLE_CHARS } from '../common/preview.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';
import { authorName, MemoryModel, memorySummary } from './memory-model.ts';
import './memory.css';

interface Props {
  client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>;
  /** Opens a session (and goes back to its chat). */
  onOpen: (sessionId: string) => void;
  onClose: () => void;
}

/** Characters of a memory shown before its Show all. */
const SHOWN_CHARS = 280;

export function MemoryView({ client, onOpen, onClose }: Props) {
  const model = useMemo(() => new MemoryModel(client), [client]);
  const state = useSnapshot(model);
  useEffect(() => {
    void model.start();
    return () => model.stop();
  }, [model]);
  const { sessions, loaded, busy } = state;
  // Where the focus goes once a delete is drawn: its button went away with what it deleted.
  const refocus = useRef<Place | null>(null);
  useLayoutEffect(() => {
    if (busy || !refocus.current) return;
    focusAfterDelete(refocus.current);
    refocus.current = null;
  });

  return (
    <section class="flows-view memory-view" aria-label="Memory">
      <header class="flows-head">
        <h2 tabIndex={-1}>Memory</h2>
        <p class="hint">
          What your agents remember across sessions: an agent with “Remembers across sessions” on
          looks here with its load_memory tool. Deleting a session, or rewinding it, takes back what
          it added.
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <ErrorBanner text={state.error} />
      {loaded && sessions.length === 0 ? (
        <div class="memory-empty">
          <p>Nothing is remembered yet.</p>
          <p class="hint">
            Memory fills in two ways: turn on “Remembers across sessions” for an agent in Agents,
            and each of its turns is added here; or use “Add to memory” on any session in the
            session list.
          </p>
        </div>
      ) : (
        loaded && <p class="memory-count">{memorySummary(state)}</p>
      )}
      <FormStatus text={state.status} label="Memory" />
      <ul class="memory-sessions">
        {sessions.map((session) => {
          const title = clip(session.title, TITLE_CHARS);
          const headingId = `memory-${session.sessionId}`;
          return (
            <li key={session.sessionId}>
              <section class="memory-session" aria-labelledby={headingId}>
                <div class="memory-session-head">
                  <h3 id={headingId}>
                    {session.deleted ? (
                      <span>{title} (deleted session)</span>
                    ) : (
                      <a
                        // The session's address (shell/address.ts, not imported: it names the
                        // views, this one among them): a link opens it in a new tab too.
                        href={`#/session/${encodeURIComponent(session.sessionId)}`}
                        onClick={(event) => {
                          event.preventDefault();
                          onOpen(session.sessionId);
                        }}
                      >
                        {title}
                      </a>
                    )}
                  </h3>
                  <button
                    type="button"
                    class="danger"
                    disabled={busy}
                    aria-label={`Delete all memories of “${title}”`}
                    onClick={(event) => {
                      refocus.current = placeOf(
                        event.currentTarget.closest('.memory-sessions > li'),
                      );
                      void model.removeSession(session);
                    }}
                  >
                    Delete all
                  </button>
                </div>
                <ol class="memory-items">
                  {session.memories.map((memory) => (
                    <li key={memory.eventId} class="memory-item">
                      <p class="memory-meta">
                        <strong>{authorName(memory)}</strong>
                        {memory.timestamp && (
                          <time dateTime={memory.timestamp}>
                            {new Date(memory.timestamp).toLocaleString()}
                          </time>
                        )}
                      </p>
                      <LongText value={memory.text} max={SHOWN_CHARS} as="p" class="memory-text" />
                      {memory.length > memory.text.length && (
                        <p class="hint">
                          The first {memory.text.length.toLocaleString()} of{' '}
                          {memory.length.toLocaleString()} characters.
                        </p>
                      )}
                      <button
                        type="button"
                        class="quiet memory-delete"
                        disabled={busy}
                        aria-label={`Delete memory: ${clip(memory.text, 60)}`}
                        onClick={(event) => {
                          refocus.current = placeOf(event.currentTarget.closest('li'));
                          void model.removeMemory(session.sessionId, memory.eventId);
                        }}
                      >
                        Delete
                      </button>
                    </li>
                  ))}
                </ol>
              </section>
            </li>
          );
        })}
      </ul>
      {state.next !== undefined && (
        <button type="button" disabled={busy} onClick={() => void model.more()}>
          Show more sessions
        </button>
      )}
    </section>
  );
}

/** An item of a list, and its place in it. */
interface Place {
  item: Element;
  list: Element;
  index: number;
}

function placeOf(item: Element | null): Place | null {
  const list = item?.parentElement;
  return item && list ? { item, list, index: [...list.children].indexOf(item) } : null;
}

/**
 * The focus goes to the same place in the list as the item deleted (what came up into it, or
 * the last one), or to the view's heading when the list is gone.
 */
function focusAfterDelete({ item, list, index }: Place): void {
  // Still there (the delete failed): its own button again.
  const next = item.isConnected
    ? item
    : list.isConnected
      ? (list.children[index] ?? list.lastElementChild)
      : null;
  const target =
    next?.querySelector<HTMLElement>('a, button') ??
    document.querySelector<HTMLElement>('.memory-view h2');
  target?.focus();
}
