import { useMemo, useState } from 'preact/hooks';
import type { Event } from '../core/event.ts';
import { logLines, type LogLine } from './event-log-model.ts';
import { pure } from './pure.ts';

interface Props {
  events: readonly Event[];
  active: readonly Event[];
}

/**
 * Every event of the log. Logs grow long: the lines are only made and rendered while the log is
 * open, and each event's JSON only while its line is.
 */
function EventLogView({ events, active }: Props) {
  const [open, setOpen] = useState(false);
  const lines = useMemo(
    () => (open ? logLines(events, new Set(active.map((event) => event.id))) : []),
    [open, events, active],
  );
  return (
    <section class="panel event-log" aria-label="Event log">
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          <h2>Event log</h2> <span class="hint">{events.length} events</span>
        </summary>
        {open && (
          <ol>
            {lines.map((line, i) => (
              <LogItem key={line.id} line={line} event={events[i]!} />
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
        {open && <pre>{JSON.stringify(event, null, 2)}</pre>}
      </details>
    </li>
  );
}

export const EventLog = pure(EventLogView);
