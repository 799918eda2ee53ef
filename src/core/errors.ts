// Typed errors. Each sets `name` to a string literal (not `new.target.name`, which minifiers
// mangle), because errors cross postMessage keeping only name, message and stack: classify them by
// `name` with `isTrellisError`, never with `instanceof`.

export class SessionNotFoundError extends Error {
  override name = 'SessionNotFoundError' as const;
  constructor(readonly sessionId: string) {
    super(`Session not found: ${sessionId}`);
  }
}

export class SessionExistsError extends Error {
  override name = 'SessionExistsError' as const;
  constructor(readonly sessionId: string) {
    super(`A session with id ${sessionId} already exists`);
  }
}

export class InvocationNotFoundError extends Error {
  override name = 'InvocationNotFoundError' as const;
  constructor(
    readonly invocationId: string,
    sessionId: string,
  ) {
    super(`Invocation ${invocationId} not found in session ${sessionId}`);
  }
}

export class EventNotFoundError extends Error {
  override name = 'EventNotFoundError' as const;
  constructor(
    readonly eventId: string,
    sessionId: string,
  ) {
    super(`Event ${eventId} not found in session ${sessionId}`);
  }
}

export class NotResumableError extends Error {
  override name = 'NotResumableError' as const;
  constructor(message = 'This runner is not resumable: set resumabilityConfig.isResumable') {
    super(message);
  }
}

export class FlowValidationError extends Error {
  override name = 'FlowValidationError' as const;
  constructor(readonly problems: readonly { nodeId?: string; message: string }[]) {
    super(
      `Invalid flow:\n${problems.map((p) => `- ${p.nodeId ? `${p.nodeId}: ` : ''}${p.message}`).join('\n')}`,
    );
  }
}

/** A flow run that went past its step limit (a cycle whose loop bound never ends it, say). */
export class FlowStepLimitError extends Error {
  override name = 'FlowStepLimitError' as const;
  readonly code = 'FLOW_STEP_LIMIT';
  constructor(
    readonly flowName: string,
    readonly maxSteps: number,
    readonly nodeId: string,
  ) {
    super(
      `Flow ${flowName} stopped after ${maxSteps} steps, before node ${nodeId}: raise maxSteps or bound the cycle with a loop node`,
    );
  }
}

/** A flow node that was given what it cannot work with (an Iteration's input that is no list). */
export class InvalidFlowInputError extends Error {
  override name = 'InvalidFlowInputError' as const;
  readonly code = 'INVALID_FLOW_INPUT';
}

/** A workflow node ran past its `timeout` (ADK 2.0's name and message). */
export class NodeTimeoutError extends Error {
  override name = 'NodeTimeoutError' as const;
  constructor(
    readonly nodeName: string,
    readonly timeout: number,
  ) {
    super(`Node '${nodeName}' timed out after ${timeout} seconds.`);
  }
}

/** A workflow node's input or output does not fit its schema (ADK 2.0's name and message). */
export class NodeSchemaValidationError extends Error {
  override name = 'NodeSchemaValidationError' as const;
  constructor(
    readonly nodeName: string,
    readonly direction: 'input' | 'output',
    detail: string,
  ) {
    super(
      `Node '${nodeName}' ${direction} does not match its ${direction === 'input' ? 'inputSchema' : 'outputSchema'}: ${detail}`,
    );
  }
}

/** A request that cannot be carried out as given (missing message, bad argument). */
export class InvalidRequestError extends Error {
  override name = 'InvalidRequestError' as const;
}

/** An event that was already appended (same id) is appended again. */
export class DuplicateEventError extends Error {
  override name = 'DuplicateEventError' as const;
  constructor(readonly eventId: string) {
    super(`Event ${eventId} is already in the session`);
  }
}

