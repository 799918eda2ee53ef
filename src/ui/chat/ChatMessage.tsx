import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { base64ToBytes } from '../../core/content.ts';
import type { ChatAttachment, ChatItem } from './chat-model.ts';
import type { EditTarget } from './Composer.tsx';
import type { TurnVersions } from '../history/history-model.ts';
import { LongText } from '../common/LongText.tsx';
import { fitsMarkdown, Markdown } from '../markdown/Markdown.tsx';
import { VersionArrows } from './VersionArrows.tsx';
import { MessageEditor } from './MessageEditor.tsx';
import { ImageViewer } from '../common/ImageViewer.tsx';
import { ReadAloudButton } from '../voice/ReadAloudButton.tsx';
import { AnswerSources } from '../knowledge/AnswerSources.tsx';
import type { KnowledgeSource } from '../../../workers/protocol.ts';

/** What a message offers (stable callbacks: the message list re-renders only with its data). */
export interface MessageActions {
  /** Opens a message's editor in place (undefined: closes it). */
  onEdit: (target: EditTarget | undefined) => void;
  /** Runs the edited message as a new version of its turn. */
  onSaveEdit: (invocationId: string, text: string) => void;
  onRewind: (invocationId: string) => void;
  /** Switches to another version of a message (the branch of that turn). */
  onSwitch: (invocationId: string) => void;
  onRegenerate: (invocationId: string) => void;
  onShowEvent: (eventId: string) => void;
  /** Opens the trace of the turn (invocation) that wrote the message. */
  onTrace?: (invocationId: string) => void;
}

export interface MessageContext {
  actions: MessageActions;
  /** By turn: the versions of its message, and of its answer. */
  versions: ReadonlyMap<string, TurnVersions>;
  /** Each turn's answer (its last agent message): where the answer's versions show. */
  turnAnswers: ReadonlySet<string>;
  /** The id of the last answer of the conversation (it can be regenerated). */
  lastAnswerId: string | undefined;
  /** A run is under way (here or in another tab): nothing that changes the session. */
  locked: boolean;
  /** A session on an ADK server: its messages can be rewound to, not edited, regenerated or switched. */
  rewindOnly?: boolean;
  /** The names shown for authors, by identifier (open-session-model's authorNames). */
  authors?: ReadonlyMap<string, string>;
  /** The turn whose message is being edited in place. */
  editing?: string | undefined;
  /** By answer: the sources its turn's knowledge tools gave (knowledge/answer-sources.ts). */
  sources?: ReadonlyMap<string, KnowledgeSource[]>;
}

/** An author as the chat names it: its given name, its identifier on hover. */
export function Author({
  name,
  names,
  path,
}: {
  name: string;
  names?: ReadonlyMap<string, string> | undefined;
  /** A workflow node's path (`help_desk.triage`): shown as `help_desk › triage`. */
  path?: string | undefined;
}) {
  if (path && path.includes('.')) {
    return (
      <span class="author" title={path}>
        {path.split('.').join(' › ')}
      </span>
    );
  }
  const shown = names?.get(name);
  return shown ? (
    <span class="author" title={name}>
      {shown}
    </span>
  ) : (
    <span class="author">{name}</span>
  );
}

/** Characters of a message shown before Show all: a long answer, not a pasted file. */
export const MESSAGE_CHARS = 20_000;

type Message = Extract<ChatItem, { kind: 'message' }>;

