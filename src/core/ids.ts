// Identifiers. `crypto.randomUUID` exists in browsers, workers and Node 19+.

/** A new event id. */
export function newEventId(): string {
  return crypto.randomUUID();
}

/** A new invocation id, prefixed as ADK's are (`e-…`). */
export function newInvocationId(): string {
  return `e-${crypto.randomUUID()}`;
}

/** A new session id. */
export function newSessionId(): string {
  return crypto.randomUUID();
}

/** An id for a function call the model sent without one (ADK's `adk-` prefix). */
export function newFunctionCallId(): string {
  return `adk-${crypto.randomUUID()}`;
}
