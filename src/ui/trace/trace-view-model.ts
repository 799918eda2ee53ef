// The Trace view's view model: one invocation's spans and events read from the worker, laid out
// as a waterfall, the span chosen for its details, and the session's traces exported as OTLP JSON.

import { download } from '../common/download.ts';
import { ViewState } from '../workbench/view-state.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';
import { layoutTrace, type TraceLayout } from './trace-model.ts';

type InvocationTrace = Awaited<ReturnType<RuntimeClient['runtime']['trace']>>;

export interface TraceViewState {
  loading: boolean;
  trace: InvocationTrace | undefined;
  layout: TraceLayout | undefined;
  selectedSpanId: string | undefined;
  /** What went wrong reading the trace (a remote session's, say). */
  error: string | undefined;
  /** What went wrong exporting it. */
  exportError: string | undefined;
}

/** How often the open spans (waits) grow while the view is shown. */
const TICK_MS = 1000;

export class TraceViewModel extends ViewState<TraceViewState> {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly client: Pick<RuntimeClient, 'runtime'>,
    private readonly sessionId: string,
    private readonly invocationId: string,
    private readonly now: () => number = Date.now,
  ) {
    super({
      loading: true,
      trace: undefined,
      layout: undefined,
      selectedSpanId: undefined,
      error: undefined,
      exportError: undefined,
    });
  }

  /** Reads the trace (again); the selection stays when its span is still there. */
  async load(): Promise<void> {
    this.set({ loading: true, error: undefined });
    try {
      const trace = await this.client.runtime.trace(this.sessionId, this.invocationId);
      const layout = layoutTrace(trace.spans, this.now());
      const kept = layout.rows.some((row) => row.span.spanId === this.state.selectedSpanId);
      this.set({
        loading: false,
        trace,
        layout,
        ...(kept ? {} : { selectedSpanId: undefined }),
      });
      this.tickWhileOpen();
    } catch (error) {
      this.set({ loading: false, error: messageOf(error) });
    }
  }

  select(spanId: string | undefined): void {
    this.set({ selectedSpanId: spanId });
  }

  async exportOtlp(): Promise<void> {
    this.set({ exportError: undefined });
    try {
      const { filename, json } = await this.client.runtime.exportTraces(this.sessionId);
      download(filename, json);
    } catch (error) {
      this.set({ exportError: messageOf(error) });
    }
  }

  /** Stops the clock of open spans (the view is closed). */
  dispose(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Open spans are drawn up to now: the layout follows the clock while any is open. */
  private tickWhileOpen(): void {
    this.dispose();
    if (!this.state.layout?.rows.some((row) => row.open)) return;
    this.timer = setInterval(() => {
      const trace = this.state.trace;
      if (trace) this.set({ layout: layoutTrace(trace.spans, this.now()) });
    }, TICK_MS);
  }
}

function messageOf(error: unknown): string {
  return (error as Error | null)?.message ?? String(error);
}