/** The model failed (threw, or its provider did). The invocation ends with an error event. */
export class ModelError extends Error {
  override name = 'ModelError' as const;
  constructor(
    message: string,
    readonly code = 'MODEL_ERROR',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * A context compactor failed (its summariser's model, say) before the model call it runs before:
 * nothing was compacted, the log is as it was, and the invocation ends with an error event.
 */
export class ContextCompactionError extends Error {
  override name = 'ContextCompactionError' as const;
  readonly code = 'CONTEXT_COMPACTION_FAILED';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A tool threw. The invocation ends with an error event. */
export class ToolError extends Error {
  override name = 'ToolError' as const;
  constructor(
    readonly toolName: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(`Tool '${toolName}' failed: ${message}`, options);
  }
}

/**
 * A plugin's callback threw (ADK's PluginManager wraps it alike): the message names the plugin
 * and the callback, `cause` is what it threw. The run fails with it.
 */
export class PluginError extends Error {
  override name = 'PluginError' as const;
  constructor(
    readonly pluginName: string,
    readonly callbackName: string,
    cause: unknown,
  ) {
    super(
      `Error in plugin '${pluginName}' during '${callbackName}' callback: ${messageOf(cause)}`,
      {
        cause,
      },
    );
  }
}

/** An invocation called the model more often than `runConfig.maxLlmCalls` allows. */
export class LlmCallsLimitExceededError extends Error {
  override name = 'LlmCallsLimitExceededError' as const;
  constructor(readonly limit: number) {
    super(`The invocation exceeded its limit of ${limit} model calls`);
  }
}

/** The browser's storage for this site is full. The write was rolled back: nothing changed. */
export class StorageFullError extends Error {
  override name = 'StorageFullError' as const;
  constructor(options?: { cause?: unknown }) {
    super(
      "The browser's storage for this site is full, so nothing was saved. Free some space (delete old sessions or artifacts) and try again.",
      options,
    );
  }
}

/**
 * The browser's storage gave up on a write or a read for a reason of its own (IndexedDB aborted
 * the transaction): a write saved nothing. IndexedDB names this an `AbortError`, which here means
 * a cancellation that nobody reports, so it never travels under that name.
 */
export class StorageError extends Error {
  override name = 'StorageError' as const;
}

/** A session file to import is not valid; nothing was imported. */
export class InvalidSessionFileError extends Error {
  override name = 'InvalidSessionFileError' as const;
  constructor(readonly problems: readonly string[]) {
    super(`This is not a session file Trellis can import: ${problems.join('; ')}`);
  }
}

/** Another tab is running or rewinding this session right now. */
export class SessionBusyError extends Error {
  override name = 'SessionBusyError' as const;
  constructor(readonly sessionId: string) {
    super('This session is busy in another tab; wait for it to finish there.');
  }
}

/** A stored key is sealed with the user's passphrase, and this tab has not been given it. */
export class KeysLockedError extends Error {
  override name = 'KeysLockedError' as const;
}

/** A knowledge base, or a document or chunk of one, that is not there (wrong id, or deleted). */
export class KnowledgeNotFoundError extends Error {
  override name = 'KnowledgeNotFoundError' as const;
}

/**
 * A document's text was indexed but its vectors could not be made: it stays, found by full-text
 * search only, and `embed` can try again. `cause` is the embedder's error.
 */
export class KnowledgeEmbeddingError extends Error {
  override name = 'KnowledgeEmbeddingError' as const;
}

/** Why a flow's HTTP node got no usable answer (`HttpNodeError.reason`). */
export type HttpNodeFailure =
  'invalid-request' | 'unreachable' | 'status' | 'timeout' | 'too-large' | 'cut-off';

/**
 * A flow's HTTP node got no usable answer: its request was invalid (nothing was sent), the server
 * could not be reached, answered with a status of 400 or more (`status`), took too long, sent too
 * much, or closed the connection mid-answer. Messages name the URL by its origin and path only:
 * never its query, its credentials or a header's value.
 */
export class HttpNodeError extends Error {
  override name = 'HttpNodeError' as const;
  constructor(
    readonly reason: HttpNodeFailure,
    message: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Why a flow's Custom Function node gave no value (`CodeNodeError.reason`). */
export type CodeNodeFailure = 'timeout' | 'memory' | 'error' | 'result';

/**
 * A flow's Custom Function node (its code, run in a sandbox) gave no value: it ran past its time
 * limit or used more than its memory limit (and was stopped), did not parse, threw, awaited what
 * never came (`error`), or returned what is not JSON (`result`). `line` is the code's line the
 * error names, when it names one; `logs`, what the code printed before it failed. A Stop is no
 * CodeNodeError: the call rejects with an AbortError.
 */
export class CodeNodeError extends Error {
  override name = 'CodeNodeError' as const;
  constructor(
    readonly reason: CodeNodeFailure,
    message: string,
    readonly line?: number,
    readonly logs: readonly string[] = [],
  ) {
    super(message);
  }
}

const NAMES = [
  'SessionNotFoundError',
  'SessionExistsError',
  'InvocationNotFoundError',
  'EventNotFoundError',
  'NotResumableError',
  'FlowValidationError',
  'FlowStepLimitError',
  'NodeTimeoutError',
  'NodeSchemaValidationError',
  'InvalidRequestError',
  'DuplicateEventError',
  'ModelError',
  'ModelUnreachableError',
  'McpServerUnreachableError',
  'ToolError',
  'PluginError',
  'LlmCallsLimitExceededError',
  'StorageFullError',
  'StorageError',
  'InvalidSessionFileError',
  'SessionBusyError',
  'KeysLockedError',
  'HttpNodeError',
  'CodeNodeError',
  'KnowledgeNotFoundError',
  'KnowledgeEmbeddingError',
] as const;

export type TrellisErrorName = (typeof NAMES)[number];

/** True when `error` is (or was, before crossing a boundary) the named Trellis error. */
export function isTrellisError(error: unknown, name?: TrellisErrorName): error is Error {
  if (typeof error !== 'object' || error === null) return false;
  const errorName = (error as { name?: unknown }).name;
  return name === undefined
    ? (NAMES as readonly unknown[]).includes(errorName)
    : errorName === name;
}

/** The message of anything thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}
