import { useState } from 'preact/hooks';
import type { PendingApproval } from './approvals-model.ts';

interface Props {
  approvals: PendingApproval[];
  disabled: boolean;
  onAnswer: (requestId: string, confirmed: boolean, payload?: unknown) => void;
}

export function Approvals({ approvals, disabled, onAnswer }: Props) {
  if (approvals.length === 0) return null;
  return (
    <section class="approvals" aria-label="Pending approvals">
      <h2>Waiting for your approval</h2>
      <ul>
        {approvals.map((approval) => (
          <ApprovalItem
            key={approval.requestId}
            approval={approval}
            disabled={disabled}
            onAnswer={onAnswer}
          />
        ))}
      </ul>
    </section>
  );
}

function ApprovalItem({
  approval,
  disabled,
  onAnswer,
}: { approval: PendingApproval } & Omit<Props, 'approvals'>) {
  const [feedback, setFeedback] = useState('');
  return (
    <li class="approval">
      <p class="hint-text">{approval.hint}</p>
      <p>
        <strong>{approval.author}</strong> wants to call <code>{approval.toolName}</code> with{' '}
        <code>{JSON.stringify(approval.args)}</code>
      </p>
      {approval.payload !== undefined && (
        <p>
          Details: <code>{JSON.stringify(approval.payload)}</code>
        </p>
      )}
      <label>
        Feedback (optional)
        <input value={feedback} onInput={(event) => setFeedback(event.currentTarget.value)} />
      </label>
      <div class="buttons">
        <button
          type="button"
          class="primary"
          disabled={disabled}
          onClick={() => onAnswer(approval.requestId, true, feedback || approval.payload)}
        >
          Approve
        </button>
        <button
          type="button"
          class="danger"
          disabled={disabled}
          onClick={() => onAnswer(approval.requestId, false, feedback || undefined)}
        >
          Reject
        </button>
      </div>
    </li>
  );
}
