import { useState } from 'preact/hooks';
import type { PendingApproval } from './approvals-model.ts';
import { LongText } from '../common/LongText.tsx';
import { Author } from './ChatMessage.tsx';

interface Props {
  approvals: PendingApproval[];
  /** The names shown for authors, by identifier (a flow's node labels). */
  authors?: ReadonlyMap<string, string> | undefined;
  disabled: boolean;
  onAnswer: (requestId: string, confirmed: boolean, payload?: unknown) => void;
  /** Approves, and lets the tool run from now on without asking (its policy: always). */
  onAllowAlways?: (requestId: string, toolName: string) => void;
}

export function Approvals({ approvals, authors, disabled, onAnswer, onAllowAlways }: Props) {
  if (approvals.length === 0) return null;
  return (
    <section class="approvals" aria-label="Pending approvals">
      <h2>Waiting for your approval</h2>
      <ul>
        {approvals.map((approval) => (
          <ApprovalItem
            key={approval.requestId}
            approval={approval}
            authors={authors}
            disabled={disabled}
            onAnswer={onAnswer}
            onAllowAlways={onAllowAlways}
          />
        ))}
      </ul>
    </section>
  );
}

/** Characters of a call's arguments (and details) shown before Show all. */
const APPROVAL_CHARS = 2000;

function ApprovalItem({
  approval,
  authors,
  disabled,
  onAnswer,
  onAllowAlways,
}: { approval: PendingApproval } & Omit<Props, 'approvals'>) {
  const [feedback, setFeedback] = useState('');
  const human = approval.humanInput === true;
  // A Human Input's answer carries Flowise's `{ feedback }`; a tool's, the feedback as it is.
  const payload = (fallback?: unknown) =>
    human ? (feedback ? { feedback } : undefined) : feedback || fallback;
  const input = approval.args['input'];
  return (
    <li class="approval">
      <p class="hint-text">{approval.hint}</p>
      {human ? (
        input !== undefined && (
          <p>
            <Author name={approval.author} names={authors} /> asks about{' '}
            <LongText
              as="code"
              value={input}
              max={APPROVAL_CHARS}
              filename={`${approval.author}-input`}
            />
          </p>
        )
      ) : (
        <p>
          <Author name={approval.author} names={authors} /> wants to call{' '}
          <code>{approval.toolName}</code> with{' '}
          <LongText
            as="code"
            value={approval.args}
            max={APPROVAL_CHARS}
            filename={`${approval.toolName}-arguments`}
          />
        </p>
      )}
      {!human && approval.payload !== undefined && (
        <p>
          Details:{' '}
          <LongText
            as="code"
            value={approval.payload}
            max={APPROVAL_CHARS}
            filename={`${approval.toolName}-details`}
          />
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
          onClick={() => onAnswer(approval.requestId, true, payload(approval.payload))}
        >
          {human ? 'Proceed' : 'Approve'}
        </button>
        {onAllowAlways && !human && (
          <button
            type="button"
            disabled={disabled}
            title="Approve, and let this tool run without asking from now on (Settings → Tool servers lists what you allowed)"
            onClick={() => onAllowAlways(approval.requestId, approval.toolName)}
          >
            Allow always for this tool
          </button>
        )}
        <button
          type="button"
          class="danger"
          disabled={disabled}
          onClick={() => onAnswer(approval.requestId, false, payload())}
        >
          Reject
        </button>
      </div>
    </li>
  );
}
