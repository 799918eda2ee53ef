// The public API of the Trellis library (DESIGN §4). It runs in the worker, in Node and in the
// page.

// data model
export * from './core/content.ts';
export * from './core/event.ts';
export * from './core/state.ts';
export { isStateEdit, stateEditText } from './core/state-edit.ts';
export * from './core/errors.ts';
export { activeEvents, conversationThrough } from './core/active-events.ts';
export * from './core/branch-tree.ts';
export * from './core/session-file.ts';
export { planRewind, type ArtifactRestore, type RewindPlan, type RewindTo } from './core/rewind.ts';
export { newEventId, newInvocationId, newSessionId } from './core/ids.ts';

// sessions and artifacts
export * from './store/session-service.ts';
export { InMemorySessionService } from './store/in-memory-session-service.ts';
export { IndexedDbSessionService } from './store/indexeddb-session-service.ts';
export * from './store/artifact-service.ts';
export { InMemoryArtifactService } from './store/in-memory-artifact-service.ts';
export { IndexedDbArtifactService } from './store/indexeddb-artifact-service.ts';
export { DEFAULT_DB_NAME, type IndexedDbServiceOptions } from './store/connection.ts';
export { withArtifactBytes } from './store/session-export.ts';
export {
  TRELLIS_METADATA,
  artifactPayloadsOf,
  type ArtifactPayloads,
} from './core/artifact-payloads.ts';

// memory
export {
  BaseMemoryService,
  type AddEventsToMemoryRequest,
  type ListMemoriesResponse,
  type ListMemorySessionsResponse,
  type MemoryEntry,
  type MemoryUserKey,
  type RemoveEventsFromMemoryRequest,
  type SearchMemoryRequest,
  type SearchMemoryResponse,
  type SessionToRemember,
} from './store/memory-service.ts';
export { InMemoryMemoryService } from './store/in-memory-memory-service.ts';
export {
  DEFAULT_MAX_MEMORY_RESULTS,
  IndexedDbMemoryService,
  type IndexedDbMemoryServiceOptions,
} from './store/indexeddb-memory-service.ts';

// agents
export { BaseAgent, type BaseAgentOptions } from './agents/base-agent.ts';
export { LlmAgent, type LlmAgentOptions } from './agents/llm-agent.ts';
export { CallbackContext } from './agents/callback-context.ts';
export type {
  AfterAgentCallback,
  AfterModelCallback,
  AfterToolCallback,
  BeforeAgentCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  OnModelErrorCallback,
  OnToolErrorCallback,
  SingleAfterModelCallback,
  SingleAfterToolCallback,
  SingleAgentCallback,
  SingleBeforeModelCallback,
  SingleBeforeToolCallback,
  SingleOnModelErrorCallback,
  SingleOnToolErrorCallback,
} from './agents/callbacks.ts';
export { BasePlugin, type PluginAgent } from './plugins/base-plugin.ts';
export { PluginManager } from './plugins/plugin-manager.ts';
export { LoggingPlugin } from './plugins/logging-plugin.ts';
export { GlobalInstructionPlugin } from './plugins/global-instruction-plugin.ts';
export { SequentialAgent, type SequentialAgentState } from './agents/sequential-agent.ts';
export { LoopAgent, type LoopAgentOptions, type LoopAgentState } from './agents/loop-agent.ts';
export { REQUEST_CONFIRMATION_FUNCTION } from './agents/confirmation.ts';
export { ParallelAgent } from './agents/parallel-agent.ts';
export type { Instruction } from './agents/instructions.ts';
export { TRANSFER_TO_AGENT } from './agents/transfer.ts';
export { Workflow, type WorkflowOptions } from './workflow/workflow.ts';
export {
  BaseNode,
  FunctionNode,
  JoinNode,
  REQUEST_INPUT_FUNCTION,
  RequestInput,
  START,
  type BaseNodeOptions,
  type FunctionNodeHandler,
  type GraphNode,
  type RequestInputOptions,
  type RetryConfig,
} from './workflow/nodes.ts';
export {
  DEFAULT_ROUTE,
  Edge,
  type ChainElement,
  type EdgeItem,
  type RoutingMap,
} from './workflow/graph.ts';
export { NodeContext, type RouteValue, type RunNodeOptions } from './workflow/node-context.ts';
export { ParallelWorker } from './workflow/parallel-worker.ts';
export { node, type NodeLike, type NodeOptions } from './workflow/build-node.ts';
export type { NodeSchema, ParsingSchema } from './workflow/node-schema.ts';
export { AgentNode, ToolNode } from './workflow/agent-nodes.ts';

// context compaction (docs/compaction.md)
export {
  COMPACTION_AUTHOR,
  SUMMARY_PREFIX,
  compactionText,
  contextEvents,
  isCompactionEvent,
  modelEvents,
} from './core/compaction.ts';
export {
  ContextCompactionTrigger,
  type BaseContextCompactor,
  type BaseSummarizer,
} from './context/base-context-compactor.ts';
export {
  TokenBasedContextCompactor,
  type TokenBasedContextCompactorOptions,
} from './context/token-based-context-compactor.ts';
export {
  TruncatingContextCompactor,
  type TruncatingContextCompactorOptions,
} from './context/truncating-context-compactor.ts';
export {
  AgentControlledContextCompactor,
  type AgentControlledContextCompactorOptions,
} from './context/agent-controlled-context-compactor.ts';
export {
  CONSOLIDATE_CONTEXT_DETAIL_KEY,
  CONSOLIDATE_CONTEXT_KEY,
  CONSOLIDATE_CONTEXT_TOOL,
  ConsolidateContextTool,
} from './context/consolidate-context-tool.ts';
export {
  DEFAULT_SUMMARY_PROMPT,
  LlmSummarizer,
  type LlmSummarizerOptions,
} from './context/llm-summarizer.ts';
export {
  estimateContentsTokens,
  estimateContextTokens,
  latestPromptTokenCount,
} from './context/token-count.ts';

