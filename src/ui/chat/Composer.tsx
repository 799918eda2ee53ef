import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'preact/hooks';
import { LineIcon } from '../common/LineIcon.tsx';
import { PromptPicker } from '../prompts/PromptPicker.tsx';
import { usePromptPicker } from '../prompts/use-prompt-picker.ts';
import { DictationButton } from '../voice/DictationButton.tsx';
import { formatBytes } from '../../core/format.ts';
import type { AttachmentPolicy } from '../../models/attachments.ts';
import type { OutgoingAttachment } from '../../../workers/protocol.ts';
import {
  draftFile,
  draftProblems,
  releaseDraft,
  toAttachment,
  type DraftFile,
} from './composer-files.ts';

/** A past message being edited (in place: ChatMessage's MessageEditor); saving runs it again. */
export interface EditTarget {
  invocationId: string;
  text: string;
}

interface Props {
  running: boolean;
  disabled: boolean;
  placeholder: string;
  /** What the agent takes as attachments (undefined: none can be attached). */
  policy: AttachmentPolicy | undefined;
  /** The user's last message in the conversation: ↑ in an empty composer edits it (in place). */
  lastMessage: EditTarget | undefined;
  /** A message handed back (it could not be sent): it fills the composer again. */
  returned: { text: string; attachments: OutgoingAttachment[] } | undefined;
  /** Approval requests waiting for an answer. */
  approvalsWaiting: number;
  /** A question the agent asked: the next message (without files) is its reply. */
  questionWaiting: boolean;
  onSend: (text: string, attachments: OutgoingAttachment[]) => void;
  onStartEdit: (target: EditTarget) => void;
  /** Rejects the waiting approvals, then sends the message once that run has ended. */
  onRejectAndSend: (text: string, attachments: OutgoingAttachment[]) => void;
  onShowApprovals: () => void;
  onStop: () => void;
  /** The agent's flow starts from a form: the way back to it (StartForm). */
  onUseForm?: () => void;
}

/**
 * The message box: Enter sends, Shift+Enter breaks the line, Escape stops a run, ↑ in an empty
 * box edits the last message (where it stands, in the chat), `/` inserts a saved prompt
 * (use-prompt-picker.ts). Files come by the Attach button, by pasting or by dropping them here;
 * they are checked against the agent's policy before anything is sent.
 */
