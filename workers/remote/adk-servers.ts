// Settings → ADK servers: the servers the user added (app setting `adkServers`), each checked by
// its /list-apps before it is kept, and the ids by which the app knows their apps and sessions.

import { InvalidRequestError } from '../../src/core/errors.ts';
import type { AttachmentPolicy } from '../../src/models/attachments.ts';
import { AdkClient } from '../../src/remote/client.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type { WorkflowGraph } from '../../src/workflow/graph-view.ts';
import type { AdkServerInfo, AgentInfo, RuntimeBroadcast } from '../protocol.ts';

const SERVERS = 'adkServers';

/** Files are not sent to ADK servers yet: the composer refuses them before sending. */
const NO_ATTACHMENTS: AttachmentPolicy = {
  kinds: [],
  maxFileBytes: 0,
  maxTotalBytes: 0,
  takenBy: 'an ADK server (from Trellis, for now)',
};

const enc = encodeURIComponent;

/** The app's id of a session on a server: `adk:<server>:<app>:<session>`. */
export function remoteSessionId(serverId: string, appName: string, sessionId: string): string {
  return `adk:${enc(serverId)}:${enc(appName)}:${enc(sessionId)}`;
}

/** The agent id of a server's app: `adk:<server>:<app>`. */
export function remoteAgentId(serverId: string, appName: string): string {
  return `adk:${enc(serverId)}:${enc(appName)}`;
}

/** Whether an id (of a session or an agent) names something on an ADK server. */
export function isRemoteId(id: string): boolean {
  return id.startsWith('adk:');
}

/** Refuses what works only on sessions in this browser, for a session on an ADK server. */
export function localOnly(sessionId: string, what: string): void {
  if (isRemoteId(sessionId))
    throw new InvalidRequestError(
      `${what} works on sessions in this browser: use "Copy to this browser" on this ADK session first`,
    );
}

/** The parts of a remote id: server, app (and session). */
export function remoteIdParts(id: string): string[] {
  return id.slice('adk:'.length).split(':').map(decodeURIComponent);
}

export class AdkServers {
  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly broadcast: (message: RuntimeBroadcast) => void,
  ) {}

  async list(): Promise<AdkServerInfo[]> {
    return (await this.store.getSetting<AdkServerInfo[]>(SERVERS)) ?? [];
  }

  async get(serverId: string): Promise<AdkServerInfo> {
    const server = (await this.list()).find((candidate) => candidate.id === serverId);
    if (!server)
      throw new InvalidRequestError('That ADK server is not added (Settings → ADK servers)');
    return server;
  }

  client(server: AdkServerInfo): AdkClient {
    return new AdkClient(server.url, server.userId);
  }

  /** Adds a server once it answers /list-apps as an ADK API server does. */
  async add(url: string, userId = 'user'): Promise<AdkServerInfo> {
    const user = userId.trim() || 'user';
    const client = new AdkClient(url, user);
    const servers = await this.list();
    if (servers.some((server) => server.url === client.baseUrl && server.userId === user))
      throw new InvalidRequestError(`${client.baseUrl} is already added for user ${user}`);
    const apps = await client.listApps();
    const server: AdkServerInfo = {
      id: crypto.randomUUID().slice(0, 8),
      url: client.baseUrl,
      userId: user,
      apps,
      ...(await graphsOf(client, apps)),
    };
    await this.store.putSetting(SERVERS, [...servers, server]);
    this.broadcast({ type: 'agents-changed' });
    return server;
  }

  /** Reads a server's apps again (its agents may have changed). */
  async refresh(serverId: string): Promise<AdkServerInfo> {
    const { graphs: _old, ...server } = await this.get(serverId);
    const client = this.client(server);
    const apps = await client.listApps();
    const fresh: AdkServerInfo = { ...server, apps, ...(await graphsOf(client, apps)) };
    const servers = await this.list();
    await this.store.putSetting(
      SERVERS,
      servers.map((s) => (s.id === serverId ? fresh : s)),
    );
    this.broadcast({ type: 'agents-changed' });
    return fresh;
  }

  async remove(serverId: string): Promise<void> {
    await this.store.putSetting(
      SERVERS,
      (await this.list()).filter((s) => s.id !== serverId),
    );
    this.broadcast({ type: 'agents-changed' });
  }

  /** Each server's apps, as agents a session can talk to. */
  async agents(): Promise<AgentInfo[]> {
    return (await this.list()).flatMap((server) =>
      server.apps.map((appName) => ({
        id: remoteAgentId(server.id, appName),
        name: `${appName} (ADK)`,
        description: `The ${appName} agent of the ADK server at ${server.url}`,
        kind: 'remote' as const,
        attachments: NO_ATTACHMENTS,
        ...(server.graphs && Object.hasOwn(server.graphs, appName)
          ? { workflow: server.graphs[appName]! }
          : {}),
      })),
    );
  }
}

/** The most apps whose graphs are read when a server is added or refreshed. */
const MAX_GRAPHS = 100;

/** The graphs of the apps that are workflows (read side by side), if any. */
async function graphsOf(
  client: AdkClient,
  apps: readonly string[],
): Promise<{ graphs?: Record<string, WorkflowGraph> }> {
  const read = await Promise.all(
    apps.slice(0, MAX_GRAPHS).map(async (app) => [app, await client.appGraph(app)] as const),
  );
  // fromEntries: an app named `__proto__` is a key like any other.
  const graphs = Object.fromEntries(read.filter((entry) => entry[1] !== undefined)) as Record<
    string,
    WorkflowGraph
  >;
  return Object.keys(graphs).length > 0 ? { graphs } : {};
}
