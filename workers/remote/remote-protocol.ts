// What crosses the worker boundary about ADK servers and the sessions on them
// (workers/remote/remote.ts): plain data only. `protocol.ts` re-exports it, as the page may import
// nothing else of the worker's.

import type { WorkflowGraph } from '../../src/workflow/graph-view.ts';

/** Where a remote session lives, and where it came from. */
export interface RemoteSessionInfo {
  serverId: string;
  /** The server's base URL. */
  url: string;
  appName: string;
  /** The session's id on the server. */
  sessionId: string;
  /** The session this one was made from by "Rewind into a new session", and what that kept. */
  rewoundFrom?: { sessionId: string; title: string; note: string };
}

/** An ADK API server the user added (Settings → ADK servers). */
export interface AdkServerInfo {
  id: string;
  /** Base URL (http://localhost:8000), and the user its sessions are under (adk-web's: `user`). */
  url: string;
  userId: string;
  /** Its apps, as /list-apps last said, and the graphs of those that are Workflows. */
  apps: string[];
  graphs?: Record<string, WorkflowGraph>;
}

/** A session on an ADK server, as the server lists it. */
export interface RemoteSessionListing {
  /** The id the app knows it by (`adk:…`). */
  id: string;
  appName: string;
  sessionId: string;
  lastUpdateTime: number;
  /** In the app's session list already. */
  listed: boolean;
}

/** What a rewind of a remote session did. */
export interface RemoteRewind {
  /** `server`: the server's own rewind route; `new-session`: a new session up to that turn. */
  how: 'server' | 'new-session';
  /** The session to show now (the new one, for `new-session`). */
  sessionId: string;
  /** What the user should be told, plainly. */
  note: string;
}