export function ChatMessage({ item, context }: { item: Message; context: MessageContext }) {
  const { actions, locked } = context;
  const turn = context.rewindOnly ? undefined : context.versions.get(item.invocationId);
  const versions = item.fromUser
    ? !item.reply && turn?.message
    : context.turnAnswers.has(item.id) && turn?.answer;
  const side = item.fromUser ? 'from-user' : 'from-agent';
  const row = useRef<HTMLLIElement>(null);
  if (item.fromUser && !item.reply && context.editing === item.invocationId)
    return (
      <li class="message-row row-user editing" ref={row}>
        <MessageEditor
          text={item.text}
          disabled={locked}
          onSave={(text) => {
            actions.onSaveEdit(item.invocationId, text);
            actions.onEdit(undefined);
          }}
          onCancel={() => {
            actions.onEdit(undefined);
            // Back to the Edit button, once the message is drawn again.
            requestAnimationFrame(() =>
              row.current?.querySelector<HTMLElement>('button[data-edit]')?.focus(),
            );
          }}
        />
      </li>
    );
  return (
    <li class={`message-row ${item.fromUser ? 'row-user' : 'row-agent'}`} ref={row}>
      <div class={`message ${side}`}>
        {!item.fromUser && <Author name={item.author} names={context.authors} path={item.path} />}
        {item.text &&
          (!item.fromUser && !item.json && fitsMarkdown(item.text) ? (
            <Markdown text={item.text} id={item.id} />
          ) : (
            <LongText
              as={item.json ? 'pre' : 'p'}
              class={item.json ? 'json' : undefined}
              value={item.text}
              max={MESSAGE_CHARS}
              filename="message"
            />
          ))}
        {item.attachments && <Attachments files={item.attachments} />}
      </div>
      {item.cut && (
        <p class={`message-cut ${item.cut}`}>
          {item.cut === 'stopped' ? 'Stopped before it finished' : 'Cut off before it finished'}
        </p>
      )}
      {context.sources?.has(item.id) && (
        <AnswerSources sources={context.sources.get(item.id)!} answerId={item.id} />
      )}
      {item.usage && <p class="message-usage">{item.usage}</p>}
      <div class="message-actions" role="group" aria-label="Actions">
        {versions && (
          <VersionArrows
            step={versions}
            noun={item.fromUser ? 'version' : 'answer'}
            disabled={locked}
            onSwitch={actions.onSwitch}
          />
        )}
        <CopyButton text={item.text} />
        {!item.fromUser && !item.json && <ReadAloudButton text={item.text} />}
        {item.fromUser && !item.reply && (
          <>
            {!context.rewindOnly && (
              <button
                type="button"
                class="quiet"
                data-edit
                disabled={locked}
                onClick={() => actions.onEdit({ invocationId: item.invocationId, text: item.text })}
              >
                Edit
              </button>
            )}
            <button
              type="button"
              class="quiet"
              disabled={locked}
              title="Go back to just before this message: it and what followed stay in History as a branch"
              onClick={() => actions.onRewind(item.invocationId)}
            >
              Rewind to before this turn
            </button>
          </>
        )}
        {context.lastAnswerId === item.id && !context.rewindOnly && (
          <button
            type="button"
            class="quiet"
            disabled={locked}
            title="Ask the same message again: this answer stays as a branch"
            onClick={() => actions.onRegenerate(item.invocationId)}
          >
            Regenerate
          </button>
        )}
        <button
          type="button"
          class="quiet"
          title="Show this message's event in the event log"
          onClick={() => actions.onShowEvent(item.eventId)}
        >
          Event log
        </button>
        {!item.fromUser && actions.onTrace && (
          <button
            type="button"
            class="quiet"
            title="Where the time of this turn went"
            onClick={() => actions.onTrace?.(item.invocationId)}
          >
            Trace
          </button>
        )}
      </div>
    </li>
  );
}

/** Copies a message's text; says so for a moment. */
function CopyButton({ text }: { text: string }) {
  const [said, setSaid] = useState<string>();
  useEffect(() => {
    if (!said) return;
    const timer = setTimeout(() => setSaid(undefined), 1500);
    return () => clearTimeout(timer);
  }, [said]);
  if (!text) return null;
  return (
    <button
      type="button"
      class="quiet"
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setSaid('Copied'),
          () => setSaid('Could not copy'),
        )
      }
    >
      {said ?? 'Copy'}
    </button>
  );
}

/** A message's files: images as thumbnails, others by name; each opens or downloads. */
function Attachments({ files }: { files: ChatAttachment[] }) {
  return (
    <ul class="message-files" aria-label="Attached files">
      {files.map((file, i) => (
        <AttachmentItem key={`${i}:${file.name}`} file={file} />
      ))}
    </ul>
  );
}

function AttachmentItem({ file }: { file: ChatAttachment }) {
  const url = useObjectUrl(file);
  const image = file.mimeType.startsWith('image/') && file.mimeType !== 'image/svg+xml';
  return (
    <li>
      {image ? (
        <ImageViewer src={url} alt={file.name} filename={file.name} />
      ) : (
        <a href={url} download={file.name} title={`Download ${file.name}`}>
          <span class="file-chip">{file.name}</span>
        </a>
      )}
    </li>
  );
}

/** An object URL of a file's bytes, for as long as the component shows it. */
function useObjectUrl(file: ChatAttachment): string | undefined {
  const url = useMemo(() => {
    try {
      const bytes = base64ToBytes(file.data) as Uint8Array<ArrayBuffer>;
      // Shown and downloaded as bytes, never run: an HTML or SVG file is not given its type.
      const type =
        file.mimeType.startsWith('image/') && file.mimeType !== 'image/svg+xml'
          ? file.mimeType
          : 'application/octet-stream';
      return URL.createObjectURL(new Blob([bytes], { type }));
    } catch {
      return undefined; // Bytes that are not base64: the name alone is shown.
    }
  }, [file.data, file.mimeType]);
  useEffect(() => () => url && URL.revokeObjectURL(url), [url]);
  return url;
}
