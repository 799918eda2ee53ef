import { useMemo } from 'preact/hooks';
import type { SessionSummary } from '../../../workers/protocol.ts';
import { pure } from '../common/pure.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import { folderNames, groupSessions } from './session-groups.ts';
import type { SessionOrganiser } from './session-organiser.ts';
import { SelectionBar } from './SelectionBar.tsx';
import { SessionGroupHead } from './SessionGroupHead.tsx';
import { SessionRow, type RowActions } from './SessionRow.tsx';

interface Props extends RowActions {
  sessions: SessionSummary[];
  currentId: string | undefined;
  busyIds: readonly string[];
  onNew: () => void;
  onImport: (file: File) => void;
  /** Select mode, open groups, and pin / archive / folders with their Undo. */
  organiser: SessionOrganiser;
  /** Opens search across sessions (src/ui/search, also Ctrl+K). */
  onSearch?: () => void;
}

/**
 * The Sessions list: the last active first, Pinned on top, then each folder, the rest, and
 * Archived (closed) at the bottom (session-groups.ts); Select mode acts on several at once.
 */
function SessionListView(props: Props) {
  const { organiser } = props;
  const { selecting, selected, undo, working, error } = useSnapshot(organiser);
  const groups = useMemo(() => groupSessions(props.sessions), [props.sessions]);
  const folders = useMemo(() => folderNames(props.sessions), [props.sessions]);
  const open = groups.filter((group) => organiser.isOpen(group.key));
  const shown = open.flatMap((group) => group.sessions.map((session) => session.id));
  const checked = props.sessions.filter((session) => selected.has(session.id));
  // Nothing organised: one plain list, as before there were groups.
  const heads = groups.length > 1 || groups[0]?.kind !== 'recent';
  const select = (id: string, range: boolean) => {
    if (!selecting) organiser.setSelecting(true);
    organiser.toggle(id, shown, range);
  };
  return (
    <nav class="sessions" aria-label="Sessions">
      <div class="sessions-head">
        <h2>Sessions</h2>
        {props.onSearch && (
          <button type="button" title="Search all sessions (Ctrl+K)" onClick={props.onSearch}>
            Search
          </button>
        )}
        <button
          type="button"
          aria-pressed={selecting}
          title="Select several sessions to pin, archive, move or delete"
          onClick={() => organiser.setSelecting(!selecting)}
        >
          Select
        </button>
        <button type="button" class="primary" onClick={props.onNew}>
          New session
        </button>
      </div>
      {selecting && <SelectionBar selected={checked} folders={folders} organiser={organiser} />}
      {error && (
        <p class="organise-error" role="alert">
          {error}{' '}
          <button type="button" class="quiet" onClick={() => organiser.dismissError()}>
            Dismiss
          </button>
        </p>
      )}
      {groups.map((group) => {
        const isOpen = organiser.isOpen(group.key);
        return (
          <section key={group.key} class={`session-group ${group.kind}`}>
            {heads && (
              <SessionGroupHead
                group={group}
                open={isOpen}
                selecting={selecting}
                organiser={organiser}
              />
            )}
            {isOpen && (
              <ul>
                {group.sessions.map((session) => (
                  <SessionRow
                    key={session.id}
                    session={session}
                    current={session.id === props.currentId}
                    busy={props.busyIds.includes(session.id)}
                    selecting={selecting}
                    selected={selected.has(session.id)}
                    onSelect={select}
                    folders={folders}
                    organiser={organiser}
                    actions={props}
                  />
                ))}
              </ul>
            )}
          </section>
        );
      })}
      <p class="organise-status" role="status">
        {working && <span>{working}</span>}
        {undo && (
          <>
            <span>{undo.said}</span>{' '}
            <button type="button" class="organise-undo" onClick={() => void organiser.undo()}>
              Undo
            </button>
          </>
        )}
      </p>
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
