// Session files: a session exported as JSON (Trellis's format, which ADK's also reads), and a
// file imported as a new session. A bad file changes nothing.

import { DEFAULT_AGENT_ID } from '../src/demos/index.ts';
import {
  SessionNotFoundError,
  parseSessionFile,
  toSessionFile,
  type IndexedDbSessionService,
} from '../src/index.ts';
import type { IndexedDbAppStore, SessionMeta } from '../src/store/app-store.ts';
import type { AppAgents } from './app-agents.ts';
import { APP_NAME, USER_ID, newMeta, sessionFileName, summaryOf } from './app-sessions.ts';
import type { SessionSummary } from './protocol.ts';

export interface SessionFileDeps {
  sessions: IndexedDbSessionService;
  store: IndexedDbAppStore;
  agents: AppAgents;
}

export async function exportSessionFile(
  { sessions }: SessionFileDeps,
  meta: SessionMeta,
): Promise<{ filename: string; json: string }> {
  const { sessionId } = meta;
  const session = await sessions.getSession({ appName: APP_NAME, userId: USER_ID, sessionId });
  if (!session) throw new SessionNotFoundError(sessionId);
  return {
    filename: sessionFileName(meta.title),
    json: toSessionFile(session, { title: meta.title, agentId: meta.agentId }),
  };
}

/** Imports a session file (Trellis's or ADK's JSON) as a new session, with its title and agent. */
export async function importSessionFile(
  { sessions, store, agents }: SessionFileDeps,
  json: string,
): Promise<SessionSummary> {
  const parsed = parseSessionFile(json);
  const agentId =
    parsed.agentId && (await agents.knows(parsed.agentId)) ? parsed.agentId : DEFAULT_AGENT_ID;
  const session = await sessions.importSession({
    appName: APP_NAME,
    userId: USER_ID,
    events: parsed.events,
  });
  const meta = newMeta(
    session.id,
    parsed.title ?? `Imported ${parsed.sourceId ?? 'session'}`,
    agentId,
  );
  await store.putSessionMeta(meta);
  return summaryOf(session, meta);
}
