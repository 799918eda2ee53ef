import { rewindLabel, stateSummary, type CheckpointRow } from './checkpoints-model.ts';
import { LongText } from '../common/LongText.tsx';
import { pure } from '../common/pure.ts';

interface Props {
  rows: readonly CheckpointRow[];
  threadId: string;
  disabled: boolean;
  onRewind: (checkpointId: string) => void;
  /** Shows the row's node on the Flow panel's canvas. */
  onShowNode?: (nodeId: string) => void;
}

/**
 * The session's checkpoints, as Flowise's Agent Memory shows them: the thread is the session,
 * each node run a row. Rewinding to before a node keeps its checkpoint, so the run can resume
 * from that node.
 */
function CheckpointsView({ rows, threadId, disabled, onRewind, onShowNode }: Props) {
  return (
    <section class="panel checkpoints" aria-label="Checkpoints">
      <h2>
        Checkpoints <span class="hint">thread {short(threadId)}</span>
      </h2>
      {rows.length === 0 ? (
        <p class="hint">Each node the flow runs leaves a checkpoint here.</p>
      ) : (
        <div class="checkpoints-scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">Checkpoint</th>
                <th scope="col">Parent</th>
                <th scope="col">Node</th>
                <th scope="col">State after</th>
                <th scope="col">
                  <span class="visually-hidden">Rewind</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.checkpointId} class={row.status}>
                  <td>
                    <code title={row.checkpointId}>{short(row.checkpointId)}</code>
                  </td>
                  <td>
                    {row.parentId ? <code title={row.parentId}>{short(row.parentId)}</code> : '—'}
                  </td>
                  <td>
                    {onShowNode ? (
                      <button
                        type="button"
                        class="quiet node-link"
                        title="Show this node on the Flow panel’s canvas"
                        onClick={() => onShowNode(row.node)}
                      >
                        <strong>{row.node}</strong>
                      </button>
                    ) : (
                      <strong>{row.node}</strong>
                    )}
                    {row.step !== undefined && <span class="hint"> #{row.step}</span>}
                    {row.branch && <span class="hint"> {row.branch}</span>}
                    {row.status !== 'done' && (
                      <span class={`badge ${row.status}`}>{row.status}</span>
                    )}
                  </td>
                  <td>
                    <LongText
                      as="code"
                      class="state-after"
                      value={row.stateAfter}
                      preview={stateSummary(row.stateAfter)}
                      indent={2}
                      filename={`state-after-${short(row.checkpointId)}`}
                    />
                  </td>
                  <td>
                    <button
                      type="button"
                      class="quiet"
                      disabled={disabled}
                      aria-label={rewindLabel(row)}
                      title={rewindLabel(row)}
                      onClick={() => onRewind(row.checkpointId)}
                    >
                      Rewind
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

const short = (id: string) => id.slice(0, 8);

export const CheckpointsPanel = pure(CheckpointsView);
