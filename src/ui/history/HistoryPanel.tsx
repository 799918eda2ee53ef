import type { HistoryOperations, HistoryRow } from './history-model.ts';
import { pure } from '../common/pure.ts';
import type { StateChanges } from '../state/state-edit-model.ts';
import { TurnActions } from '../chat/TurnActions.tsx';
import { LongText } from '../common/LongText.tsx';
import { compactionTitle, type CompactionNote } from './compaction-model.ts';

/** The start of a summary shown before Show all. */
const SUMMARY_CHARS = 1200;

interface Actions {
  onSelect: (invocationId: string | undefined) => void;
  onRewind: (invocationId: string) => void;
  onSwitchBranch: (invocationId: string) => void;
  onEdit: (invocationId: string, text: string) => void;
  onFork: (invocationId: string) => void;
  /** "Edit state and re-run" (sessions in this browser only). */
  onLoadStateBefore?: (invocationId: string) => Promise<Record<string, unknown> | undefined>;
  onEditStateAndRerun?: (invocationId: string, changes: StateChanges) => void;
  onTrace?: (invocationId: string) => void;
}

/** Another session this one is linked to (a rewind into a new session on an ADK server). */
export interface SessionLink {
  /** "Rewound from" or "Rewound into". */
  label: string;
  sessionId: string;
  title: string;
}

interface Props extends Actions {
  rows: HistoryRow[];
  /** The context compactions of the turns shown, by turn (compaction-model.ts). */
  compactions?: ReadonlyMap<string, readonly CompactionNote[]> | undefined;
  links?: readonly SessionLink[];
  onOpenSession?: (sessionId: string) => void;
  /** Earlier turns of the active path are not shown yet. */
  earlier: boolean;
  onShowEarlier: () => void;
  selectedId: string | undefined;
  disabled: boolean;
}

function HistoryView({
  rows,
  earlier,
  onShowEarlier,
  selectedId,
  disabled,
  links,
  onOpenSession,
  compactions,
  ...actions
}: Props) {
  return (
    <section class="panel history" aria-label="History">
      <h2>History</h2>
      {links?.map((link) => (
        <p key={`${link.label} ${link.sessionId}`} class="hint history-link">
          {link.label}{' '}
          <button type="button" class="quiet" onClick={() => onOpenSession?.(link.sessionId)}>
            {link.title}
          </button>
        </p>
      ))}
      {rows.length === 0 ? (
        <p class="hint">
          Each turn you take appears here. Click one to rewind to before it, edit it or fork it.
        </p>
      ) : (
        <ul>
          {earlier && (
            <li class="earlier">
              <button type="button" class="quiet" onClick={onShowEarlier}>
                Show earlier turns
              </button>
            </li>
          )}
          {rows.map((row) => (
            <TurnRow
              key={row.invocationId}
              invocationId={row.invocationId}
              text={row.text}
              version={row.version}
              active={row.active}
              indent={row.indent}
              startsBranch={row.startsBranch}
              selected={row.invocationId === selectedId ? row.operations : undefined}
              compactions={row.active ? compactions?.get(row.invocationId) : undefined}
              disabled={disabled}
              {...actions}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

interface RowProps extends Actions {
  invocationId: string;
  text: string;
  version: string | undefined;
  active: boolean;
  indent: number;
  startsBranch: boolean;
  /**
   * The operations of the selected turn, set for it only, so that the other rows keep their
   * props and stay still.
   */
  selected: HistoryOperations | undefined;
  /** The context compactions made in this turn. */
  compactions: readonly CompactionNote[] | undefined;
  disabled: boolean;
}

const TurnRow = pure(function TurnRow(props: RowProps) {
  const { invocationId, text, version, active, indent, startsBranch, selected, disabled } = props;
  return (
    <li
      class={`turn ${active ? 'active' : 'abandoned'}${startsBranch ? ' branch-start' : ''}`}
      style={{ '--indent': indent }}
    >
      <button
        type="button"
        aria-pressed={selected !== undefined}
        title={active ? 'On the active path' : 'The first turn of an abandoned branch'}
        onClick={() => props.onSelect(selected ? undefined : invocationId)}
      >
        <span class="turn-text">{text}</span>
        {version && <span class="turn-version"> · {version}</span>}
      </button>
      {props.compactions?.map((note) => (
        <details key={note.eventId} class="turn-compaction">
          <summary>{compactionTitle(note)}</summary>
          {note.summary ? (
            <LongText value={note.summary} max={SUMMARY_CHARS} filename="summary" as="p" />
          ) : (
            <p class="hint">No summary: the model no longer sees those events.</p>
          )}
          <p class="hint">Rewind to before this turn to give the model the full conversation.</p>
        </details>
      ))}
      {selected && (
        <TurnActions
          operations={selected}
          disabled={disabled}
          onRewind={props.onRewind}
          onSwitchBranch={props.onSwitchBranch}
          onEdit={props.onEdit}
          onFork={props.onFork}
          {...(props.onLoadStateBefore && props.onEditStateAndRerun
            ? {
                onLoadStateBefore: props.onLoadStateBefore,
                onEditStateAndRerun: props.onEditStateAndRerun,
              }
            : {})}
          {...(props.onTrace ? { onTrace: () => props.onTrace?.(invocationId) } : {})}
          onClose={() => props.onSelect(undefined)}
        />
      )}
    </li>
  );
});

export const HistoryPanel = pure(HistoryView);
