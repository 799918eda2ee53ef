import type { AdkSpan } from '../../remote/client.ts';
import { clip } from '../common/preview.ts';

/** The spans an ADK server recorded for a session (its /debug/trace), oldest first. */
export function TraceList({ spans }: { spans: AdkSpan[] | undefined }) {
  if (spans === undefined) return <p class="hint">Loading the trace…</p>;
  if (spans.length === 0) return <p class="hint">The server keeps no trace of this session.</p>;
  const ordered = [...spans].sort((a, b) => a.start_time - b.start_time);
  const start = ordered[0]!.start_time;
  return (
    <ol class="trace-list" aria-label="Trace">
      {ordered.map((span, index) => (
        <li key={span.span_id ?? index}>
          <details>
            <summary>
              <strong>{span.name}</strong>{' '}
              <span class="hint">
                +{ms(span.start_time - start)} · {ms(span.end_time - span.start_time)}
              </span>
            </summary>
            <dl>
              {Object.entries(span.attributes ?? {}).map(([key, value]) => (
                <div key={key}>
                  <dt>{key}</dt>
                  <dd>{clip(typeof value === 'string' ? value : JSON.stringify(value), 300)}</dd>
                </div>
              ))}
            </dl>
          </details>
        </li>
      ))}
    </ol>
  );
}

/** Nanoseconds (OpenTelemetry's unit) as milliseconds. */
function ms(nanoseconds: number): string {
  return `${(nanoseconds / 1e6).toFixed(1)} ms`;
}
