// The HTTP routes of an ADK API server (`adk api_server` / `adk web`, Python or TypeScript), as
// its own web UI calls them. Server JSON is returned as the server wrote it (see remote/events.ts
// for what Trellis makes of it); every failure is an AdkServerUnreachableError or AdkServerError.

import { SseParser } from '../models/sse.ts';
import type { WorkflowGraph } from '../workflow/graph-view.ts';
import { appGraphOf } from './app-graph.ts';
import { AdkServerError, AdkServerUnreachableError } from './errors.ts';

/** A session as the server serves it (camelCase; timestamps in ms from ADK TypeScript, s from Python). */
export interface AdkSession {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: AdkEvent[];
  lastUpdateTime: number;
}

export type AdkEvent = Record<string, unknown> & {
  id?: string;
  invocationId?: string;
  author?: string;
  timestamp?: number;
  partial?: boolean;
};

export interface RunSseRequest {
  appName: string;
  sessionId: string;
  newMessage?: { role: 'user'; parts: Record<string, unknown>[] };
  /** Resuming a long-running call (ADK's RunAgentRequest). */
  functionCallEventId?: string;
  invocationId?: string;
  stateDelta?: Record<string, unknown>;
}

export interface AdkSpan {
  name: string;
  span_id?: string;
  trace_id?: string;
  parent_span_id?: string | null;
  start_time: number;
  end_time: number;
  attributes?: Record<string, unknown>;
}

export class AdkClient {
  readonly baseUrl: string;

  constructor(
    baseUrl: string,
    readonly userId: string,
  ) {
    this.baseUrl = normalizeBaseUrl(baseUrl);
  }

  /** The apps (agents) the server serves. */
  async listApps(): Promise<string[]> {
    const apps = await this.json('GET', '/list-apps');
    if (!Array.isArray(apps) || !apps.every((app) => typeof app === 'string'))
      throw new AdkServerError(
        `${this.baseUrl} answered /list-apps, but not with a list of apps: is it an ADK API server?`,
      );
    return apps;
  }

  /**
   * The graph of an app that is an ADK 2.0 Workflow, as the server describes it (ADK's
   * `/dev/apps/{app}/build_graph`); undefined for another agent, a server that does not describe
   * its apps, or an answer that is no graph. Never fails: the graph is only for drawing.
   */
  async appGraph(appName: string): Promise<WorkflowGraph | undefined> {
    try {
      return appGraphOf(await this.json('GET', `/dev/apps/${enc(appName)}/build_graph`));
    } catch {
      return undefined;
    }
  }

  /** The user's sessions of an app, without their events. */
  async listSessions(appName: string): Promise<AdkSession[]> {
    const answer = await this.json('GET', this.sessionsPath(appName));
    // ADK Python answers a list; ADK TypeScript a page: { sessions, page, limit, … }.
    const sessions = Array.isArray(answer) ? answer : (answer as { sessions?: unknown })?.sessions;
    if (!Array.isArray(sessions))
      throw new AdkServerError(`${this.baseUrl} did not list the sessions of ${appName}`);
    return sessions as AdkSession[];
  }

  getSession(appName: string, sessionId: string): Promise<AdkSession> {
    return this.json(
      'GET',
      `${this.sessionsPath(appName)}/${enc(sessionId)}`,
    ) as Promise<AdkSession>;
  }

  /** A new session; `events` are taken by ADK Python's server and ignored by ADK TypeScript's. */
  createSession(
    appName: string,
    init: { state?: Record<string, unknown>; events?: unknown[] } = {},
  ): Promise<AdkSession> {
    return this.json('POST', this.sessionsPath(appName), init) as Promise<AdkSession>;
  }

  async deleteSession(appName: string, sessionId: string): Promise<void> {
    await this.json('DELETE', `${this.sessionsPath(appName)}/${enc(sessionId)}`);
  }

  /**
   * The server's rewind (`POST …/rewind`, proposed for ADK Python): false when it has no such
   * route (404 or 405), so the caller can do without.
   */
  async rewind(
    appName: string,
    sessionId: string,
    rewindBeforeInvocationId: string,
  ): Promise<boolean> {
    try {
      await this.json('POST', `${this.sessionsPath(appName)}/${enc(sessionId)}/rewind`, {
        rewind_before_invocation_id: rewindBeforeInvocationId,
      });
      return true;
    } catch (error) {
      if (error instanceof AdkServerError && (error.status === 404 || error.status === 405))
        return false;
      throw error;
    }
  }

  async listArtifacts(appName: string, sessionId: string): Promise<string[]> {
    const names = await this.json(
      'GET',
      `${this.sessionsPath(appName)}/${enc(sessionId)}/artifacts`,
    );
    return Array.isArray(names) ? (names as string[]) : [];
  }

