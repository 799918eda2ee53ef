import { useState } from 'preact/hooks';
import { replyResponse, type InputRequest } from './input-requests-model.ts';
import { LongText } from '../common/LongText.tsx';

interface Props {
  requests: InputRequest[];
  disabled: boolean;
  onReply: (callId: string, name: string, response: Record<string, unknown>) => void;
}

/** Characters of a call's arguments shown before Show all. */
const ARGS_CHARS = 2000;

/**
 * The paused calls that wait for the user: a question the agent asked, or a long-running tool
 * whose result the user gives. A reply is text (sent as `{ result }`) or a JSON object.
 */
export function InputRequests({ requests, disabled, onReply }: Props) {
  if (requests.length === 0) return null;
  return (
    <section class="approvals input-requests" aria-label="Waiting for your reply">
      <h2>Waiting for your reply</h2>
      <ul>
        {requests.map((request) => (
          <InputRequestItem
            key={request.callId}
            request={request}
            disabled={disabled}
            onReply={onReply}
          />
        ))}
      </ul>
    </section>
  );
}

function InputRequestItem({
  request,
  disabled,
  onReply,
}: { request: InputRequest } & Omit<Props, 'requests'>) {
  const [reply, setReply] = useState('');
  const [error, setError] = useState('');
  const question = request.kind === 'question';
  const fieldId = `reply-${request.callId}`;
  const send = () => {
    const made = replyResponse(reply);
    if ('error' in made) return setError(made.error);
    setError('');
    onReply(request.callId, request.name, made.response);
  };
  return (
    <li class="approval">
      {question ? (
        <p class="hint-text">
          <strong>{request.author}</strong> asks: {request.message ?? 'a question'}
        </p>
      ) : (
        <p>
          <strong>{request.author}</strong> waits for the result of <code>{request.name}</code>{' '}
          called with{' '}
          <LongText
            as="code"
            value={request.args}
            max={ARGS_CHARS}
            filename={`${request.name}-arguments`}
          />
        </p>
      )}
      {request.progress && (
        <p>
          So far:{' '}
          <LongText
            as="code"
            value={request.progress}
            max={ARGS_CHARS}
            filename={`${request.name}-progress`}
          />
        </p>
      )}
      <label class="reply" for={fieldId}>
        {question ? 'Your reply' : 'Result'} — text, or a JSON object
      </label>
      <textarea
        id={fieldId}
        rows={2}
        value={reply}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? `${fieldId}-error` : undefined}
        onInput={(event) => setReply(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
            event.preventDefault();
            if (!disabled) send();
          }
        }}
      />
      {error && (
        <p class="node-problems" id={`${fieldId}-error`} role="alert">
          {error}
        </p>
      )}
      <div class="buttons">
        <button type="button" class="primary" disabled={disabled} onClick={send}>
          {question ? 'Reply' : 'Submit result'}
        </button>
      </div>
    </li>
  );
}
