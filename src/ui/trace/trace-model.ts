// The Trace view's waterfall, as data: one row per span, nested under its parent, with its bar
// placed on the invocation's whole time span. Pure, so the layout is tested without a page.

import type { SpanAttribute, SpanKind, SpanRecord } from '../../tracing/span.ts';

export interface TraceRow {
  span: SpanRecord;
  /** How deep it sits under its root (a root is 0). */
  depth: number;
  /** Milliseconds from the trace's start to the span's start. */
  offsetMs: number;
  /** Milliseconds it lasted, or has lasted so far when it is open. */
  durationMs: number;
  /** Still open (a wait not yet answered): drawn up to now. */
  open: boolean;
  /** The bar's start and width, in percent of the trace's time span. */
  left: number;
  width: number;
}

export interface TraceLayout {
  rows: TraceRow[];
  /** When the earliest span began (ms since the epoch). */
  startTime: number;
  /** From the earliest start to the latest end (now, when a span is open). */
  totalMs: number;
}

/** What each kind is called on a row. */
export const KIND_LABELS: Record<SpanKind, string> = {
  invocation: 'invocation',
  agent: 'agent',
  node: 'node',
  model: 'model call',
  tool: 'tool call',
  wait: 'wait',
};

/** The operation each kind's span names begin with (OpenTelemetry's GenAI span names). */
const OPERATIONS: Partial<Record<SpanKind, string>> = {
  agent: 'invoke_agent ',
  model: 'chat ',
  tool: 'execute_tool ',
};

/**
 * A span's name on its row, where its kind is written beside it: "drafter", not
 * "invoke_agent drafter" (its details keep the whole name).
 */
export function rowLabel(span: SpanRecord): string {
  const operation = OPERATIONS[span.kind];
  return operation && span.name.startsWith(operation) && span.name.length > operation.length
    ? span.name.slice(operation.length)
    : span.name;
}

/**
 * The waterfall of `spans` (one invocation's), `now` standing for the end of open spans.
 *
 * - Rows are in tree order: each span followed by its children, siblings by start time, so
 *   parallel branches are sibling rows whose bars overlap.
 * - A span whose parent is not among them (a resumed run's root) is a root of its own.
 * - A span written twice (a wait, open then answered) is one row: the closed record wins.
 */
export function layoutTrace(spans: readonly SpanRecord[], now: number): TraceLayout {
  const byId = new Map<string, SpanRecord>();
  for (const span of spans) {
    const known = byId.get(span.spanId);
    if (!known || (known.endTime === undefined && span.endTime !== undefined))
      byId.set(span.spanId, span);
  }
  const unique = [...byId.values()];
  if (unique.length === 0) return { rows: [], startTime: now, totalMs: 0 };
  const endOf = (span: SpanRecord) => span.endTime ?? Math.max(now, span.startTime);
  const startTime = Math.min(...unique.map((span) => span.startTime));
  const totalMs = Math.max(...unique.map(endOf)) - startTime;

  const children = new Map<string | undefined, SpanRecord[]>();
  for (const span of unique) {
    const parent = span.parentSpanId && byId.has(span.parentSpanId) ? span.parentSpanId : undefined;
    const siblings = children.get(parent) ?? [];
    siblings.push(span);
    children.set(parent, siblings);
  }
  const rows: TraceRow[] = [];
  const placed = new Set<string>();
  const visit = (span: SpanRecord, depth: number) => {
    if (placed.has(span.spanId)) return; // a cycle in bad data: each span is drawn once
    placed.add(span.spanId);
    const offsetMs = span.startTime - startTime;
    const durationMs = endOf(span) - span.startTime;
    rows.push({
      span,
      depth,
      offsetMs,
      durationMs,
      open: span.endTime === undefined,
      left: totalMs > 0 ? (offsetMs / totalMs) * 100 : 0,
      width: totalMs > 0 ? (durationMs / totalMs) * 100 : 100,
    });
    for (const child of byStart(children.get(span.spanId))) visit(child, depth + 1);
  };
  for (const root of byStart(children.get(undefined))) visit(root, 0);
  // Spans only reachable through a cycle (no root above them) still get a row.
  for (const span of byStart(unique)) visit(span, 0);
  return { rows, startTime, totalMs };
}

function byStart(spans: readonly SpanRecord[] | undefined): SpanRecord[] {
  return [...(spans ?? [])].sort((a, b) => a.startTime - b.startTime);
}

/** A duration for people: "0.4 ms", "85 ms", "1.2 s", "14 s", "3 min 5 s", "2 h 10 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 10) return `${trimZero(ms.toFixed(1))} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = ms / 1000;
  if (seconds < 10) return `${trimZero(seconds.toFixed(1))} s`;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  const wholeSeconds = Math.round(seconds);
  const minutes = Math.floor(wholeSeconds / 60);
  if (minutes < 60) return joinUnits(minutes, 'min', wholeSeconds % 60, 's');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return joinUnits(hours, 'h', minutes % 60, 'min');
  return joinUnits(Math.floor(hours / 24), 'd', hours % 24, 'h');
}

function trimZero(fixed: string): string {
  return fixed.endsWith('.0') ? fixed.slice(0, -2) : fixed;
}

function joinUnits(big: number, bigUnit: string, small: number, smallUnit: string): string {
  return small === 0 ? `${big} ${bigUnit}` : `${big} ${bigUnit} ${small} ${smallUnit}`;
}

/** An attribute shown in a span's details: a label people read, and its value as text. */
export interface AttributeRow {
  key: string;
  label: string;
  value: string;
}

/** The GenAI convention's and Trellis's names, as the details list them (in this order). */
const ATTRIBUTE_LABELS: Record<string, string> = {
  'gen_ai.agent.name': 'Agent',
  'gen_ai.request.model': 'Model',
  'gen_ai.response.model': 'Model (as it answered)',
  'gen_ai.usage.input_tokens': 'Tokens in',
  'gen_ai.usage.output_tokens': 'Tokens out',
  'trellis.time_to_first_token_ms': 'Time to first token',
  'gen_ai.response.finish_reasons': 'Finish reason',
  'trellis.contents': 'Contents sent',
  'trellis.tools': 'Tools offered',
  'gen_ai.tool.name': 'Tool',
  'trellis.tool.arguments': 'Arguments',
  'trellis.tool.result_bytes': 'Result size',
  'trellis.tool.outcome': 'Outcome',
  'trellis.outcome': 'Outcome',
  'gen_ai.tool.call.id': 'Call id',
  'trellis.event_id': 'Event id',
  'gen_ai.conversation.id': 'Session id',
};

const COUNT = new Intl.NumberFormat('en');

/** A span's attributes for its details: the known ones first, labelled, then the rest by name. */
export function attributeRows(attributes: Record<string, SpanAttribute>): AttributeRow[] {
  const known = Object.keys(ATTRIBUTE_LABELS).filter((key) => Object.hasOwn(attributes, key));
  const others = Object.keys(attributes)
    .filter((key) => !Object.hasOwn(ATTRIBUTE_LABELS, key))
    .sort();
  return [...known, ...others].map((key) => ({
    key,
    label: ATTRIBUTE_LABELS[key] ?? key,
    value: attributeText(key, attributes[key]!),
  }));
}

function attributeText(key: string, value: SpanAttribute): string {
  if (key === 'trellis.time_to_first_token_ms' && typeof value === 'number')
    return formatDuration(value);
  if (key === 'trellis.tool.result_bytes' && typeof value === 'number')
    return `${COUNT.format(value)} characters`;
  if (typeof value === 'number') return COUNT.format(value);
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
}
