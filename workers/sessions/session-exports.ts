// Share and export: what the page needs to render a session as a standalone HTML page or as
// Markdown (src/ui/export/ renders them: the Markdown parser and the chat's reading of events
// are the page's, and a worker has no DOM to check them in), and a range of turns as a session
// file. What must stay true:
// - nothing leaves but the session's own log and artifacts, its title and agent id: no
//   settings, no provider record, no key (keys never enter events);
// - a range's JSON is a session file that imports as a session of its own (see `range`);
// - a session on an ADK server is refused with a clear error, as every export is.

import { activeEvents } from '../../src/core/active-events.ts';
import { branchTree } from '../../src/core/branch-tree.ts';
import { clip } from '../../src/core/value-preview.ts';
import { turnsInRange, type TurnRange } from '../../src/core/turn-range.ts';
import { DEFAULT_AGENT_ID } from '../../src/demos/index.ts';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  MAX_SESSION_TITLE,
  SessionNotFoundError,
  toSessionFile,
  withArtifactBytes,
  type Session,
} from '../../src/index.ts';
import { IndexedDbAppStore } from '../../src/store/app-store.ts';
import { localOnly } from '../remote/adk-servers.ts';
import type { ExportSource, ExportTurnChoice } from './export-protocol.ts';
import { APP_NAME, DEFAULT_TITLE, USER_ID, newMeta, titleSlug } from './sessions.ts';

export interface SessionExportDeps {
  sessions: IndexedDbSessionService;
  artifacts: IndexedDbArtifactService;
  store: IndexedDbAppStore;
}

/** Characters of a turn's message the range picker shows. */
const CHOICE_CHARS = 80;

export class AppExports {
  constructor(private readonly deps: SessionExportDeps) {}

  /** The room on the app's database (`runtime.ts` makes it beside AppRuntime, as organise.ts). */
  static open(options: { dbName?: string } = {}): AppExports {
    const dbName = options.dbName ? { dbName: options.dbName } : {};
    return new AppExports({
      sessions: new IndexedDbSessionService(dbName),
      artifacts: new IndexedDbArtifactService(dbName),
      store: new IndexedDbAppStore(dbName),
    });
  }

  /** The session, whole, with its artifacts' bytes, for the page's HTML and Markdown. */
  async source(sessionId: string): Promise<ExportSource> {
    localOnly(sessionId, 'Export');
    const [meta, session] = await Promise.all([this.meta(sessionId), this.session(sessionId)]);
    const { events } = await withArtifactBytes(session, this.deps.artifacts);
    return {
      sessionId,
      title: meta.title,
      agentId: meta.agentId,
      createdAt: meta.createdAt,
      lastUpdateTime: session.lastUpdateTime,
      fileStem: titleSlug(meta.title),
      events,
    };
  }

  /** The turns of the active conversation, oldest first: what a range is chosen from. */
  async turns(sessionId: string): Promise<ExportTurnChoice[]> {
    localOnly(sessionId, 'Export');
    const tree = branchTree((await this.session(sessionId)).events);
    return tree.activePath.map((invocationId) => ({
      invocationId,
      text: clip(tree.byId.get(invocationId)!.text.replace(/\s+/g, ' ').trim(), CHOICE_CHARS),
    }));
  }

  /**
   * Turns `range.from` to `range.to` of the active conversation as a session file: their active
   * events (no markers, no rewound branch: the conversation as it reads), with the bytes of the
   * artifact versions they saved, titled "<title> (turns 2–4)". Its `state` is the session's
   * state before the first of them, so that an import starts from it: the keys those turns do
   * not set become the imported session's initial state (core/session-file-state.ts); a value
   * they change is theirs. An artifact saved before the range is not in it.
   */
  async range(sessionId: string, range: TurnRange): Promise<{ filename: string; json: string }> {
    localOnly(sessionId, 'Export');
    const [meta, whole] = await Promise.all([this.meta(sessionId), this.session(sessionId)]);
    const { turns, place } = turnsInRange(branchTree(whole.events), range);
    const chosen = new Set(turns.flatMap((turn) => turn.events.map((event) => event.id)));
    const active = activeEvents(whole.events).filter((event) => chosen.has(event.id));
    const checkpoint = await this.deps.sessions.getInvocationCheckpoint({
      ...this.key(sessionId),
      invocationId: range.from,
    });
    const part: Session = {
      ...whole,
      state: { ...(checkpoint?.state ?? {}) },
      events: active,
      lastUpdateTime: active.at(-1)?.timestamp ?? whole.lastUpdateTime,
    };
    const turnsSaid =
      place.first === place.last ? `turn ${place.first}` : `turns ${place.first}–${place.last}`;
    const suffix = ` (${turnsSaid})`;
    const title = `${meta.title.slice(0, MAX_SESSION_TITLE - suffix.length).trimEnd()}${suffix}`;
    return {
      filename: `${titleSlug(meta.title)}-${turnsSaid.replace(/\W+/g, '-')}.trellis.json`,
      json: toSessionFile(await withArtifactBytes(part, this.deps.artifacts), {
        title,
        agentId: meta.agentId,
      }),
    };
  }

  /** The session's title and agent; one the library made directly has the app's defaults. */
  private async meta(sessionId: string) {
    const meta = await this.deps.store.getSessionMeta(APP_NAME, USER_ID, sessionId);
    return meta ?? newMeta(sessionId, DEFAULT_TITLE, DEFAULT_AGENT_ID);
  }

  private async session(sessionId: string): Promise<Session> {
    const session = await this.deps.sessions.getSession(this.key(sessionId));
    if (!session) throw new SessionNotFoundError(sessionId);
    return session;
  }

  private key(sessionId: string) {
    return { appName: APP_NAME, userId: USER_ID, sessionId };
  }
}
