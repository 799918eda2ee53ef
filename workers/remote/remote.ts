// Sessions that live on ADK API servers (Settings → ADK servers), opened in the same workbench as
// local ones. The server holds the session; this keeps only the list of servers and of the remote
// sessions the user opened (app settings), and draws a remote session from an in-memory copy of
// what the server serves, read again after every change, so that History, the event log and the
// chat are built by exactly the code that builds them for local sessions
// (workers/remote/copies.ts).

import { InvalidRequestError, SessionNotFoundError } from '../../src/core/errors.ts';
import type { Part } from '../../src/core/content.ts';
import type { Event } from '../../src/core/event.ts';
import { ownValue } from '../../src/core/state.ts';
import { InMemorySessionService } from '../../src/store/in-memory-session-service.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type { LogPage, Session } from '../../src/store/session-service.ts';
import { withArtifactBytes } from '../../src/store/session-export.ts';
import { AdkClient, type AdkSession, type AdkSpan } from '../../src/remote/client.ts';
import { AdkServers, remoteAgentId, remoteIdParts, remoteSessionId } from './adk-servers.ts';
import { RemoteRuns } from './runs.ts';
import { rewindIntoNewSession, servedCopy, servedOpening, toMs } from './copies.ts';
import { APP_NAME, USER_ID } from '../sessions/sessions.ts';
import { distinctTitle } from '../sessions/session-files.ts';
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
} from '../protocol.ts';

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

export class AppRemote {
  /** The in-memory copy each open remote session was last drawn from. */
  private readonly copies = new Map<string, InMemorySessionService>();

  private readonly adk: AdkServers;
  private readonly runs: RemoteRuns;

  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly broadcast: (message: RuntimeBroadcast) => void,
    private readonly importLocal: (json: string) => Promise<SessionSummary>,
  ) {
    this.adk = new AdkServers(store, broadcast);
    this.runs = new RemoteRuns(
      (id) => this.resolve(id),
      async (id) => {
        await this.touch(id);
        this.broadcast({ type: 'session-changed', sessionId: id });
      },
    );
  }

  // ── servers (workers/remote/adk-servers.ts)
  // ─────────────────────────────────────────────────────

  servers(): Promise<AdkServerInfo[]> {
    return this.adk.list();
  }

  addServer(url: string, userId?: string): Promise<AdkServerInfo> {
    return this.adk.add(url, userId);
  }

  refreshServer(serverId: string): Promise<AdkServerInfo> {
    return this.adk.refresh(serverId);
  }

  /** Forgets a server and its sessions in the list (the sessions stay on the server). */
  async removeServer(serverId: string): Promise<void> {
    await this.adk.remove(serverId);
    await this.putTracked((await this.tracked()).filter((s) => s.serverId !== serverId));
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

  agents(): Promise<AgentInfo[]> {
    return this.adk.agents();
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
    const [serverId, appName] = remoteIdParts(agentId);
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
    const opening = await servedOpening(copy, id, limits);
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

  /** One value of the server's session state, whole (an opening sends long ones as previews). */
  async stateValue(id: string, key: string): Promise<unknown> {
    const { tracked, client } = await this.resolve(id);
    return ownValue((await client.getSession(tracked.appName, tracked.sessionId)).state, key);
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

  // ── running (workers/remote/runs.ts) ─────────────────────────────────────────────────────

  send(id: string, text: string, onEvent: (event: Event) => void): Promise<void> {
    return this.runs.send(id, text, onEvent);
  }

  respond(
    id: string,
    callId: string,
    name: string,
    response: Record<string, unknown>,
    onEvent: (event: Event) => void,
  ): Promise<void> {
    return this.runs.respond(id, callId, name, response, onEvent);
  }

  stop(id: string): void {
    this.runs.stop(id);
  }

  resume(id: string, invocationId: string, onEvent: (event: Event) => void): Promise<void> {
    return this.runs.resume(id, invocationId, onEvent);
  }

  interruptedRuns(titles: ReadonlyMap<string, string>): InterruptedRun[] {
    return this.runs.interruptedRuns(titles);
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
    const { createdId, note } = await rewindIntoNewSession(
      client,
      tracked.appName,
      tracked.sessionId,
      tracked.title,
      invocationId,
    );
    const summary = await this.track(
      server,
      tracked.appName,
      createdId,
      `${tracked.title} (rewound)`,
      {
        sessionId: id,
        title: tracked.title,
        note,
      },
    );
    return { how: 'new-session', sessionId: summary.id, note };
  }

  /**
   * Imports a remote session into this browser: then it works offline (rewind, branches, edit,
   * fork, export). It keeps its title and its agent, the server's app: a message sent in the copy
   * is refused with a word on choosing a local agent, rather than answered by another agent.
   */
  async copyToBrowser(id: string): Promise<SessionSummary> {
    const { tracked, server, client } = await this.resolve(id);
    const served = await client.getSession(tracked.appName, tracked.sessionId);
    // The artifacts' bytes come along from the server's artifact routes, as in a session file
    // (a served session names its versions, but carries none of their bytes).
    const withBytes = await withArtifactBytes(served as unknown as Session, {
      loadArtifact: async ({ filename, version }) =>
        (await client.loadArtifact(tracked.appName, tracked.sessionId, filename, version)) as
          Part | undefined,
    });
    const copied = await this.importLocal(JSON.stringify(withBytes));
    // A served session's file has neither its title here nor its agent.
    const metas = await this.store.listSessionMeta(APP_NAME, USER_ID);
    const meta = metas.find((m) => m.sessionId === copied.id)!;
    const taken = new Set(metas.filter((m) => m !== meta).map((m) => m.title));
    const kept = {
      ...meta,
      title: distinctTitle(tracked.title, taken),
      agentId: remoteAgentId(server.id, tracked.appName),
    };
    await this.store.putSessionMeta(kept);
    this.broadcast({ type: 'sessions-changed' });
    return { ...copied, title: kept.title, agentId: kept.agentId };
  }

  // ── bookkeeping ──────────────────────────────────────────────────────────────────────────

  private async copyOf(id: string, served: AdkSession): Promise<InMemorySessionService> {
    const copy = await servedCopy(id, served);
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

  private server(serverId: string): Promise<AdkServerInfo> {
    return this.adk.get(serverId);
  }

  private client(server: AdkServerInfo): AdkClient {
    return this.adk.client(server);
  }

  private async tracked(): Promise<TrackedSession[]> {
    return (await this.store.getSetting<TrackedSession[]>(TRACKED)) ?? [];
  }

  private putTracked(sessions: TrackedSession[]): Promise<void> {
    return this.store.putSetting(TRACKED, sessions);
  }
}
