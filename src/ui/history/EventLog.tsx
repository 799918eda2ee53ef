import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Event } from '../../core/event.ts';
import { logLines, type LogLine } from './event-log-model.ts';
import { LongText } from '../common/LongText.tsx';
import type { LogPages } from '../workbench/workbench.ts';
import { pure } from '../common/pure.ts';

interface Props {
  /** Number of events in the raw log. */
  eventCount: number;
  /** The pages read, while the log is open. */
  pages: LogPages | undefined;
  /** An event to show: its line opens and takes the focus. */
  focusId: string | undefined;
  onOpen: (open: boolean) => void;
  onShowEarlier: () => void;
}

/**
 * Every event of the raw log. Logs grow long: only the newest page is read when the log is
 * opened, earlier ones on request, and each event's JSON only while its line is open.
 */
function EventLogView({ eventCount, pages, focusId, onOpen, onShowEarlier }: Props) {
  const lines = useMemo(() => (pages ? logLines(pages.entries) : []), [pages]);
  return (
    <section class="panel event-log" aria-label="Event log">
      <details
        open={pages !== undefined}
        onToggle={(event) => {
          // Opened or closed by the user (not by a message's link, which reads the log first).
          if (event.currentTarget.open !== (pages !== undefined)) onOpen(event.currentTarget.open);
        }}
      >
        <summary>
          <h2>Event log</h2> <span class="hint">{eventCount} events</span>
        </summary>
        {pages && (
          <ol>
            {pages.from > 0 && (
              <li class="earlier">
                <button type="button" class="quiet" onClick={onShowEarlier}>
                  Show earlier events ({pages.from} more)
                </button>
              </li>
            )}
            {lines.map((line, i) => (
              <LogItem
                key={line.id}
                line={line}
                event={pages.entries[i]!.event}
                focused={line.id === focusId}
              />
            ))}
          </ol>
        )}
      </details>
    </section>
  );
}

function LogItem({ line, event, focused }: { line: LogLine; event: Event; focused: boolean }) {
  const [open, setOpen] = useState(false);
  const summary = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!focused) return;
    setOpen(true);
    summary.current?.scrollIntoView({ block: 'nearest' });
    summary.current?.focus();
  }, [focused]);
  return (
    <li
      id={`event-${line.id}`}
      class={`${line.marker ? 'marker' : ''} ${line.active ? '' : 'inactive'}${focused ? ' focused' : ''}`}
    >
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary ref={summary}>
          <time>{line.time}</time> <strong>{line.author}</strong> {line.summary}
          {!line.active && <span class="visually-hidden"> (off the active path)</span>}
        </summary>
        {open && (
          <LongText
            as="pre"
            value={event}
            indent={2}
            max={EVENT_JSON_CHARS}
            filename={`event-${line.seq}`}
          />
        )}
      </details>
    </li>
  );
}

/** Characters of an event's JSON shown before Show all. */
const EVENT_JSON_CHARS = 10_000;

export const EventLog = pure(EventLogView);