  async listArtifactVersions(
    appName: string,
    sessionId: string,
    filename: string,
  ): Promise<number[]> {
    const versions = await this.json(
      'GET',
      `${this.sessionsPath(appName)}/${enc(sessionId)}/artifacts/${enc(filename)}/versions`,
    );
    return Array.isArray(versions) ? (versions as number[]) : [];
  }

  /** An artifact version as a Part (`text` or `inlineData`); the latest without `version`. */
  async loadArtifact(
    appName: string,
    sessionId: string,
    filename: string,
    version?: number,
  ): Promise<Record<string, unknown> | undefined> {
    const path = `${this.sessionsPath(appName)}/${enc(sessionId)}/artifacts/${enc(filename)}`;
    try {
      const part = await this.json(
        'GET',
        version === undefined ? path : `${path}/versions/${version}`,
      );
      return part && typeof part === 'object' ? (part as Record<string, unknown>) : undefined;
    } catch (error) {
      if (error instanceof AdkServerError && error.status === 404) return undefined;
      throw error;
    }
  }

  /** The spans the server recorded for a session (its debug trace), or [] when it has none. */
  async sessionTrace(sessionId: string): Promise<AdkSpan[]> {
    try {
      const spans = await this.json('GET', `/debug/trace/session/${enc(sessionId)}`);
      return Array.isArray(spans) ? (spans as AdkSpan[]) : [];
    } catch (error) {
      if (error instanceof AdkServerError && error.status === 404) return [];
      throw error;
    }
  }

  /**
   * Runs the agent with streaming (`POST /run_sse`, `streaming: true`): yields each event as the
   * server sends it, partial ones included. An `{error}` event, or a stream cut before its end,
   * throws.
   */
  async *runSse(request: RunSseRequest, signal?: AbortSignal): AsyncGenerator<AdkEvent> {
    const response = await this.fetch(
      'POST',
      '/run_sse',
      { ...request, userId: this.userId, streaming: true },
      signal,
    );
    if (!response.body) throw new AdkServerError(`${this.baseUrl}/run_sse sent no stream`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    const parser = new SseParser();
    const decode = function* (events: { data: string }[]) {
      for (const { data } of events) {
        let event: unknown;
        try {
          event = JSON.parse(data);
        } catch {
          throw new AdkServerError(
            `The ADK server sent an event that is not JSON: ${data.slice(0, 200)}`,
          );
        }
        if (event && typeof event === 'object' && 'error' in event && !('invocationId' in event))
          throw new AdkServerError(
            `The ADK server failed the run: ${String((event as { error: unknown }).error)}`,
          );
        yield event as AdkEvent;
      }
    };
    try {
      for (;;) {
        let chunk: ReadableStreamReadResult<string>;
        try {
          chunk = await reader.read();
        } catch (error) {
          if (signal?.aborted) throw error;
          throw new AdkServerUnreachableError(this.baseUrl, { cause: error });
        }
        if (chunk.done) break;
        yield* decode(parser.push(chunk.value));
      }
      yield* decode(parser.end());
    } finally {
      reader.releaseLock();
    }
  }

  private sessionsPath(appName: string): string {
    return `/apps/${enc(appName)}/users/${enc(this.userId)}/sessions`;
  }

  private async json(method: string, path: string, body?: unknown): Promise<unknown> {
    const response = await this.fetch(method, path, body);
    const text = await response.text();
    if (text === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      throw new AdkServerError(
        `${this.baseUrl}${path} did not answer JSON: is ${this.baseUrl} an ADK API server?`,
        response.status,
      );
    }
  }

  private async fetch(
    method: string,
    path: string,
    body?: unknown,
    signal?: AbortSignal,
  ): Promise<Response> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        ...(body !== undefined
          ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
          : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new AdkServerUnreachableError(this.baseUrl, { cause: error });
    }
    if (!response.ok) {
      const text = await response.text().catch(() => '');
      let said = text.slice(0, 500);
      try {
        const parsed = JSON.parse(text) as { error?: unknown; detail?: unknown };
        said = String(parsed.error ?? parsed.detail ?? said);
      } catch {
        // not JSON: the text as it is
      }
      throw new AdkServerError(
        `The ADK server answered ${response.status} to ${method} ${path}${said ? `: ${said}` : ''}`,
        response.status,
      );
    }
    return response;
  }
}

/** `localhost:8000/` → `http://localhost:8000`; refuses what is not an http(s) URL. */
export function normalizeBaseUrl(input: string): string {
  let text = input.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `http://${text}`;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new AdkServerError(`"${input}" is not a web address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AdkServerError(`An ADK server is reached over http or https, not ${url.protocol}`);
  if (url.username || url.password)
    throw new AdkServerError('Leave names and passwords out of the address');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

const enc = encodeURIComponent;
