// Session files: a session exported as JSON (ADK's Session JSON, which ADK also reads, with the
// bytes of its artifacts in its events' customMetadata), and a file imported as a new session
// with its artifacts. A bad file changes nothing, and says what is wrong and where.

import { DEFAULT_AGENT_ID } from '../../src/demos/index.ts';
import {
  InvalidSessionFileError,
  MAX_SESSION_TITLE,
  SessionNotFoundError,
  isTrellisError,
  parseSessionFile,
  toSessionFile,
  withArtifactBytes,
  type IndexedDbArtifactService,
  type IndexedDbSessionService,
} from '../../src/index.ts';
import type { IndexedDbAppStore, SessionMeta } from '../../src/store/app-store.ts';
import type { AppAgents } from '../agents/agents.ts';
import { APP_NAME, USER_ID, newMeta, sessionFileName, summaryOf } from './sessions.ts';
import type { SessionSummary } from '../protocol.ts';
import { looksLikeEvalSet, parseEvalSetFile, toEvalSet } from '../../src/core/eval-set.ts';
import type { ParsedSessionFile } from '../../src/core/session-file.ts';

export interface SessionFileDeps {
  sessions: IndexedDbSessionService;
  artifacts: IndexedDbArtifactService;
  store: IndexedDbAppStore;
  agents: AppAgents;
}

export async function exportSessionFile(
  { sessions, artifacts }: SessionFileDeps,
  meta: SessionMeta,
): Promise<{ filename: string; json: string }> {
  const { sessionId } = meta;
  const session = await sessions.getSession({ appName: APP_NAME, userId: USER_ID, sessionId });
  if (!session) throw new SessionNotFoundError(sessionId);
  return {
    filename: sessionFileName(meta.title),
    json: toSessionFile(await withArtifactBytes(session, artifacts), {
      title: meta.title,
      agentId: meta.agentId,
    }),
  };
}

/**
 * Imports a session file (Trellis's or ADK's JSON) as a new session, with its artifacts, agent and
 * a title of its own (the file's, or "… (imported)" when a session here has that title already).
 * The file is checked whole first; the session and its artifacts are written at once, then its
 * title (the session is removed again if that fails).
 */
export async function importSessionFile(
  deps: SessionFileDeps,
  json: string,
): Promise<SessionSummary> {
  if (!looksLikeEvalSet(json)) return importParsed(deps, parseSessionFile(json));
  // An ADK eval set: each case a session of its own, all or none.
  const cases = parseEvalSetFile(json);
  const imported: SessionSummary[] = [];
  try {
    for (const evalCase of cases) imported.push(await importParsed(deps, evalCase));
  } catch (error) {
    for (const summary of imported) await forget(deps, summary.id);
    throw error;
  }
  return imported[0]!;
}

/** A session's active conversation as an ADK eval set of one case (`*.evalset.json`). */
export async function exportEvalSetFile(
  { sessions }: SessionFileDeps,
  meta: SessionMeta,
): Promise<{ filename: string; json: string }> {
  const { sessionId } = meta;
  const session = await sessions.getSession({ appName: APP_NAME, userId: USER_ID, sessionId });
  if (!session) throw new SessionNotFoundError(sessionId);
  return {
    filename: sessionFileName(meta.title).replace(/\.trellis\.json$/, '.evalset.json'),
    json: toEvalSet(session, meta.title),
  };
}

async function importParsed(
  { sessions, artifacts, store, agents }: SessionFileDeps,
  parsed: ParsedSessionFile,
): Promise<SessionSummary> {
  const agentId =
    parsed.agentId && (await agents.knows(parsed.agentId)) ? parsed.agentId : DEFAULT_AGENT_ID;
  const taken = new Set((await store.listSessionMeta(APP_NAME, USER_ID)).map((meta) => meta.title));
  const title = distinctTitle(parsed.title ?? `Imported ${parsed.sourceId ?? 'session'}`, taken);
  const session = await sessions
    .importSession({
      appName: APP_NAME,
      userId: USER_ID,
      events: parsed.events,
      artifactService: artifacts,
    })
    .catch((error: unknown) => {
      throw ownError(error);
    });
  const meta = newMeta(session.id, title, agentId);
  try {
    await store.putSessionMeta(meta);
  } catch (error) {
    // Without its title the import is half done: take it back, so that a failure changes nothing.
    await forget({ sessions, artifacts, store, agents }, session.id);
    throw error;
  }
  return summaryOf(session, meta);
}

/** Takes an imported (or restored) session back: its log, spans, artifacts and title. */
export async function forget(
  { sessions, artifacts, store }: SessionFileDeps,
  sessionId: string,
): Promise<void> {
  const key = { appName: APP_NAME, userId: USER_ID, sessionId };
  await sessions.deleteSession(key).catch(() => undefined);
  for (const filename of await artifacts.listArtifactKeys(key).catch(() => []))
    await artifacts.deleteArtifact({ ...key, filename }).catch(() => undefined);
  await store.deleteSessionMeta(APP_NAME, USER_ID, sessionId).catch(() => undefined);
}

/**
 * `title`, or when a session here has it, `title (imported)`, `title (imported 2)`… whichever is
 * free first, shortened to fit MAX_SESSION_TITLE.
 */
export function distinctTitle(title: string, taken: ReadonlySet<string>): string {
  const fit = (suffix: string) =>
    title.length + suffix.length <= MAX_SESSION_TITLE
      ? `${title}${suffix}`
      : `${title.slice(0, MAX_SESSION_TITLE - suffix.length - 1).trimEnd()}…${suffix}`;
  let candidate = fit('');
  for (let n = 1; taken.has(candidate); n++)
    candidate = fit(n === 1 ? ' (imported)' : ` (imported ${n})`);
  return candidate;
}

/**
 * Any error of an import that is not one of ours (the browser's storage refusing something the
 * checks let through, say) becomes one that says the file could not be imported: never a raw
 * browser message. A full disk or an aborted write keeps its own name and message.
 */
function ownError(error: unknown): unknown {
  if (isTrellisError(error)) return error;
  return new InvalidSessionFileError([
    `it could not be stored (${(error as Error | null)?.message ?? String(error)})`,
  ]);
}
