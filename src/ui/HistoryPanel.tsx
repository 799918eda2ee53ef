import type { Turn } from '../core/branch-tree.ts';
import type { HistoryRow } from './history-model.ts';
import { pure } from './pure.ts';
import { TurnActions } from './TurnActions.tsx';

interface Actions {
  onSelect: (invocationId: string | undefined) => void;
  onRewind: (invocationId: string) => void;
  onEdit: (invocationId: string, text: string) => void;
  onFork: (invocationId: string) => void;
}

interface Props extends Actions {
  rows: HistoryRow[];
  selectedId: string | undefined;
  disabled: boolean;
}

function HistoryView({ rows, selectedId, disabled, ...actions }: Props) {
  return (
    <section class="panel history" aria-label="History">
      <h2>History</h2>
      {rows.length === 0 ? (
        <p class="hint">
          Each turn you take appears here. Click one to rewind to before it, edit it or fork it.
        </p>
      ) : (
        <ul>
          {rows.map(({ turn, indent, startsBranch }) => {
            const selected = turn.invocationId === selectedId;
            return (
              <TurnRow
                key={turn.invocationId}
                invocationId={turn.invocationId}
                text={turn.text}
                active={turn.active}
                indent={indent}
                startsBranch={startsBranch}
                selectedTurn={selected ? turn : undefined}
                disabled={disabled}
                {...actions}
              />
            );
          })}
        </ul>
      )}
    </section>
  );
}

interface RowProps extends Actions {
  invocationId: string;
  text: string;
  active: boolean;
  indent: number;
  startsBranch: boolean;
  /** Set only for the selected turn, so that the other rows keep their props and stay still. */
  selectedTurn: Turn | undefined;
  disabled: boolean;
}

const TurnRow = pure(function TurnRow(props: RowProps) {
  const { invocationId, text, active, indent, startsBranch, selectedTurn, disabled } = props;
  return (
    <li
      class={`turn ${active ? 'active' : 'abandoned'}${startsBranch ? ' branch-start' : ''}`}
      style={{ '--indent': indent }}
    >
      <button
        type="button"
        aria-pressed={selectedTurn !== undefined}
        title={active ? 'On the active path' : 'On an abandoned branch'}
        onClick={() => props.onSelect(selectedTurn ? undefined : invocationId)}
      >
        {text}
      </button>
      {selectedTurn && (
        <TurnActions
          turn={selectedTurn}
          disabled={disabled}
          onRewind={props.onRewind}
          onEdit={props.onEdit}
          onFork={props.onFork}
          onClose={() => props.onSelect(undefined)}
        />
      )}
    </li>
  );
});

export const HistoryPanel = pure(HistoryView);