export function Composer(props: Props) {
  const { running, disabled, approvalsWaiting, policy } = props;
  const [text, setText] = useState('');
  const [files, setFiles] = useState<DraftFile[]>([]);
  const [problems, setProblems] = useState<string[]>([]);
  const [dragging, setDragging] = useState(false);
  const box = useRef<HTMLTextAreaElement>(null);
  const filePicker = useRef<HTMLInputElement>(null);

  const picker = usePromptPicker(box, text, setText);
  // Before the paint: the draft is back in the box in the same frame as the error that says so.
  useLayoutEffect(() => {
    if (!props.returned) return;
    const { text: back, attachments } = props.returned;
    setText(back);
    const files = attachments.map(
      ({ name, mimeType, bytes }) =>
        new File([bytes as Uint8Array<ArrayBuffer>], name, { type: mimeType }),
    );
    void Promise.all(files.map(draftFile)).then(setFiles);
  }, [props.returned]);
  // Files the user did not send are let go (their previews' object URLs) when the composer goes.
  const held = useRef(files);
  held.current = files;
  useEffect(() => () => held.current.forEach(releaseDraft), []);

  // Files the agent cannot take are flagged as they come (or when the agent changes).
  const checked = useMemo(() => draftProblems(files, policy), [files, policy]);
  const waiting = approvalsWaiting > 0;
  const blocked = disabled || running;

  const add = async (picked: Iterable<File>) => {
    const drafts = await Promise.all([...picked].map(draftFile));
    if (drafts.length === 0) return;
    setFiles((current) => [...current, ...drafts]);
    setProblems([]);
  };
  const remove = (draft: DraftFile) => {
    releaseDraft(draft);
    setFiles((current) => current.filter((file) => file.id !== draft.id));
    setProblems([]);
  };
  const clear = () => {
    setText('');
    setFiles([]);
    setProblems([]);
  };

  const submit = async () => {
    const message = text.trim();
    if (blocked || (!message && files.length === 0)) return;
    // Refused files say so already (their alert); nothing is sent while they are held.
    if (checked.problems.length > 0) return;
    // Read every file before anything goes: a file that cannot be read sends nothing.
    let attachments: OutgoingAttachment[];
    try {
      attachments = await Promise.all(files.map(toAttachment));
    } catch (error) {
      setProblems([`A file could not be read: ${(error as Error).message}`]);
      return;
    }
    if (waiting) props.onRejectAndSend(message, attachments);
    else props.onSend(message, attachments);
    files.forEach(releaseDraft);
    clear();
  };

  return (
    <form
      class={`composer${dragging ? ' dragging' : ''}`}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
      onDragOver={(event) => {
        if (!event.dataTransfer?.types.includes('Files') || blocked) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        setDragging(false);
        if (!event.dataTransfer?.files.length || blocked) return;
        event.preventDefault();
        void add(event.dataTransfer.files);
      }}
    >
      {waiting && (
        <p class="composer-note" role="status">
          {approvalsWaiting === 1 ? 'An approval is' : `${approvalsWaiting} approvals are`} waiting
          for your answer.{' '}
          <button type="button" class="quiet" onClick={props.onShowApprovals}>
            Answer it
          </button>{' '}
          or send to reject {approvalsWaiting === 1 ? 'it' : 'them'} and go on with your message.
        </p>
      )}
      {props.questionWaiting && !waiting && (
        <p class="composer-note" role="status">
          The agent asked you a question: what you send now is your reply.
        </p>
      )}
      {props.onUseForm && (
        <p class="composer-switch">
          <button type="button" class="quiet" onClick={props.onUseForm}>
            Fill in the start form instead
          </button>
        </p>
      )}
      {files.length > 0 && (
        <ul class="attachments" aria-label="Attachments">
          {files.map((draft) => (
            <li key={draft.id} class={checked.refused.has(draft.id) ? 'unsupported' : ''}>
              {draft.previewUrl ? (
                <img src={draft.previewUrl} alt="" width="40" height="40" />
              ) : (
                <span class="file-icon" aria-hidden="true">
                  {draft.kind === 'pdf' ? 'PDF' : 'TXT'}
                </span>
              )}
              <span class="attachment-name">{draft.name}</span>
              <span class="hint">{formatBytes(draft.size)}</span>
              <button
                type="button"
                class="quiet"
                aria-label={`Remove ${draft.name}`}
                onClick={() => remove(draft)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {checked.problems.length + problems.length > 0 && (
        <ul class="composer-problems" role="alert">
          {[...checked.problems, ...problems].map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
      <PromptPicker picker={picker} />
      <div class="composer-row">
        <button
          type="button"
          class="attach"
          aria-label="Attach files"
          title="Attach images, PDFs or text files (or paste or drop them here)"
          // An agent that takes no files (an ADK server's, for now) gets none offered.
          disabled={blocked || !policy || policy.kinds.length === 0}
          onClick={() => filePicker.current?.click()}
        >
          <LineIcon d="M16.5 6.5 8.6 14.4a2 2 0 0 0 2.8 2.8l8-8a4 4 0 0 0-5.7-5.7l-8 8a6 6 0 0 0 8.5 8.5l6.3-6.3" />
        </button>
        <input
          ref={filePicker}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          accept="image/png,image/jpeg,image/webp,image/gif,application/pdf,text/*,.md,.json,.csv,.ts,.tsx,.js,.py,.yaml,.yml,.toml,.sql,.sh,.log"
          onChange={(event) => {
            const input = event.currentTarget;
            void add(input.files ?? []).then(() => (input.value = ''));
          }}
        />
        <DictationButton text={text} disabled={blocked} onText={setText} />
        <textarea
          ref={box}
          aria-label="Message"
          rows={1}
          value={text}
          placeholder={props.placeholder}
          disabled={disabled}
          {...picker.boxProps}
          onInput={(event) => {
            const node = event.currentTarget;
            setText(node.value);
            picker.follow(node.value, node.selectionStart);
          }}
          onClick={(event) => {
            const node = event.currentTarget;
            picker.follow(node.value, node.selectionStart);
          }}
          onBlur={() => picker.follow('', 0)}
          onPaste={(event) => {
            const pasted = event.clipboardData?.files;
            if (!pasted?.length || !policy) return;
            event.preventDefault();
            void add(pasted);
          }}
          onKeyDown={(event) => {
            if (picker.onKeyDown(event)) return;
            if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              void submit();
            } else if (event.key === 'Escape') {
              if (running) {
                event.preventDefault();
                props.onStop();
              }
            } else if (
              event.key === 'ArrowUp' &&
              !text &&
              files.length === 0 &&
              props.lastMessage &&
              !blocked
            ) {
              event.preventDefault();
              props.onStartEdit(props.lastMessage);
            }
          }}
        />
        {running ? (
          <button type="button" class="danger" onClick={props.onStop}>
            Stop
          </button>
        ) : (
          <button type="submit" class="primary" disabled={disabled}>
            {waiting ? 'Reject and send' : 'Send'}
          </button>
        )}
      </div>
    </form>
  );
}
