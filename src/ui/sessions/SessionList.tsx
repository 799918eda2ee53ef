import { useState } from 'preact/hooks';
import type { SessionSummary } from '../../../workers/protocol.ts';
import { DeleteButton } from '../common/DeleteButton.tsx';
import { clip, TITLE_CHARS } from '../common/preview.ts';
import { pure } from '../common/pure.ts';

interface Props {
  sessions: SessionSummary[];
  currentId: string | undefined;
  busyIds: readonly string[];
  onOpen: (id: string) => void;
  onNew: () => void;
  onRename: (id: string, title: string) => void;
  /** Takes a session on an ADK server off the list (it stays on its server). */
  onRemove: (id: string) => void;
  onExport: (id: string) => void;
  onExportEvalSet: (id: string) => void;
  onImport: (file: File) => void;
  /** Adds the session's conversation to memory (the Memory view), saying so when done. */
  onAddToMemory: (id: string) => void;
}

function SessionListView(props: Props) {
  const [renaming, setRenaming] = useState<string>();
  const [draft, setDraft] = useState('');
  return (
    <nav class="sessions" aria-label="Sessions">
      <div class="sessions-head">
        <h2>Sessions</h2>
        <button type="button" class="primary" onClick={props.onNew}>
          New session
        </button>
      </div>
      <ul>
        {props.sessions.map((session) => {
          const current = session.id === props.currentId;
          return (
            <li key={session.id} class={current ? 'current' : ''}>
              {renaming === session.id ? (
                <form
                  class="rename"
                  onSubmit={(event) => {
                    event.preventDefault();
                    props.onRename(session.id, draft);
                    setRenaming(undefined);
                  }}
                >
                  <input
                    aria-label="Session title"
                    value={draft}
                    onInput={(event) => setDraft(event.currentTarget.value)}
                    autoFocus
                  />
                  <button type="submit">Save</button>
                  <button type="button" onClick={() => setRenaming(undefined)}>
                    Cancel
                  </button>
                </form>
              ) : (
                <button
                  type="button"
                  class="session-open"
                  aria-current={current ? 'page' : undefined}
                  onClick={() => props.onOpen(session.id)}
                >
                  <span class="session-title">{clip(session.title, TITLE_CHARS)}</span>
                  <span class="session-meta">
                    {props.busyIds.includes(session.id) ? 'running · ' : ''}
                    {session.remote ? `ADK · ${hostOf(session.remote.url)} · ` : ''}
                    {new Date(session.lastUpdateTime).toLocaleString()}
                  </span>
                </button>
              )}
              {current && renaming !== session.id && (
                <div class="session-actions">
                  <button
                    type="button"
                    onClick={() => {
                      setDraft(session.title);
                      setRenaming(session.id);
                    }}
                  >
                    Rename
                  </button>
                  {session.remote ? (
                    // It lives on its server: taken off this list, it stays there.
                    <button type="button" onClick={() => props.onRemove(session.id)}>
                      Remove from list
                    </button>
                  ) : (
                    <>
                      <button type="button" onClick={() => props.onExport(session.id)}>
                        Export
                      </button>
                      <button
                        type="button"
                        title="Export the conversation as an ADK eval set, for adk eval"
                        onClick={() => props.onExportEvalSet(session.id)}
                      >
                        Eval set
                      </button>
                      <button
                        type="button"
                        title="Remember this conversation: agents that remember can look it up from other sessions"
                        onClick={() => props.onAddToMemory(session.id)}
                      >
                        Add to memory
                      </button>
                      <DeleteButton
                        kind="session"
                        id={session.id}
                        said={`Deleted “${clip(session.title, TITLE_CHARS)}” and its artifacts.`}
                      />
                    </>
                  )}
                </div>
              )}
            </li>
          );
        })}
      </ul>
      <label class="import">
        Import session…
        <input
          type="file"
          accept=".json,application/json"
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            if (file) props.onImport(file);
          }}
        />
      </label>
    </nav>
  );
}

export const SessionList = pure(SessionListView);

/** `http://127.0.0.1:8000` → `127.0.0.1:8000`. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
