// Sessions that live on ADK API servers (Settings → ADK servers), opened in the same workbench as
// local ones. The server holds the session; this keeps only the list of servers and of the remote
// sessions the user opened (app settings), and draws a remote session from an in-memory copy of
// what the server serves, read again after every change, so that History, the event log and the
// chat are built by exactly the code that builds them for local sessions.

import { parseSessionFile } from '../src/core/session-file.ts';
import { REQUEST_CONFIRMATION_FUNCTION } from '../src/agents/confirmation.ts';
import { activeEvents } from '../src/core/active-events.ts';
import { turnText } from '../src/core/branch-tree.ts';
import type { Content } from '../src/core/content.ts';
import { InvalidRequestError, SessionNotFoundError } from '../src/core/errors.ts';
import type { Event } from '../src/core/event.ts';
import { newEventId } from '../src/core/ids.ts';
import { InMemoryArtifactService } from '../src/store/in-memory-artifact-service.ts';
import { InMemorySessionService } from '../src/store/in-memory-session-service.ts';
import type { IndexedDbAppStore } from '../src/store/app-store.ts';
import type { LogPage } from '../src/store/session-service.ts';
import { AdkClient, type AdkSession, type AdkSpan } from '../src/remote/client.ts';
import { PartialStream } from '../src/remote/events.ts';
import type { AttachmentPolicy } from '../src/models/attachments.ts';
import { AppOpenings } from './app-openings.ts';
import { APP_NAME, USER_ID, userText } from './app-sessions.ts';
import type {
  AdkServerInfo,
  AgentInfo,
  InterruptedRun,
  OpeningLimits,
  RemoteRewind,
  RemoteSessionListing,
  RuntimeBroadcast,
  SessionOpening,
  SessionSummary,
} from './protocol.ts';

const SERVERS = 'adkServers';
/** Files are not sent to ADK servers yet: the composer refuses them before sending. */
const NO_ATTACHMENTS: AttachmentPolicy = {
  kinds: [],
  maxFileBytes: 0,
  maxTotalBytes: 0,
  takenBy: 'an ADK server (from Trellis, for now)',
};
const TRACKED = 'adkRemoteSessions';

/** A remote session in the app's session list. */
interface TrackedSession {
  id: string;
  serverId: string;
  appName: string;
  sessionId: string;
  title: string;
  createdAt: number;
  lastUpdateTime: number;
  rewoundFrom?: { sessionId: string; title: string; note: string };
}

/** A run the stream of which broke: offered for resume. */
interface CutOffRun {
  invocationId: string;
  message: Content;
  text: string;
  startedAt: number;
  error: { name: string; message: string };
}

const enc = encodeURIComponent;

/** The app's id of a session on a server: `adk:<server>:<app>:<session>`. */
export function remoteSessionId(serverId: string, appName: string, sessionId: string): string {
  return `adk:${enc(serverId)}:${enc(appName)}:${enc(sessionId)}`;
}

/** The agent id of a server's app: `adk:<server>:<app>`. */
export function remoteAgentId(serverId: string, appName: string): string {
  return `adk:${enc(serverId)}:${enc(appName)}`;
}

export function isRemoteId(id: string): boolean {
  return id.startsWith('adk:');
}

function parts(id: string): string[] {
  return id.slice('adk:'.length).split(':').map(decodeURIComponent);
}

