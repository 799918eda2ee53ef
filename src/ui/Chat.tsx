import { useMemo } from 'preact/hooks';
import type { ChatItem } from './chat-model.ts';
import { LongText } from './LongText.tsx';
import { fitsMarkdown, Markdown } from './markdown/Markdown.tsx';
import { pure } from './pure.ts';
import { useStickToBottom } from './stick-to-bottom.ts';
import type { Streaming } from './workbench.ts';

interface Props {
  items: ChatItem[];
  /** The message the user just sent, until the log has it. */
  sent: string | undefined;
  /** Events of the run under way: their items go after the message just sent. */
  runEventIds: ReadonlySet<string>;
  streaming: Streaming | undefined;
  running: boolean;
  /** Earlier messages are not shown yet. */
  earlier: boolean;
  onShowEarlier: () => void;
}

const Messages = pure(function Messages({ items }: { items: ChatItem[] }) {
  return (
    <>
      {items.map((item) => {
        switch (item.kind) {
          case 'message':
            return (
              <li key={item.id} class={item.fromUser ? 'message from-user' : 'message from-agent'}>
                {!item.fromUser && <span class="author">{item.author}</span>}
                {!item.fromUser && !item.json && fitsMarkdown(item.text) ? (
                  <Markdown text={item.text} id={item.id} />
                ) : (
                  <LongText
                    as={item.json ? 'pre' : 'p'}
                    class={item.json ? 'json' : undefined}
                    value={item.text}
                    max={MESSAGE_CHARS}
                    filename="message"
                  />
                )}
              </li>
            );
          case 'tool':
            return (
              <li key={item.id} class="tool-call" title={item.result}>
                <span class="author">{item.author}</span>
                <code>
                  {item.name}(
                  <LongText value={item.call} preview={item.args} indent={2} filename={item.name} />
                  )
                </code>
                <span class={`status ${item.status.replace(' ', '-')}`}> · {item.status}</span>
              </li>
            );
          case 'error':
            return (
              <li key={item.id} class="chat-error" role="status">
                <span class="author">{item.author}</span> failed:{' '}
                <LongText value={item.text} max={MESSAGE_CHARS} filename="error" />
              </li>
            );
        }
      })}
    </>
  );
});

const EMPTY: ChatItem[] = [];

/** Characters of a message shown before Show all: a long answer, not a pasted file. */
const MESSAGE_CHARS = 20_000;

export function Chat({
  items,
  sent,
  runEventIds,
  streaming,
  running,
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
        <Messages items={before} />
        {sent && (
          <li class="message from-user sent">
            <LongText as="p" value={sent} max={MESSAGE_CHARS} filename="message" />
          </li>
        )}
        <Messages items={during} />
        {streaming && (
          <li class="message from-agent streaming" aria-live="polite">
            <span class="author">{streaming.author}</span>
            {fitsMarkdown(streaming.text) ? (
              <Markdown text={streaming.text} id={streaming.eventId} streaming />
            ) : (
              <LongText as="p" value={streaming.text} max={MESSAGE_CHARS} />
            )}
          </li>
        )}
        {running && !streaming && <li class="thinking">Working…</li>}
      </ol>
      <div class="chat-end" ref={end} />
    </section>
  );
}
