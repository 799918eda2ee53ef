// Settings → ADK servers, the view model: the servers added, the form to add one (checked by the
// server's /list-apps first), and each app's sessions on the server, to open in the workbench.
//
// Invariants: - only the answer to the latest listing of an app is kept (an older one arriving late
// is dropped);
// - a failed add adds nothing and says why (unreachable, CORS, not an ADK server).

import type { AdkServerInfo, RemoteSessionListing } from '../../../workers/protocol.ts';
import { ViewState } from '../workbench/view-state.ts';
import type { RuntimeClient } from '../workbench/workbench.ts';

export interface AdkServersState {
  servers: AdkServerInfo[];
  url: string;
  userId: string;
  adding: boolean;
  /** The sessions of the app open in the list: `${serverId} ${appName}` → its sessions. */
  open:
    { serverId: string; appName: string; sessions: RemoteSessionListing[] | undefined } | undefined;
  status: string | undefined;
  error: string | undefined;
}

const INITIAL: AdkServersState = {
  servers: [],
  url: 'http://localhost:8000',
  userId: 'user',
  adding: false,
  open: undefined,
  status: undefined,
  error: undefined,
};

export class AdkServersModel extends ViewState<AdkServersState> {
  private listing = 0;

  constructor(private readonly client: Pick<RuntimeClient, 'runtime'>) {
    super(INITIAL);
  }

  async start(): Promise<void> {
    await this.guard(async () => this.set({ servers: await this.client.runtime.adkServers() }));
  }

  edit(patch: Partial<Pick<AdkServersState, 'url' | 'userId'>>): void {
    this.set({ ...patch, error: undefined });
  }

  async add(): Promise<void> {
    this.set({ adding: true, error: undefined, status: undefined });
    await this.guard(async () => {
      const server = await this.client.runtime.addAdkServer(this.state.url, this.state.userId);
      this.set({
        servers: await this.client.runtime.adkServers(),
        status: `Added ${server.url}: ${plural(server.apps.length, 'app')} (${server.apps.join(', ') || 'none'}).`,
      });
    });
    this.set({ adding: false });
  }

  async remove(serverId: string): Promise<void> {
    await this.guard(async () => {
      await this.client.runtime.removeAdkServer(serverId);
      this.set({
        servers: await this.client.runtime.adkServers(),
        open: this.state.open?.serverId === serverId ? undefined : this.state.open,
        status: 'Removed. Its sessions stay on the server.',
      });
    });
  }

  async refresh(serverId: string): Promise<void> {
    await this.guard(async () => {
      const server = await this.client.runtime.refreshAdkServer(serverId);
      this.set({
        servers: await this.client.runtime.adkServers(),
        status: `${server.url} serves ${server.apps.join(', ') || 'no apps'}.`,
      });
    });
  }

  /** Lists an app's sessions on its server (or closes the list when it is open). */
  async showSessions(serverId: string, appName: string): Promise<void> {
    const open = this.state.open;
    if (open?.serverId === serverId && open.appName === appName) {
      this.set({ open: undefined });
      return;
    }
    const ticket = ++this.listing;
    this.set({ open: { serverId, appName, sessions: undefined }, error: undefined });
    await this.guard(async () => {
      const sessions = await this.client.runtime.adkSessions(serverId, appName);
      if (ticket === this.listing) this.set({ open: { serverId, appName, sessions } });
    });
  }

  /** Adds a server's session to the session list; the caller opens the id it gives. */
  async openSession(
    serverId: string,
    appName: string,
    sessionId: string,
  ): Promise<string | undefined> {
    return this.guard(async () => {
      const summary = await this.client.runtime.openAdkSession(serverId, appName, sessionId);
      return summary.id;
    });
  }

  private async guard<T>(work: () => Promise<T>): Promise<T | undefined> {
    try {
      return await work();
    } catch (error) {
      this.set({ error: (error as Error).message, status: undefined });
      return undefined;
    }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