export class AppRemote {
  private readonly controllers = new Map<string, AbortController>();
  private readonly cutOff = new Map<string, CutOffRun>();
  /** The in-memory copy each open remote session was last drawn from. */
  private readonly copies = new Map<string, InMemorySessionService>();

  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly broadcast: (message: RuntimeBroadcast) => void,
    private readonly importLocal: (json: string) => Promise<SessionSummary>,
  ) {}

  // ── servers ──────────────────────────────────────────────────────────────────────────────

  async servers(): Promise<AdkServerInfo[]> {
    return (await this.store.getSetting<AdkServerInfo[]>(SERVERS)) ?? [];
  }

  /** Adds a server once it answers /list-apps as an ADK API server does. */
  async addServer(url: string, userId = 'user'): Promise<AdkServerInfo> {
    const user = userId.trim() || 'user';
    const client = new AdkClient(url, user);
    const servers = await this.servers();
    if (servers.some((server) => server.url === client.baseUrl && server.userId === user))
      throw new InvalidRequestError(`${client.baseUrl} is already added for user ${user}`);
    const apps = await client.listApps();
    const server: AdkServerInfo = {
      id: crypto.randomUUID().slice(0, 8),
      url: client.baseUrl,
      userId: user,
      apps,
    };
    await this.store.putSetting(SERVERS, [...servers, server]);
    this.broadcast({ type: 'agents-changed' });
    return server;
  }

  /** Reads a server's apps again (its agents may have changed). */
  async refreshServer(serverId: string): Promise<AdkServerInfo> {
    const servers = await this.servers();
    const server = servers.find((candidate) => candidate.id === serverId);
    if (!server) throw new InvalidRequestError('That ADK server is not added');
    const fresh = { ...server, apps: await this.client(server).listApps() };
    await this.store.putSetting(
      SERVERS,
      servers.map((s) => (s.id === serverId ? fresh : s)),
    );
    this.broadcast({ type: 'agents-changed' });
    return fresh;
  }

  /** Forgets a server and its sessions in the list (the sessions stay on the server). */
  async removeServer(serverId: string): Promise<void> {
    await this.store.putSetting(
      SERVERS,
      (await this.servers()).filter((s) => s.id !== serverId),
    );
    await this.putTracked((await this.tracked()).filter((s) => s.serverId !== serverId));
    this.broadcast({ type: 'agents-changed' });
    this.broadcast({ type: 'sessions-changed' });
  }

  /** The user's sessions of an app on a server, newest first. */
  async remoteSessions(serverId: string, appName: string): Promise<RemoteSessionListing[]> {
    const server = await this.server(serverId);
    const listed = new Set((await this.tracked()).map((s) => s.id));
    const sessions = await this.client(server).listSessions(appName);
    return sessions
      .map((session) => {
        const id = remoteSessionId(serverId, appName, session.id);
        return {
          id,
          appName,
          sessionId: session.id,
          lastUpdateTime: toMs(session.lastUpdateTime),
          listed: listed.has(id),
        };
      })
      .sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
  }

  /** Each server's apps, as agents a session can talk to. */
  async agents(): Promise<AgentInfo[]> {
    return (await this.servers()).flatMap((server) =>
      server.apps.map((appName) => ({
        id: remoteAgentId(server.id, appName),
        name: `${appName} (ADK)`,
        description: `The ${appName} agent of the ADK server at ${server.url}`,
        kind: 'remote' as const,
        attachments: NO_ATTACHMENTS,
      })),
    );
  }

  // ── the session list ─────────────────────────────────────────────────────────────────────

  async listSessions(): Promise<SessionSummary[]> {
    const servers = new Map((await this.servers()).map((server) => [server.id, server]));
    return (await this.tracked()).flatMap((tracked) => {
      const server = servers.get(tracked.serverId);
      return server ? [this.summary(tracked, server)] : [];
    });
  }

  /** A new session of a server's app (`agentId` as agents() names it), added to the list. */
  async createSession(agentId: string): Promise<SessionSummary> {
    const [serverId, appName] = parts(agentId);
    const server = await this.server(serverId!);
    const created = await this.client(server).createSession(appName!);
    return this.track(server, appName!, created.id, `${appName} · new session`);
  }

  /** Adds a session the server lists to the app's session list (it opens like a local one). */
  async openRemoteSession(
    serverId: string,
    appName: string,
    sessionId: string,
  ): Promise<SessionSummary> {
    const server = await this.server(serverId);
    const id = remoteSessionId(serverId, appName, sessionId);
    const known = (await this.tracked()).find((s) => s.id === id);
    if (known) return this.summary(known, server);
    await this.client(server).getSession(appName, sessionId);
    return this.track(server, appName, sessionId, `${appName} · ${sessionId.slice(0, 8)}`);
  }

  async rename(id: string, title: string): Promise<void> {
    const clean = title.trim();
    if (!clean) throw new InvalidRequestError('A session needs a title');
    await this.putTracked(
      (await this.tracked()).map((s) => (s.id === id ? { ...s, title: clean } : s)),
    );
    this.broadcast({ type: 'sessions-changed' });
  }

  /** Takes a remote session off the list; it stays on its server. */
  async forget(id: string): Promise<void> {
    await this.putTracked((await this.tracked()).filter((s) => s.id !== id));
    this.copies.delete(id);
    this.broadcast({ type: 'sessions-changed' });
  }

  // ── opening ──────────────────────────────────────────────────────────────────────────────

  /** What the page needs to draw a remote session: the server's session, read now. */
  async opening(id: string, limits?: OpeningLimits): Promise<SessionOpening> {
    const { tracked, server, client } = await this.resolve(id);
    const served = await client.getSession(tracked.appName, tracked.sessionId);
    const copy = await this.copyOf(id, served);
    const meta = {
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: id,
      title: tracked.title,
      agentId: remoteAgentId(server.id, tracked.appName),
      createdAt: tracked.createdAt,
    };
    const openings = new AppOpenings(copy, new InMemoryArtifactService(), {
      getSessionMeta: async () => meta,
    });
    const opening = await openings.opening(id, limits);
    const names = await client.listArtifacts(tracked.appName, tracked.sessionId).catch(() => []);
    const artifacts = await Promise.all(
      names.map(async (filename) => ({
        filename,
        versions: await client
          .listArtifactVersions(tracked.appName, tracked.sessionId, filename)
          .catch(() => [0]),
        scope: filename.startsWith('user:') ? ('user' as const) : ('session' as const),
      })),
    );
    return { ...opening, summary: this.summary(tracked, server), artifacts };
  }

  /** A page of the session's log, as last read from the server. */
  async logPage(id: string, fromSeq: number, limit: number): Promise<LogPage> {
    let copy = this.copies.get(id);
    if (!copy) {
      const { tracked, client } = await this.resolve(id);
      copy = await this.copyOf(id, await client.getSession(tracked.appName, tracked.sessionId));
    }
    const page = await copy.listEvents({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: id,
      fromSeq,
      limit,
    });
    if (!page) throw new SessionNotFoundError(id);
    return page;
  }

  async loadArtifact(id: string, filename: string, version?: number) {
    const { tracked, client } = await this.resolve(id);
    return client.loadArtifact(tracked.appName, tracked.sessionId, filename, version);
  }

  /** The spans the server recorded for the session ([] when it keeps none). */
  async trace(id: string): Promise<AdkSpan[]> {
    const { tracked, client } = await this.resolve(id);
    return client.sessionTrace(tracked.sessionId);
  }

  // ── running ──────────────────────────────────────────────────────────────────────────────

  async send(id: string, text: string, onEvent: (event: Event) => void): Promise<void> {
    const message = userText(text);
    await this.run(id, message, text, onEvent);
  }

  /** Answers the server's `adk_request_confirmation` call, as adk-web does. */
  async answer(
    id: string,
    requestId: string,
    confirmed: boolean,
    payload: unknown,
    onEvent: (event: Event) => void,
  ): Promise<void> {
    const response = { confirmed, ...(payload === undefined || payload === '' ? {} : { payload }) };
    const message: Content = {
      role: 'user',
      parts: [
        { functionResponse: { id: requestId, name: REQUEST_CONFIRMATION_FUNCTION, response } },
      ],
    };
    await this.run(id, message, '', onEvent);
  }

  stop(id: string): void {
    this.controllers.get(id)?.abort();
  }

  /**
   * Resumes a run whose stream broke. An ADK server keeps what it stored before the break; the
   * run itself can't be picked up where it was (ADK's API resumes only long-running calls), so
   * when the server has no answer to the cut-off message, the message is sent again.
   */
  async resume(id: string, invocationId: string, onEvent: (event: Event) => void): Promise<void> {
    const cut = this.cutOff.get(id);
    if (!cut || cut.invocationId !== invocationId)
      throw new InvalidRequestError('There is nothing to resume in this session');
    const { tracked, client } = await this.resolve(id);
    const served = await client.getSession(tracked.appName, tracked.sessionId);
    const answered = served.events.some(
      (event) =>
        event.invocationId === invocationId &&
        event.author !== 'user' &&
        !event.partial &&
        hasText(event),
    );
    if (answered) {
      this.cutOff.delete(id);
      this.broadcast({ type: 'session-changed', sessionId: id });
      return;
    }
    await this.run(id, cut.message, cut.text, onEvent);
  }

  /** Runs cut off by a broken stream (this worker's; another tab's are its own). */
  interruptedRuns(titles: ReadonlyMap<string, string>): InterruptedRun[] {
    return [...this.cutOff].map(([id, cut]) => ({
      appName: APP_NAME,
      userId: USER_ID,
      sessionId: id,
      invocationId: cut.invocationId,
      agentName: '',
      status: 'interrupted' as const,
      startedAt: cut.startedAt,
      updatedAt: cut.startedAt,
      error: cut.error,
      sessionTitle: titles.get(id) ?? 'ADK session',
      turnText: cut.text,
      cause: 'failed' as const,
    }));
  }

  private async run(
    id: string,
    message: Content,
    text: string,
    onEvent: (event: Event) => void,
  ): Promise<void> {
    const { tracked, client } = await this.resolve(id);
    if (this.controllers.has(id)) throw new InvalidRequestError('This session is running already');
    const controller = new AbortController();
    this.controllers.set(id, controller);
    const stream = new PartialStream();
    const startedAt = Date.now();
    let invocationId = '';
    try {
      for await (const raw of client.runSse(
        { appName: tracked.appName, sessionId: tracked.sessionId, newMessage: message as never },
        controller.signal,
      )) {
        const event = stream.next(raw);
        if (!invocationId) {
          invocationId = event.invocationId;
          // The server stores the message but does not stream it back: the page is told here.
          onEvent({
            id: newEventId(),
            invocationId,
            author: 'user',
            timestamp: startedAt,
            content: message,
            actions: { stateDelta: {}, artifactDelta: {} },
          });
        }
        onEvent(event);
      }
      this.cutOff.delete(id);
    } catch (error) {
      if (!controller.signal.aborted && (error as Error).name !== 'AbortError') {
        const { name, message: said } = error as Error;
        this.cutOff.set(id, {
          invocationId: invocationId || `cut-${startedAt}`,
          message,
          text,
          startedAt,
          error: { name, message: said },
        });
      }
      throw error;
    } finally {
      this.controllers.delete(id);
      await this.touch(id);
      this.broadcast({ type: 'session-changed', sessionId: id });
    }
  }

  // ── rewinding and copying ────────────────────────────────────────────────────────────────

  /**
   * Rewinds to before a turn: with the server's rewind route when it has one; otherwise into a
   * new session on the server holding the active events before that turn and the state they
   * leave, linked to this one in History.
   */
  async rewind(id: string, invocationId: string): Promise<RemoteRewind> {
    const { tracked, server, client } = await this.resolve(id);
    if (await client.rewind(tracked.appName, tracked.sessionId, invocationId)) {
      this.broadcast({ type: 'session-changed', sessionId: id });
      return { how: 'server', sessionId: id, note: 'Rewound on the ADK server.' };
    }
    const served = await client.getSession(tracked.appName, tracked.sessionId);
    const active = activeEvents(parseSessionFile(JSON.stringify(served)).events);
    const at = active.findIndex((event) => event.invocationId === invocationId);
    if (at < 0) throw new InvalidRequestError('That turn is not in the conversation any more');
    const kept = active.slice(0, at);
    const copy = new InMemorySessionService();
    const before = await copy.importSession({ appName: APP_NAME, userId: USER_ID, events: kept });
    const turn = served.events.find((e) => e.invocationId === invocationId && e.author === 'user');
    const rewoundTurn = turn ? turnText(fromServed(turn)) : '';
    const created = await client.createSession(tracked.appName, {
      state: sessionState(before.state),
      events: kept.map((event) => ({ ...event, timestamp: event.timestamp / 1000 })),
    });
    const keptEvents = (created.events ?? []).length;
    const note =
      kept.length === 0
        ? `This ADK server has no rewind: a new session was made on it, as the conversation stood before “${rewoundTurn}”.`
        : keptEvents >= kept.length
          ? `This ADK server has no rewind: a new session was made on it with the ${kept.length} events before “${rewoundTurn}” and their state.`
          : `This ADK server has no rewind, and it kept only the state of the new session made in its place (it does not take events when a session is created): the conversation before “${rewoundTurn}” is not in it, but “${tracked.title}” still has it.`;
    const summary = await this.track(
      server,
      tracked.appName,
      created.id,
      `${tracked.title} (rewound)`,
      {
        sessionId: id,
        title: tracked.title,
        note,
      },
    );
    return { how: 'new-session', sessionId: summary.id, note };
  }

  /** Imports a remote session into this browser: then it works offline, with a local agent. */
  async copyToBrowser(id: string): Promise<SessionSummary> {
    const { tracked, client } = await this.resolve(id);
    const served = await client.getSession(tracked.appName, tracked.sessionId);
    return this.importLocal(JSON.stringify(served));
  }

  // ── bookkeeping ──────────────────────────────────────────────────────────────────────────

  private async copyOf(id: string, served: AdkSession): Promise<InMemorySessionService> {
    const copy = new InMemorySessionService();
    const { events } = parseSessionFile(JSON.stringify(served));
    await copy.importSession({ appName: APP_NAME, userId: USER_ID, sessionId: id, events });
    this.copies.set(id, copy);
    return copy;
  }

  private async track(
    server: AdkServerInfo,
    appName: string,
    sessionId: string,
    title: string,
    rewoundFrom?: TrackedSession['rewoundFrom'],
  ): Promise<SessionSummary> {
    const now = Date.now();
    const tracked: TrackedSession = {
      id: remoteSessionId(server.id, appName, sessionId),
      serverId: server.id,
      appName,
      sessionId,
      title,
      createdAt: now,
      lastUpdateTime: now,
      ...(rewoundFrom ? { rewoundFrom } : {}),
    };
    await this.putTracked([...(await this.tracked()).filter((s) => s.id !== tracked.id), tracked]);
    this.broadcast({ type: 'sessions-changed' });
    return this.summary(tracked, server);
  }

  private async touch(id: string): Promise<void> {
    const now = Date.now();
    await this.putTracked(
      (await this.tracked()).map((s) => (s.id === id ? { ...s, lastUpdateTime: now } : s)),
    ).catch(() => undefined); // the list's order only: the run's outcome stands without it
  }

  private summary(tracked: TrackedSession, server: AdkServerInfo): SessionSummary {
    return {
      id: tracked.id,
      title: tracked.title,
      agentId: remoteAgentId(server.id, tracked.appName),
      createdAt: tracked.createdAt,
      lastUpdateTime: tracked.lastUpdateTime,
      remote: {
        serverId: server.id,
        url: server.url,
        appName: tracked.appName,
        sessionId: tracked.sessionId,
        ...(tracked.rewoundFrom ? { rewoundFrom: tracked.rewoundFrom } : {}),
      },
    };
  }

  private async resolve(id: string) {
    const tracked = (await this.tracked()).find((s) => s.id === id);
    if (!tracked) throw new SessionNotFoundError(id);
    const server = await this.server(tracked.serverId);
    return { tracked, server, client: this.client(server) };
  }

  private async server(serverId: string): Promise<AdkServerInfo> {
    const server = (await this.servers()).find((candidate) => candidate.id === serverId);
    if (!server)
      throw new InvalidRequestError('That ADK server is not added (Settings → ADK servers)');
    return server;
  }

  private client(server: AdkServerInfo): AdkClient {
    return new AdkClient(server.url, server.userId);
  }

  private async tracked(): Promise<TrackedSession[]> {
    return (await this.store.getSetting<TrackedSession[]>(TRACKED)) ?? [];
  }

  private putTracked(sessions: TrackedSession[]): Promise<void> {
    return this.store.putSetting(TRACKED, sessions);
  }
}

/** A served event's text parts, as Trellis reads a turn. */
function fromServed(event: Record<string, unknown>): Event {
  return { ...(event as unknown as Event), actions: { stateDelta: {}, artifactDelta: {} } };
}

function hasText(event: Record<string, unknown>): boolean {
  const content = event.content as Content | undefined;
  return !!content?.parts.some((part) => part.text);
}

/** The session's own keys: `app:` and `user:` state is the server's to keep. */
function sessionState(state: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(state).filter(
      ([key]) => !key.startsWith('app:') && !key.startsWith('user:') && !key.startsWith('temp:'),
    ),
  );
}

function toMs(time: number): number {
  return time < 1e11 ? Math.round(time * 1000) : time;
}
