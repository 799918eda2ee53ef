// The app's sessions as the page sees them: titles and agents beside the library's sessions.

import { DEFAULT_AGENT_ID, DEMO_AGENTS, type AgentChoice } from '../../src/demos/index.ts';
import { InvalidRequestError, bytesToBase64, type Content, type Session } from '../../src/index.ts';
import { attachmentProblems, type AttachmentPolicy } from '../../src/models/attachments.ts';
import type { SessionMeta } from '../../src/store/app-store.ts';
import type { OutgoingAttachment, SessionSummary } from '../protocol.ts';

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
    ...organisationOf(meta),
  };
}

/** What a session's record says of how the user organised it: only what is set. */
export function organisationOf(
  meta: Pick<SessionMeta, 'pinned' | 'archived' | 'folder'> | undefined,
): Pick<SessionSummary, 'pinned' | 'archived' | 'folder'> {
  return {
    ...(meta?.pinned ? { pinned: true } : {}),
    ...(meta?.archived ? { archived: true } : {}),
    ...(meta?.folder ? { folder: meta.folder } : {}),
  };
}

export function userText(text: string): Content {
  const clean = text.trim();
  if (!clean) throw new InvalidRequestError('Type a message first');
  return { role: 'user', parts: [{ text: clean }] };
}

/**
 * The user's message: its text, then each attached file as an `inlineData` part (ADK's Content)
 * named by its file name. Files are checked against the agent's policy here too, so that a page
 * that skipped the check sends nothing.
 */
export function userMessage(
  text: string,
  attachments: readonly OutgoingAttachment[],
  policy: AttachmentPolicy,
): Content {
  if (attachments.length === 0) return userText(text);
  const problems = attachmentProblems(
    attachments.map(({ name, mimeType, bytes }) => ({ name, mimeType, size: bytes.byteLength })),
    policy,
  );
  if (problems.length > 0) throw new InvalidRequestError(problems.join(' '));
  const clean = text.trim();
  return {
    role: 'user',
    parts: [
      ...(clean ? [{ text: clean }] : []),
      ...attachments.map(({ name, mimeType, bytes }) => ({
        inlineData: { mimeType, data: bytesToBase64(bytes), displayName: attachmentName(name) },
      })),
    ],
  };
}

/** A file name that is safe as an artifact name and readable: no path, no control characters. */
export function attachmentName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 120);
  return clean && !clean.startsWith('user:') ? clean : `attachment${clean ? `-${clean}` : ''}`;
}

/** The file name of a session's export, from its title (at most 60 characters of it). */
export function sessionFileName(title: string): string {
  return `${titleSlug(title)}.trellis.json`;
}

/**
 * A title as the start of a file name, safe on every file system: its letters and digits (any
 * script's), lower-cased, the rest as single hyphens, at most 60 characters; `session` if none.
 */
export function titleSlug(title: string): string {
  return (
    title
      .normalize('NFC')
      .slice(0, 60)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-|-$/g, '') || 'session'
  );
}
