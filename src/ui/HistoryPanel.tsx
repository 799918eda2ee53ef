import type { HistoryRow } from './history-model.ts';
import { pure } from './pure.ts';
import { TurnActions } from './TurnActions.tsx';

interface Props {
  rows: HistoryRow[];
  selectedId: string | undefined;
  disabled: boolean;
  onSelect: (invocationId: string | undefined) => void;
  onRewind: (invocationId: string) => void;
  onEdit: (invocationId: string, text: string) => void;
  onFork: (invocationId: string) => void;
}

function HistoryView({ rows, selectedId, disabled, onSelect, onRewind, onEdit, onFork }: Props) {
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
              <li
                key={turn.invocationId}
                class={`turn ${turn.active ? 'active' : 'abandoned'}${startsBranch ? ' branch-start' : ''}`}
                style={{ '--indent': indent }}
              >
                <button
                  type="button"
                  aria-pressed={selected}
                  title={turn.active ? 'On the active path' : 'On an abandoned branch'}
                  onClick={() => onSelect(selected ? undefined : turn.invocationId)}
                >
                  {turn.text}
                </button>
                {selected && (
                  <TurnActions
                    turn={turn}
                    disabled={disabled}
                    onRewind={onRewind}
                    onEdit={onEdit}
                    onFork={onFork}
                    onClose={() => onSelect(undefined)}
                  />
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export const HistoryPanel = pure(HistoryView);
