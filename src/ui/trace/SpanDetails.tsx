import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { Event } from '../../core/event.ts';
import { LongText } from '../common/LongText.tsx';
import { spanEventSections } from './span-events.ts';
import { attributeRows, formatDuration, KIND_LABELS, type TraceRow } from './trace-model.ts';

/** Events listed per section at most: a long turn sends a model many; the latest matter most. */
const SHOWN_EVENTS = 20;

/** A span's details: when and how long, its attributes, its error and the events it produced. */
export function SpanDetails({
  row,
  events,
  onClose,
}: {
  row: TraceRow;
  events: readonly Event[];
  onClose: () => void;
}) {
  const { span } = row;
  const sections = useMemo(() => spanEventSections(span, events), [span, events]);
  const attributes = useMemo(() => attributeRows(span.attributes), [span.attributes]);
  // On a phone the details are below the waterfall: a span chosen there brings them into view
  // (never when they show already, as beside the waterfall on a desktop).
  const element = useRef<HTMLElement>(null);
  useEffect(() => {
    const box = element.current?.getBoundingClientRect();
    if (box && (box.top >= innerHeight || box.bottom <= 0))
      element.current?.scrollIntoView({ block: 'start' });
  }, [span.spanId]);
  return (
    <section class="trace-details" aria-label="Span details" ref={element}>
      <header>
        <p class="trace-details-name">
          <span class="trace-kind">{KIND_LABELS[span.kind]}</span> {span.name}
        </p>
        <button type="button" class="quiet" onClick={onClose}>
          Close
        </button>
      </header>
      {span.status === 'error' && (
        <p class="trace-error">
          <strong>⚠ Failed:</strong> <LongText value={span.error ?? 'an error'} max={600} />
        </p>
      )}
      <dl class="trace-facts">
        <Fact label="Kind" value={KIND_LABELS[span.kind]} />
        <Fact label="Started" value={`+${formatDuration(row.offsetMs)}`} />
        <Fact
          label="Duration"
          value={
            row.open
              ? `${formatDuration(row.durationMs)} so far, still waiting`
              : formatDuration(row.durationMs)
          }
        />
        <Fact label="Status" value={span.status === 'error' ? 'failed' : 'ok'} />
        {span.branch && <Fact label="Branch" value={span.branch} />}
        {attributes.map((attribute) => (
          <Fact key={attribute.key} label={attribute.label} value={attribute.value} />
        ))}
      </dl>
      {sections.map((section) => (
        <div key={section.title} class="trace-events">
          <h3>{section.title}</h3>
          {section.note && <p class="hint">{section.note}</p>}
          {section.events.length > SHOWN_EVENTS && (
            <p class="hint">
              The last {SHOWN_EVENTS} of {section.events.length}:
            </p>
          )}
          <ol>
            {section.events.slice(-SHOWN_EVENTS).map((event) => (
              <li key={event.id}>
                <span class="trace-author">{event.author}</span>
                <LongText
                  as="pre"
                  value={event.text}
                  max={section.title === 'Request' ? 240 : 2000}
                />
              </li>
            ))}
          </ol>
        </div>
      ))}
    </section>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>
        <LongText value={value} max={400} />
      </dd>
    </div>
  );
}