// tools
export { BaseTool, type ToolProcessLlmRequest } from './tools/base-tool.ts';
export { BaseToolset } from './tools/base-toolset.ts';
export {
  McpServerUnreachableError,
  McpTool,
  McpToolset,
  type McpToolInfo,
  type McpToolsetOptions,
  type StreamableHTTPConnectionParams,
} from './tools/mcp/mcp-toolset.ts';
export {
  FunctionTool,
  LongRunningFunctionTool,
  type FunctionToolOptions,
} from './tools/function-tool.ts';
export { ToolContext, type ToolState } from './tools/tool-context.ts';
export { AgentTool, type AgentToolConfig } from './tools/agent-tool.ts';
export { BUILTIN_TOOLS, BUILTIN_TOOL_NAMES, builtinTools } from './tools/builtin-tools.ts';
export {
  LOAD_MEMORY,
  LoadMemoryTool,
  PRELOAD_MEMORY,
  PreloadMemoryTool,
} from './tools/memory-tools.ts';
export { appendInstructions, processToolRequests } from './tools/tool-requests.ts';

// models
export * from './models/llm.ts';
export * from './models/scripted-model.ts';
export { GEMINI_BASE_URL, GeminiModel, type GeminiModelOptions } from './models/gemini-model.ts';
export {
  OpenAiCompatibleModel,
  type OpenAiCompatibleModelOptions,
} from './models/openai-compatible-model.ts';
export { MODEL_ERROR_CODES, ModelUnreachableError } from './models/model-errors.ts';
export type { HttpModelOptions } from './models/model-http.ts';
export {
  LocalGgufModel,
  type LocalChatChunk,
  type LocalChatEngine,
  type LocalChatMessage,
  type LocalChatParams,
  type LocalGgufModelOptions,
} from './models/local/local-gguf-model.ts';
export { parseToolCall, schemaGrammar, toolGrammar } from './models/local/gguf-grammar.ts';

// runner
export * from './runner/runner.ts';
export * from './runner/runner-types.ts';
export { editSessionState, type EditStateRequest } from './runner/edit-state.ts';
export { InMemoryRunner } from './runner/in-memory-runner.ts';
export {
  InvocationContext,
  type LiveSession,
  type RunConfig,
} from './runner/invocation-context.ts';

// traces (docs/tracing.md)
export * from './tracing/span.ts';
export * from './tracing/trace-service.ts';
export { IndexedDbTraceService } from './store/indexeddb-trace-service.ts';
export { toOtlpJson } from './tracing/otlp.ts';

// graph workflows (docs/flows.md)
export { compileFlow, flowAgentName, type CompileFlowOptions } from './flows/compile-flow.ts';
export { validateFlow } from './flows/validate.ts';
export {
  importFlowiseFlow,
  type FlowiseImport,
  type FlowiseImportOptions,
  type FlowiseReportItem,
} from './flows/flowise/import.ts';
export type * from './flows/flow.ts';
export type { FlowKnowledge } from './flows/flow-knowledge.ts';
export {
  CONDITION_OPERATIONS,
  DEFAULT_MAX_LOOPS,
  DEFAULT_MAX_STEPS,
  HISTORY_MODES,
  NODE_TYPES,
  OUTPUT_FIELD_TYPES,
} from './flows/flow.ts';

// knowledge bases (docs/knowledge.md)
export {
  KnowledgeBase,
  MAX_SEARCH_LIMIT,
  type AddOptions,
  type BaseChange,
  type BaseDraft,
  type DocumentInput,
  type JobOptions,
  type SearchOptions,
} from './knowledge/knowledge-base.ts';
export { InMemoryKnowledgeStorage, type KnowledgeStorage } from './knowledge/knowledge-storage.ts';
export { IndexedDbKnowledgeStorage } from './store/knowledge-store.ts';
export { DEFAULT_EMBEDDING_MODELS, embedderFor } from './knowledge/embedders.ts';
export { chunkDocument } from './knowledge/chunk.ts';
export { extractDocument, extractText, kindOf } from './knowledge/extract.ts';
export {
  KNOWLEDGE_TOOL_NAME,
  KnowledgeTool,
  sourceOf,
  type KnowledgeSearch,
  type KnowledgeToolOptions,
} from './tools/knowledge-tool.ts';
export {
  CHUNKING_LIMITS,
  DEFAULT_CHUNKING,
  placeOf,
  sourcesOf,
  type ChunkingOptions,
  type DocumentKind,
  type DocumentStatus,
  type Embedder,
  type EmbeddingChoice,
  type ExtractedDocument,
  type KnowledgeBaseInfo,
  type KnowledgeChunk,
  type KnowledgeDocument,
  type KnowledgeHit,
  type KnowledgeProgress,
  type KnowledgeSource,
  type PageSpan,
  type SearchMode,
  type TextChunk,
} from './knowledge/types.ts';
export { KnowledgeEmbeddingError, KnowledgeNotFoundError } from './core/errors.ts';
