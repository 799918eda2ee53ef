// Spans read from a file (a backup) are checked before they are stored: each must be a span
// record as a run writes it, or the file is refused. Its session key is not checked here: the
// reader puts the spans under the session they are restored into.

import type { SpanKey, SpanRecord } from './span.ts';

const KINDS: readonly unknown[] = ['invocation', 'agent', 'node', 'model', 'tool', 'wait'];
const HEX = (digits: number) => new RegExp(`^[0-9a-f]{${digits}}$`);
const TRACE_ID = HEX(32);
const SPAN_ID = HEX(16);
/** Names and ids longer than this are not a run's. */
const MAX_TEXT = 1024;

/** What is wrong with `value` as a span record (none: `undefined`). */
export function spanProblem(value: unknown): string | undefined {
  if (!isRecord(value)) return 'it is not an object';
  const { invocationId, traceId, spanId, parentSpanId, kind, name, startTime, endTime } = value;
  if (!isText(invocationId)) return 'it has no invocation id';
  if (typeof traceId !== 'string' || !TRACE_ID.test(traceId))
    return 'its trace id is not 32 hex digits';
  if (typeof spanId !== 'string' || !SPAN_ID.test(spanId))
    return 'its span id is not 16 hex digits';
  if (
    parentSpanId !== undefined &&
    (typeof parentSpanId !== 'string' || !SPAN_ID.test(parentSpanId))
  )
    return 'its parent span id is not 16 hex digits';
  if (!KINDS.includes(kind)) return `its kind ${JSON.stringify(kind)} is not a span's`;
  if (!isText(name)) return 'it has no name';
  if (!isTime(startTime)) return 'its start time is not a time';
  if (endTime !== undefined && (!isTime(endTime) || endTime < startTime))
    return 'its end time is not a time after its start';
  if (value.status !== 'ok' && value.status !== 'error') return 'its status is not ok or error';
  if (value.error !== undefined && typeof value.error !== 'string') return 'its error is not text';
  if (value.branch !== undefined && !isText(value.branch)) return 'its branch is not text';
  if (!isRecord(value.attributes)) return 'its attributes are not an object';
  for (const [key, attribute] of Object.entries(value.attributes))
    if (!isAttribute(attribute))
      return `its attribute ${JSON.stringify(key)} is not a value a span holds`;
  return undefined;
}

/** The span record `value` (checked by spanProblem) under `key`, with no field it does not know. */
export function spanUnder(key: SpanKey, value: SpanRecord): SpanRecord {
  const { invocationId, traceId, spanId, parentSpanId, kind, name, startTime, endTime } = value;
  const { status, error, branch, attributes } = value;
  return {
    ...key,
    invocationId,
    traceId,
    spanId,
    ...(parentSpanId !== undefined ? { parentSpanId } : {}),
    kind,
    name,
    startTime,
    ...(endTime !== undefined ? { endTime } : {}),
    status,
    ...(error !== undefined ? { error } : {}),
    ...(branch !== undefined ? { branch } : {}),
    attributes,
  };
}

function isAttribute(value: unknown): boolean {
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string');
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '' && value.length <= MAX_TEXT;
}

function isTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
