import { useEffect, useMemo } from 'preact/hooks';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';
import { SpanDetails } from './SpanDetails.tsx';
import { formatDuration, KIND_LABELS, rowLabel, type TraceRow } from './trace-model.ts';
import { TraceViewModel } from './trace-view-model.ts';
import './trace.css';
import { ErrorBanner } from '../common/FormNotices.tsx';

interface Props {
  client: Pick<RuntimeClient, 'runtime'>;
  sessionId: string;
  invocationId: string;
  onClose: () => void;
}

/**
 * One turn's trace as a waterfall: a row per span (agents, model calls, tool calls, waits for
 * you), nested under the span it ran in, its bar placed on the turn's time; a row chosen shows
 * the span's details and the events it produced. Loaded lazily (App.tsx), with its styles.
 */
export function TraceView({ client, sessionId, invocationId, onClose }: Props) {
  const model = useMemo(
    () => new TraceViewModel(client, sessionId, invocationId),
    [client, sessionId, invocationId],
  );
  const state = useSnapshot(model);
  useEffect(() => {
    void model.load();
    return () => model.dispose();
  }, [model]);
  const { layout, trace, selectedSpanId } = state;
  const selected = layout?.rows.find((row) => row.span.spanId === selectedSpanId);

  return (
    <section class="flows-view trace-view" aria-label="Trace">
      <header class="flows-head">
        <h2>Trace</h2>
        <p class="hint">
          {layout && layout.rows.length > 0
            ? `${layout.rows.length} spans over ${formatDuration(layout.totalMs)}. Choose a span for its details.`
            : 'Where the time of this turn went: agents, model calls, tool calls and waits for you.'}
        </p>
        <button type="button" onClick={() => void model.load()} disabled={state.loading}>
          Refresh
        </button>
        <button type="button" onClick={() => void model.exportOtlp()}>
          Export traces (OTLP JSON)
        </button>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <ErrorBanner text={state.exportError} />
      {state.error ? (
        <p class="banner error" role="alert">
          {state.error}
        </p>
      ) : !layout ? (
        <p class="hint" role="status">
          Loading the trace…
        </p>
      ) : layout.rows.length === 0 ? (
        <p class="hint trace-empty" role="status">
          This turn has no trace: it ran before tracing was recorded, or its spans could not be
          stored.
        </p>
      ) : (
        <div class="trace-body">
          <div class="trace-waterfall">
            <p class="trace-axis" aria-hidden="true">
              <span>0</span>
              <span>{formatDuration(layout.totalMs / 2)}</span>
              <span>{formatDuration(layout.totalMs)}</span>
            </p>
            <ol class="trace-rows" aria-label="Spans" onKeyDown={moveFocus}>
              {layout.rows.map((row) => (
                <SpanRow
                  key={row.span.spanId}
                  row={row}
                  selected={row.span.spanId === selectedSpanId}
                  onSelect={() => model.select(row.span.spanId)}
                />
              ))}
            </ol>
          </div>
          {selected && trace ? (
            <SpanDetails
              row={selected}
              events={trace.events}
              onClose={() => model.select(undefined)}
            />
          ) : (
            <p class="hint trace-details-hint">
              Choose a span (click, or Enter on it) to see its attributes and the events it
              produced.
            </p>
          )}
        </div>
      )}
    </section>
  );
}

function SpanRow({
  row,
  selected,
  onSelect,
}: {
  row: TraceRow;
  selected: boolean;
  onSelect: () => void;
}) {
  const { span, depth, durationMs, open, left, width } = row;
  const failed = span.status === 'error';
  return (
    <li
      class={`trace-row kind-${span.kind}${failed ? ' failed' : ''}${open ? ' open' : ''}`}
      style={{ '--depth': depth }}
    >
      <button type="button" aria-pressed={selected} onClick={onSelect}>
        <span class="trace-label">
          <span class="trace-kind">{KIND_LABELS[span.kind]}</span>{' '}
          <span class="trace-name">{rowLabel(span)}</span>
          {failed && <span class="trace-failed"> ⚠ failed</span>}
          {open && <span class="trace-waiting"> still waiting</span>}
        </span>{' '}
        <span class="trace-duration">{formatDuration(durationMs)}</span>
        <span class="trace-track" aria-hidden="true">
          <span class="trace-bar" style={{ left: `${left}%`, width: `${width}%` }} />
        </span>
      </button>
    </li>
  );
}

/** Up and down arrows move between the rows (Tab does too; Enter or Space chooses one). */
function moveFocus(event: KeyboardEvent): void {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const row = (event.target as HTMLElement).closest('li');
  const next = event.key === 'ArrowDown' ? row?.nextElementSibling : row?.previousElementSibling;
  const button = next?.querySelector('button');
  if (!button) return;
  event.preventDefault();
  button.focus();
}
