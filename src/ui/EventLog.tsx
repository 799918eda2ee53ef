import { useState } from 'preact/hooks';
import type { Event } from '../core/event.ts';
import type { LogLine } from './event-log-model.ts';
import { pure } from './pure.ts';

interface Props {
  lines: LogLine[];
  events: readonly Event[];
}

/** Every event of the log; lines and their JSON are only rendered when opened (logs grow long). */
function EventLogView({ lines, events }: Props) {
  const [open, setOpen] = useState(false);
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
