// The app's sessions as the page sees them: titles and agents beside the library's sessions.

import { DEFAULT_AGENT_ID, DEMO_AGENTS, type AgentChoice } from '../src/demos/index.ts';
import { InvalidRequestError, type Content, type Session } from '../src/index.ts';
import type { SessionMeta } from '../src/store/app-store.ts';
import type { SessionSummary } from './protocol.ts';

/** DO NOT CHANGE: the app's sessions are stored under these; other values would hide them all. */
export const APP_NAME = 'trellis';
export const USER_ID = 'local';

export const DEFAULT_TITLE = 'New session';

export function agentChoice(agentId: string): AgentChoice {
  const choice = DEMO_AGENTS.find((agent) => agent.id === agentId);
  if (!choice) throw new InvalidRequestError(`There is no agent ${agentId}`);
  return choice;
}

export function newMeta(sessionId: string, title: string, agentId: string): SessionMeta {
  return { appName: APP_NAME, userId: USER_ID, sessionId, title, agentId, createdAt: Date.now() };
}

export function summaryOf(session: Session, meta: SessionMeta | undefined): SessionSummary {
  return {
    id: session.id,
    title: meta?.title ?? DEFAULT_TITLE,
    agentId: meta?.agentId ?? DEFAULT_AGENT_ID,
    createdAt: meta?.createdAt ?? session.lastUpdateTime,
    lastUpdateTime: session.lastUpdateTime,
  };
}

export function userText(text: string): Content {
  const clean = text.trim();
  if (!clean) throw new InvalidRequestError('Type a message first');
  return { role: 'user', parts: [{ text: clean }] };
}

/** The file name of a session's export, from its title (at most 60 characters of it). */
export function sessionFileName(title: string): string {
  const slug =
    title
      .slice(0, 60)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'session';
  return `${slug}.trellis.json`;
}
