// What can go wrong talking to an ADK API server, as typed errors the page classifies by name.

/** The server could not be reached at all: down, a wrong address, or CORS refusing this origin. */
export class AdkServerUnreachableError extends Error {
  override name = 'AdkServerUnreachableError' as const;
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(
      `The ADK server at ${url} could not be reached. Is it running? A browser may only talk to ` +
        `it when it allows this page's origin: start it with ` +
        `"adk api_server --allow_origins ${pageOrigin()}" (or adk web).`,
      options,
    );
  }
}

/** The server answered, but not as an ADK API server does, or with an error of its own. */
export class AdkServerError extends Error {
  override name = 'AdkServerError' as const;
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

function pageOrigin(): string {
  const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
  return origin && origin !== 'null' ? origin : '<this app’s origin>';
}
