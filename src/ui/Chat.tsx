import { useMemo, useState } from 'preact/hooks';
import type { ChatItem } from './chat-model.ts';
import { LongText } from './LongText.tsx';
import { ChatMessage, MESSAGE_CHARS, type MessageContext } from './ChatMessage.tsx';
import { fitsMarkdown, Markdown } from './markdown/Markdown.tsx';
import { pure } from './pure.ts';
import { useStickToBottom } from './stick-to-bottom.ts';
import type { Streaming } from './workbench.ts';
import type { LocalModelLoad } from '../../workers/protocol.ts';
import { loadingProgress } from './local-model-status.ts';

interface Props {
  items: ChatItem[];
  /** The message the user just sent, until the log has it. */
  sent: string | undefined;
  /** Events of the run under way: their items go after the message just sent. */
  runEventIds: ReadonlySet<string>;
  streaming: Streaming | undefined;
  /** What a run the user stopped had streamed (not stored). */
  stopped: Streaming | undefined;
  running: boolean;
  /** Local models loading while the run waits for its first words (see use-model-loads.ts). */
  loads?: LocalModelLoad[];
  context: MessageContext;
  /** Earlier messages are not shown yet. */
  earlier: boolean;
  onShowEarlier: () => void;
}

const Messages = pure(function Messages({
  items,
  context,
}: {
  items: ChatItem[];
  context: MessageContext;
}) {
  return (
    <>
      {items.map((item) => {
        switch (item.kind) {
          case 'message':
            return <ChatMessage key={item.id} item={item} context={context} />;
          case 'tool':
            return <ToolCall key={item.id} item={item} />;
          case 'error':
            return (
              // A list item (no live region: a list holds only items); Announcer says it came.
              <li key={item.id} class="chat-error">
                <span class="author">{item.author}</span> failed:{' '}
                <LongText value={item.text} max={MESSAGE_CHARS} filename="error" />
              </li>
            );
          case 'note':
            return (
              <li key={item.id} class="chat-note">
                {item.text}
              </li>
            );
        }
      })}
    </>
  );
});

/** A tool call: its name, arguments and status; its result once opened (read only then). */
function ToolCall({ item }: { item: Extract<ChatItem, { kind: 'tool' }> }) {
  const [open, setOpen] = useState(false);
  return (
    <li class="tool-call">
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <span class="author">{item.author}</span>
          <code>
            {item.name}(
            <LongText value={item.call} preview={item.args} indent={2} filename={item.name} />)
          </code>
          <span class={`status ${item.status.replace(' ', '-')}`}> · {item.status}</span>
        </summary>
        {open &&
          (item.call.result === undefined ? (
            <p class="hint">No result yet.</p>
          ) : (
            <LongText
              as="pre"
              class="tool-result"
              value={item.call.result}
              indent={2}
              max={MESSAGE_CHARS}
              filename={`${item.name}-result`}
            />
          ))}
      </details>
      {item.usage && <p class="message-usage">{item.usage}</p>}
    </li>
  );
}

const EMPTY: ChatItem[] = [];
const NO_LOADS: LocalModelLoad[] = [];

export function Chat({
  items,
  sent,
  runEventIds,
  streaming,
  stopped,
  running,
  loads = NO_LOADS,
  context,
  earlier,
  onShowEarlier,
}: Props) {
  // Split once per change of the log, not on every streamed chunk.
  const [before, during] = useMemo(
    () =>
      runEventIds.size === 0
        ? [items, EMPTY]
        : [
            items.filter((item) => !runEventIds.has(item.eventId)),
            items.filter((item) => runEventIds.has(item.eventId)),
          ],
    [items, runEventIds],
  );
  const { scroller, end } = useStickToBottom<HTMLElement>([items, streaming?.text, running], sent);
  return (
    <section class="chat" aria-label="Conversation" ref={scroller} tabIndex={0}>
      <ol>
        {items.length === 0 && !streaming && (
          <li class="empty">No messages yet. Say something below.</li>
        )}
        {earlier && (
          <li class="earlier">
            <button type="button" class="quiet" onClick={onShowEarlier}>
              Show earlier messages
            </button>
          </li>
        )}
        <Messages items={before} context={context} />
        {sent && (
          <li class="message from-user sent">
            <LongText as="p" value={sent} max={MESSAGE_CHARS} filename="message" />
          </li>
        )}
        <Messages items={during} context={context} />
        {streaming && (
          // Not a live region: screen readers hear the finished answer (see Announcer).
          <li class="message from-agent streaming">
            <span class="author">{streaming.author}</span>
            {fitsMarkdown(streaming.text) ? (
              <Markdown text={streaming.text} id={streaming.eventId} streaming />
            ) : (
              <LongText as="p" value={streaming.text} max={MESSAGE_CHARS} />
            )}
          </li>
        )}
        {stopped && !running && (
          <li class="message from-agent stopped">
            <span class="author">{stopped.author}</span>
            <LongText as="p" value={stopped.text} max={MESSAGE_CHARS} />
            <p class="message-usage">Stopped: this part of the answer was not saved.</p>
          </li>
        )}
        {running && !streaming && loads.length === 0 && <li class="thinking">Working…</li>}
        {running &&
          !streaming &&
          loads.map((load) => (
            <li class="thinking model-loading" key={load.providerId}>
              Loading the local model “{load.name}” in this tab… {loadingProgress(load, Date.now())}
              <progress value={load.read} max={load.total || 1} aria-label="Model file read" />
            </li>
          ))}
      </ol>
      <div class="chat-end" ref={end} />
    </section>
  );
}
