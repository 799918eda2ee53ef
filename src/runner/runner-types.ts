// The requests and options of the Runner.

import type { BaseTraceService } from '../tracing/trace-service.ts';
import type { BaseAgent } from '../agents/base-agent.ts';
import type { Content } from '../core/content.ts';
import type { RewindTo } from '../core/rewind.ts';
import type { BaseArtifactService } from '../store/artifact-service.ts';
import type { BaseMemoryService } from '../store/memory-service.ts';
import type { BaseSessionService, RunRecord } from '../store/session-service.ts';
import type { RunConfig } from './invocation-context.ts';
import type { BasePlugin } from '../plugins/base-plugin.ts';

export interface ResumabilityConfig {
  /** Workflow agents write checkpoints, and `runAsync({ invocationId })` continues a run. */
  isResumable: boolean;
}

export interface RunnerOptions {
  appName: string;
  agent: BaseAgent;
  sessionService: BaseSessionService;
  artifactService?: BaseArtifactService;
  /**
   * The user's memory across sessions (ADK's): what `ToolContext.searchMemory` and the memory
   * tools search, and what a rewind takes the rewound events out of.
   */
  memoryService?: BaseMemoryService;
  /**
   * ADK's plugins: their callbacks run, in this order and before the agents' own, for every
   * agent, model call, tool call and workflow node of the runner's runs (src/plugins).
   */
  plugins?: readonly BasePlugin[];
  resumabilityConfig?: ResumabilityConfig;
  /** How often a run in flight refreshes its record (default 5 s); 3 missed beats = cut off. */
  heartbeatMs?: number;
  /**
   * Whether a run recorded as running by another runner instance is still alive. By default its
   * heartbeat decides; the app answers from its Web Locks, which know at once.
   */
  runLiveness?: (run: RunRecord) => boolean | Promise<boolean>;
  /** The time, in milliseconds (tests move it forward). */
  clock?: () => number;
  /** Records a trace of every invocation there (see src/tracing); absent, nothing is traced. */
  traceService?: BaseTraceService;
}

export interface ListInterruptedRequest {
  userId: string;
  sessionId?: string;
  /** Defaults to the runner's app. */
  appName?: string;
}

export interface InterruptedInvocation {
  appName: string;
  userId: string;
  sessionId: string;
  invocationId: string;
  /** The agent it started at. */
  agentName: string;
  /** `paused`: waiting for a long-running tool or a human; `interrupted`: cut off or stopped. */
  status: 'interrupted' | 'paused';
  startedAt: number;
  updatedAt: number;
  /** For a paused one: the call ids it waits for. */
  pendingCallIds?: string[];
  /** Why it stopped, when a failure stopped it (a model that could not be reached, say). */
  error?: { name: string; message: string };
}

export interface RunAsyncRequest {
  userId: string;
  sessionId: string;
  /** The user's message; starts a new invocation (or answers a paused one). */
  newMessage?: Content;
  /** Continue this invocation instead (resumable runners only). */
  invocationId?: string;
  /** State changes recorded with the user's message. */
  stateDelta?: Record<string, unknown>;
  runConfig?: RunConfig;
}

/**
 * A rewind names exactly one target:
 * - `rewindBeforeInvocationId`: the invocation to go back to just before (a turn, or a marker
 *   to undo a rewind);
 * - `rewindAfterEventId`: the event to go back to just after (a checkpoint inside an
 *   invocation: the event stays, what followed it is dropped, and the invocation can then be
 *   resumed from there).
 */
export type RewindRequest = {
  userId: string;
  sessionId: string;
} & RewindTo;

export interface EditMessageRequest {
  userId: string;
  sessionId: string;
  /** The turn whose user message is replaced. */
  invocationId: string;
  newMessage: Content;
  runConfig?: RunConfig;
}

export interface ForkSessionAsyncRequest {
  userId: string;
  sessionId: string;
  /** The new session holds the conversation up to and including this turn. */
  atInvocationId: string;
  newSessionId?: string;
}
