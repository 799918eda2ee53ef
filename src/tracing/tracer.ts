// The spans of one run of an invocation, as it happens. The runner makes one per run (a resumed
// invocation gets another, on the same trace); agents, model calls and tool calls open and close
// spans through it. An ended span goes to its trace service's sink for the run (see
// trace-service.ts): kept as it is in memory, written in batches elsewhere, never awaited by the
// run's steps, so a trace that cannot be stored costs the run nothing.

import type { FunctionCall } from '../core/content.ts';
import {
  AgentSpan,
  InvocationSpan,
  ModelSpan,
  NodeSpan,
  ToolSpan,
  TraceRun,
  WaitSpan,
  type OpenSpan,
  type SpanParent,
  type SpanSink,
} from './open-span.ts';
import { preciseNow, type SpanKey } from './span.ts';
import type { BaseTraceService } from './trace-service.ts';

export class InvocationTracer {
  readonly run: TraceRun;
  private readonly sink: SpanSink;
  private spans = 0;

  constructor(service: BaseTraceService, key: SpanKey & { invocationId: string }) {
    this.run = new TraceRun(key);
    this.sink = service.spanSink(this.run);
  }

  /** The run's root span: the invocation's (`resumed`: a later run of it). */
  invocation(agentName: string, resumed: boolean): InvocationSpan {
    return new InvocationSpan(this.run, this.spans++, preciseNow(), agentName, resumed);
  }

  agent(parent: SpanParent, agentName: string): AgentSpan {
    return new AgentSpan(this.run, this.spans++, parent, preciseNow(), agentName);
  }

  /** One attempt of a workflow node's run, at its path (`help_desk.triage`). */
  node(parent: SpanParent, nodePath: string, attempt: number): NodeSpan {
    return new NodeSpan(this.run, this.spans++, parent, preciseNow(), nodePath, attempt);
  }

  model(parent: SpanParent, model: string, contents: number, tools: number): ModelSpan {
    return new ModelSpan(this.run, this.spans++, parent, preciseNow(), model, contents, tools);
  }

  /** A call's span; `args` its arguments as JSON (cut short). */
  tool(parent: SpanParent, call: FunctionCall, args: string): ToolSpan {
    return new ToolSpan(this.run, this.spans++, parent, preciseNow(), call.name, call.id, args);
  }

  /** The wait for the answer to call `callId`, from `event`, which asked (open: no end yet). */
  wait(
    name: string,
    callId: string,
    event: { id: string; branch?: string | undefined; timestamp: number },
  ): WaitSpan {
    return new WaitSpan(
      this.run,
      this.spans++,
      event.branch,
      event.timestamp,
      name,
      callId,
      event.id,
    );
  }

  /** Closes a span (once: a second end is ignored) and hands it on to be kept. */
  end(span: OpenSpan, error?: string): void {
    if (span.endTime !== undefined) return;
    span.endTime = preciseNow();
    if (error !== undefined) span.error = error;
    this.sink.add(span);
  }

  /** Hands on a span as it stands (a wait left open, or one answered at its `endTime`). */
  write(span: OpenSpan): void {
    this.sink.add(span);
  }

  /** Writes what is waiting; resolves when every write so far has been tried (nothing: none). */
  flush(): Promise<void> | undefined {
    return this.sink.flush();
  }
}
