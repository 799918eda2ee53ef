import { useRef, useState } from 'preact/hooks';
import type { SessionSummary } from '../../../workers/protocol.ts';
import { DeleteButton } from '../common/DeleteButton.tsx';
import { clip, TITLE_CHARS } from '../common/preview.ts';
import { InlineRename } from './InlineRename.tsx';
import { MenuButton } from './MenuButton.tsx';
import { SessionMenu } from './SessionMenu.tsx';
import type { SessionOrganiser } from './session-organiser.ts';

/** What a row does beyond organising: SessionList's props, handed down. */
export interface RowActions {
  onOpen: (id: string) => void;
  onRename: (id: string, title: string) => void;
  /** Takes a session on an ADK server off the list (it stays on its server). */
  onRemove: (id: string) => void;
  onExport: (id: string) => void;
  onExportEvalSet: (id: string) => void;
  /** Adds the session's conversation to memory (the Memory view), saying so when done. */
  onAddToMemory: (id: string) => void;
}

interface Props {
  session: SessionSummary;
  current: boolean;
  busy: boolean;
  selecting: boolean;
  selected: boolean;
  /** (Un)checks it; `range`: Shift was down. Ctrl-click also starts Select mode with it. */
  onSelect: (id: string, range: boolean) => void;
  folders: readonly string[];
  organiser: SessionOrganiser;
  actions: RowActions;
}

/**
 * One session in the list: its title (opens it; double-click or F2 renames it where it stands),
 * its "⋯" actions, its checkbox in Select mode, and the open session's own actions under it.
 */
export function SessionRow(props: Props) {
  const { session, current, selecting, actions } = props;
  const [renaming, setRenaming] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  const title = clip(session.title, TITLE_CHARS);
  const stopRenaming = () => {
    setRenaming(false);
    requestAnimationFrame(() => opener.current?.focus());
  };
  return (
    <li class={[current && 'current', props.selected && 'selected'].filter(Boolean).join(' ')}>
      <div class="session-row">
        {selecting && (
          <input
            type="checkbox"
            class="session-check"
            aria-label={`Select “${title}”`}
            checked={props.selected}
            onClick={(event) => props.onSelect(session.id, event.shiftKey)}
          />
        )}
        {renaming ? (
          <InlineRename
            label="Session title"
            value={session.title}
            onSave={(value) => {
              actions.onRename(session.id, value);
              stopRenaming();
            }}
            onCancel={stopRenaming}
          />
        ) : (
          <button
            ref={opener}
            type="button"
            class="session-open"
            aria-current={current ? 'page' : undefined}
            title={selecting ? undefined : 'Double-click or F2 to rename'}
            onClick={(event) => {
              if (selecting || event.ctrlKey || event.metaKey)
                props.onSelect(session.id, event.shiftKey);
              else actions.onOpen(session.id);
            }}
            onDblClick={() => !selecting && setRenaming(true)}
            onKeyDown={(event) => {
              if (event.key !== 'F2' || selecting) return;
              event.preventDefault();
              setRenaming(true);
            }}
          >
            <span class="session-title">{title}</span>
            <span class="session-meta">
              {props.busy ? 'running · ' : ''}
              {session.remote ? `ADK · ${hostOf(session.remote.url)} · ` : ''}
              {new Date(session.lastUpdateTime).toLocaleString()}
            </span>
          </button>
        )}
        {!renaming && !selecting && (
          <MenuButton label="Actions" about={`Actions for “${title}”`}>
            {(close) => (
              <SessionMenu
                session={session}
                folders={props.folders}
                organiser={props.organiser}
                onRename={() => setRenaming(true)}
                close={close}
              />
            )}
          </MenuButton>
        )}
      </div>
      {current && !renaming && !selecting && (
        <div class="session-actions">
          <button type="button" onClick={() => setRenaming(true)}>
            Rename
          </button>
          {session.remote ? (
            // It lives on its server: taken off this list, it stays there.
            <button type="button" onClick={() => actions.onRemove(session.id)}>
              Remove from list
            </button>
          ) : (
            <>
              <button type="button" onClick={() => actions.onExport(session.id)}>
                Export
              </button>
              <button
                type="button"
                title="Export the conversation as an ADK eval set, for adk eval"
                onClick={() => actions.onExportEvalSet(session.id)}
              >
                Eval set
              </button>
              <button
                type="button"
                title="Remember this conversation: agents that remember can look it up from other sessions"
                onClick={() => actions.onAddToMemory(session.id)}
              >
                Add to memory
              </button>
              <DeleteButton
                kind="session"
                id={session.id}
                said={`Deleted “${title}” and its artifacts.`}
              />
            </>
          )}
        </div>
      )}
    </li>
  );
}

/** `http://127.0.0.1:8000` → `127.0.0.1:8000`. */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
