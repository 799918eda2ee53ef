import { useMemo, useState } from 'preact/hooks';
import type { Event } from '../core/event.ts';
import { logLines, type LogLine } from './event-log-model.ts';
import { LongText } from './LongText.tsx';
import type { LogPages } from './workbench.ts';
import { pure } from './pure.ts';

interface Props {
  /** Number of events in the raw log. */
  eventCount: number;
  /** The pages read, while the log is open. */
  pages: LogPages | undefined;
  onOpen: (open: boolean) => void;
  onShowEarlier: () => void;
}

/**
 * Every event of the raw log. Logs grow long: only the newest page is read when the log is
 * opened, earlier ones on request, and each event's JSON only while its line is open.
 */
function EventLogView({ eventCount, pages, onOpen, onShowEarlier }: Props) {
  const lines = useMemo(() => (pages ? logLines(pages.entries) : []), [pages]);
  return (
    <section class="panel event-log" aria-label="Event log">
      <details onToggle={(event) => onOpen(event.currentTarget.open)}>
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
              <LogItem key={line.id} line={line} event={pages.entries[i]!.event} />
            ))}
          </ol>
        )}
      </details>
    </section>
  );
}

function LogItem({ line, event }: { line: LogLine; event: Event }) {
  const [open, setOpen] = useState(false);
  return (
    <li class={`${line.marker ? 'marker' : ''} ${line.active ? '' : 'inactive'}`}>
      <details onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>
          <time>{line.time}</time> <strong>{line.author}</strong> {line.summary}
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
