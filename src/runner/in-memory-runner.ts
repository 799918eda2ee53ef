// A Runner over in-memory session, artifact, memory and trace services.

import type { BaseAgent } from '../agents/base-agent.ts';
import { InMemoryArtifactService } from '../store/in-memory-artifact-service.ts';
import { InMemoryMemoryService } from '../store/in-memory-memory-service.ts';
import { InMemorySessionService } from '../store/in-memory-session-service.ts';
import { InMemoryTraceService } from '../tracing/trace-service.ts';
import { Runner } from './runner.ts';
import type { ResumabilityConfig } from './runner-types.ts';
import type { BasePlugin } from '../plugins/base-plugin.ts';

export interface InMemoryRunnerOptions {
  agent: BaseAgent;
  appName?: string;
  resumabilityConfig?: ResumabilityConfig;
  /** ADK's plugins (see RunnerOptions.plugins). */
  plugins?: readonly BasePlugin[];
  /** Trace every invocation in memory (`runner.traces`; default true). */
  tracing?: boolean;
}

/** A Runner over in-memory session, artifact and memory services (ADK's). */
export class InMemoryRunner extends Runner {
  constructor(options: InMemoryRunnerOptions) {
    super({
      appName: options.appName ?? 'InMemoryRunner',
      agent: options.agent,
      sessionService: new InMemorySessionService(),
      artifactService: new InMemoryArtifactService(),
      memoryService: new InMemoryMemoryService(),
      ...(options.resumabilityConfig ? { resumabilityConfig: options.resumabilityConfig } : {}),
      ...(options.plugins ? { plugins: options.plugins } : {}),
      ...(options.tracing === false ? {} : { traceService: new InMemoryTraceService() }),
    });
  }
}
