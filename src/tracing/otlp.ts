// A session's traces as OTLP JSON (the OpenTelemetry protocol's JSON encoding, as an OTLP/HTTP
// exporter would post it to /v1/traces), for Jaeger, Arize Phoenix or Langfuse. The encoding is
// OpenTelemetry JS's own (`JsonTraceSerializer` of @opentelemetry/otlp-transformer), loaded only
// when a trace is exported: Trellis hands it spans as the SDK's ReadableSpans.

import type { SpanRecord } from './span.ts';

/** GenAI semantic conventions' operation of each kind of span that has one. */
const OPERATIONS: Partial<Record<SpanRecord['kind'], string>> = {
  agent: 'invoke_agent',
  model: 'chat',
  tool: 'execute_tool',
};

export interface OtlpOptions {
  /** `service.name` of the resource (default `trellis`). */
  serviceName?: string;
  /** When open spans (a wait not yet answered) are cut off (default now). */
  now?: number;
}

/** The spans as one OTLP JSON export request (ids as hex, times as Unix nanoseconds). */
export async function toOtlpJson(
  spans: readonly SpanRecord[],
  options: OtlpOptions = {},
): Promise<string> {
  const [{ JsonTraceSerializer }, { resourceFromAttributes }, core, api] = await Promise.all([
    import('@opentelemetry/otlp-transformer'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/core'),
    import('@opentelemetry/api'),
  ]);
  const now = options.now ?? Date.now();
  const resource = resourceFromAttributes({ 'service.name': options.serviceName ?? 'trellis' });
  const scope = { name: 'trellis', version: '0.1.0' };
  const readable = spans.map((span) => {
    const open = span.endTime === undefined;
    const startTime = core.millisToHrTime(span.startTime);
    const endTime = core.millisToHrTime(span.endTime ?? Math.max(now, span.startTime));
    const context = (spanId: string) => ({
      traceId: span.traceId,
      spanId,
      traceFlags: api.TraceFlags.SAMPLED,
    });
    return {
      name: span.name,
      // Model calls go out to a model server (GenAI conventions: CLIENT); the rest is in-process.
      kind: span.kind === 'model' ? api.SpanKind.CLIENT : api.SpanKind.INTERNAL,
      spanContext: () => context(span.spanId),
      ...(span.parentSpanId ? { parentSpanContext: context(span.parentSpanId) } : {}),
      startTime,
      endTime,
      duration: core.hrTimeDuration(startTime, endTime),
      status:
        span.status === 'error'
          ? { code: api.SpanStatusCode.ERROR, message: span.error ?? '' }
          : { code: api.SpanStatusCode.OK },
      attributes: {
        // The operation follows from the kind (recorded spans leave it out).
        ...(OPERATIONS[span.kind] ? { 'gen_ai.operation.name': OPERATIONS[span.kind] } : {}),
        ...span.attributes,
        'trellis.span.kind': span.kind,
        'trellis.invocation.id': span.invocationId,
        'session.id': span.sessionId,
        ...(span.branch ? { 'trellis.branch': span.branch } : {}),
        ...(span.status === 'error' && span.error ? { 'error.type': 'error' } : {}),
        ...(open ? { 'trellis.open': true } : {}),
      },
      links: [],
      events: [],
      ended: true,
      resource,
      instrumentationScope: scope,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    };
  });
  const bytes = JsonTraceSerializer.serializeRequest(readable);
  if (!bytes) throw new Error('OpenTelemetry could not encode these spans');
  return new TextDecoder().decode(bytes);
}
