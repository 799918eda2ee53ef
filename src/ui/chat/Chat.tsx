import { useMemo, useState } from 'preact/hooks';
import type { ChatItem } from './chat-model.ts';
import { lazy } from '../common/lazy.tsx';
import { LongText } from '../common/LongText.tsx';
import { Author, ChatMessage, MESSAGE_CHARS, type MessageContext } from './ChatMessage.tsx';
import { fitsMarkdown, Markdown } from '../markdown/Markdown.tsx';
import { pure } from '../common/pure.ts';
import { useStickToBottom } from './stick-to-bottom.ts';
import type { Streaming } from '../workbench/workbench.ts';
import type { LocalModelLoad } from '../../../workers/protocol.ts';
import { loadingProgress } from '../settings/local-model-status.ts';
import type { ModelWait } from '../../core/model-wait.ts';
import type { TurnRun } from './turn-run-model.ts';

// Shown only after a run was cut short or while a model waits to retry: loaded then.
const UnfinishedTurn = lazy(() => import('./UnfinishedTurn.tsx').then((m) => m.UnfinishedTurn), {
  fallback: null,
});
const ModelWaitNote = lazy(() => import('./ModelWaitNote.tsx').then((m) => m.ModelWaitNote), {
  fallback: null,
});

interface Props {
  items: ChatItem[];
  /** The message the user just sent, until the log has it. */
  sent: string | undefined;
  /** Events of the run under way: their items go after the message just sent. */
  runEventIds: ReadonlySet<string>;
  streaming: Streaming | undefined;
  /** What a run the user stopped had streamed, where the log does not have it (an ADK server). */
  stopped: Streaming | undefined;
  /** The run's model waits to try its provider again. */
  waiting?: ModelWait | undefined;
  /** The last turn's run did not finish: its Continue, Retry or Resume. */
  unfinished?: TurnRun | undefined;
  onResumeTurn?: (invocationId: string) => void;
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
            return (
              <ToolCall
                key={item.id}
                item={item}
                settled={!context.locked}
                authors={context.authors}
              />
            );
          case 'error':
            return (
              // A list item (no live region: a list holds only items); Announcer says it came.
              <li key={item.id} class="chat-error">
                <Author name={item.author} names={context.authors} /> failed:{' '}
                <LongText value={item.text} max={MESSAGE_CHARS} filename="error" />
              </li>
            );
          case 'note':
            return (
              <li key={item.id} class="chat-note">
                {item.text}
              </li>
            );
          case 'compaction':
            return (
              <li key={item.id} class="chat-compaction" title={item.title}>
                <span>{item.text}</span>
              </li>
            );
        }
      })}
    </>
  );
});

/**
 * A tool call: its name, arguments and status; its result once opened (read only then). With no
 * run holding the session (`settled`), a call still unanswered is not running: a reload or a
 * crash cut its run off.
 */
function ToolCall({
  item,
  settled,
  authors,
}: {
  item: Extract<ChatItem, { kind: 'tool' }>;
  settled: boolean;
  authors: ReadonlyMap<string, string> | undefined;
}) {
  const [open, setOpen] = useState(false);
  const status = settled && item.status === 'running' ? 'interrupted' : item.status;
  return (
    <li class="tool-call">
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <Author name={item.author} names={authors} />
          {/* The arguments in short: a summary holds no button (Show all is below, opened). */}
          <code>
            {item.name}({item.args.text}
            {item.args.truncated ? '…' : ''})
          </code>
          <span class={`status ${status.replace(' ', '-')}`}> · {status}</span>
        </summary>
        {open && item.args.truncated && (
          <p class="tool-call-whole">
            <LongText value={item.call} preview={item.args} indent={2} filename={item.name} />
          </p>
        )}
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
  waiting,
  unfinished,
  onResumeTurn,
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
  const { scroller, end, away, jump } = useStickToBottom<HTMLElement>(
    [items, streaming?.text, running, waiting, unfinished],
    sent,
  );
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
            <Author name={streaming.author} names={context.authors} />
            {fitsMarkdown(streaming.text) ? (
              <Markdown text={streaming.text} id={streaming.eventId} streaming />
            ) : (
              <LongText as="p" value={streaming.text} max={MESSAGE_CHARS} />
            )}
          </li>
        )}
        {stopped && !running && (
          <li class="message from-agent stopped">
            <Author name={stopped.author} names={context.authors} />
            {fitsMarkdown(stopped.text) ? (
              <Markdown text={stopped.text} id={stopped.eventId} />
            ) : (
              <LongText as="p" value={stopped.text} max={MESSAGE_CHARS} />
            )}
            <p class="message-usage">Stopped: the server did not keep this part of the answer.</p>
          </li>
        )}
        {unfinished && !running && onResumeTurn && (
          <UnfinishedTurn turn={unfinished} disabled={context.locked} onResume={onResumeTurn} />
        )}
        {running && waiting && <ModelWaitNote wait={waiting} />}
        {running && !streaming && !waiting && loads.length === 0 && (
          <li class="thinking">Working…</li>
        )}
        {running &&
          !streaming &&
          loads.map((load) => (
            <li class="thinking model-loading" key={load.providerId}>
              Loading the local model “{load.name}” in this tab… {loadingProgress(load, Date.now())}
              <progress value={load.read} max={load.total || 1} aria-label="Model file read" />
            </li>
          ))}
      </ol>
      {running && away && (
        // While an answer comes and the reader has scrolled up: back to it, following again.
        <div class="jump-latest">
          <button
            type="button"
            onClick={() => {
              jump();
              scroller.current?.focus({ preventScroll: true });
            }}
          >
            Jump to latest ↓
          </button>
        </div>
      )}
      <div class="chat-end" ref={end} />
    </section>
  );
}
