// A trace of an invocation: spans recorded while it runs (not guessed from the log afterwards).
// One trace per invocation: its id is derived from the invocation id, so that a resumed
// invocation (another runner, after a reload) continues the same trace.
//
// Attribute names follow OpenTelemetry's GenAI semantic conventions where they fit
// (`gen_ai.request.model`, `gen_ai.usage.input_tokens`, `gen_ai.tool.name`, …); Trellis's own
// are under `trellis.`.

/** What a span measures. */
export type SpanKind = 'invocation' | 'agent' | 'node' | 'model' | 'tool' | 'wait';

export type SpanAttribute = string | number | boolean | readonly string[];

export interface SpanRecord {
  appName: string;
  userId: string;
  sessionId: string;
  invocationId: string;
  /** 32 hex digits, the same for every span of the invocation. */
  traceId: string;
  /** 16 hex digits. */
  spanId: string;
  /** The span it belongs under (absent for the invocation's root span). */
  parentSpanId?: string;
  kind: SpanKind;
  name: string;
  /** Milliseconds since the epoch, with sub-millisecond precision. */
  startTime: number;
  /** Absent while the span is open (a wait not yet answered). */
  endTime?: number;
  status: 'ok' | 'error';
  /** What went wrong, for a span whose status is `error`. */
  error?: string;
  /** The ParallelAgent branch it ran on, if any. */
  branch?: string;
  attributes: Record<string, SpanAttribute>;
}

export interface SpanKey {
  appName: string;
  userId: string;
  sessionId: string;
}

const UUID_INVOCATION =
  /^e-([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})$/;

/**
 * The trace id of an invocation: 32 hex digits derived from its id — the UUID of Trellis's and
 * ADK's `e-<uuid>` ids as it is (so a trace is easy to find from its invocation), else a hash
 * (FNV-1a, four lanes).
 */
export function traceIdOf(invocationId: string): string {
  return UUID_INVOCATION.test(invocationId)
    ? invocationId.slice(2).replaceAll('-', '')
    : hexHash(invocationId, 4);
}

/** A span id derived from `seed` (a wait's call id: the same wait is one span, however often written). */
export function spanIdOf(seed: string): string {
  return hexHash(seed, 2);
}

function hexHash(text: string, lanes: number): string {
  let out = '';
  for (let lane = 0; lane < lanes; lane++) {
    let hash = (0x811c9dc5 ^ (lane * 0x9e3779b1)) >>> 0;
    for (let i = 0; i < text.length; i++) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    out += hash.toString(16).padStart(8, '0');
  }
  return /^0+$/.test(out) ? `${out.slice(0, -1)}1` : out;
}

const clock =
  typeof performance !== 'undefined' && performance.timeOrigin ? performance : undefined;
/** Read once: it never changes, and its getter is not free. */
const origin = clock ? clock.timeOrigin : 0;

/** Now, in milliseconds since the epoch, finer than `Date.now()` where the platform allows. */
export function preciseNow(): number {
  return clock ? origin + clock.now() : Date.now();
}
