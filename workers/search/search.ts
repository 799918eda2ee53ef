// Search across sessions, as the worker does it (Ctrl+K): titles, every turn's text on every
// branch (rewound ones marked), session state, artifact names. What must stay true:
// - what is stored is the truth: each session's doc (search-docs.ts) in the `searchIndex` store
//   (src/store/search-store.ts) is read from the session, under a revision naming that state of
//   it; the index in memory (search-index.ts) and its saved snapshot are copies, which catch up
//   with the docs whose revision they do not hold: only this room's own when the manifest token
//   is the one it wrote last, every doc's revision compared when another tab wrote since;
// - it follows what the runtime broadcasts (`notice`): a changed session is read on from where
//   its doc stopped, a changed list (create, rename, delete, import, restore, fork) is compared
//   with the docs' revisions; a search first finishes what is pending, so it sees every stored
//   turn;
// - missing or unreadable (another version, damaged), the docs are read again from the sessions
//   and the index built again: search never fails for want of its index;
// - a bad query is a clear error and changes nothing; an empty one finds nothing.

import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  InvalidRequestError,
} from '../../src/index.ts';
import { IndexedDbAppStore } from '../../src/store/app-store.ts';
import {
  IndexedDbSearchStore,
  SEARCH_STORE_VERSION,
  revStamp,
  type SearchDocRecord,
  type SearchDocWrite,
} from '../../src/store/search-store.ts';
import { isRemoteId } from '../remote/adk-servers.ts';
import { APP_NAME, DEFAULT_TITLE, USER_ID } from '../sessions/sessions.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import { docOf, type DocRead, type DocSources } from './search-docs.ts';
import { BUCKETS, SessionIndex, type IndexSource } from './search-index.ts';
import { MAX_SEARCH_QUERY, MAX_SEARCH_SESSIONS, type SearchResults } from './search-protocol.ts';
import { hitsOf } from './snippets.ts';

export interface SearchDeps extends DocSources {
  store: IndexedDbAppStore;
  docs: IndexedDbSearchStore;
  /** Quiet after a change before it is indexed, in ms (a run stores events in bursts). */
  delayMs?: number;
  /** Quiet after the index changed before its snapshot is saved, in ms. */
  saveAfterMs?: number;
}

/** Sessions read into their docs at a time. */
const BATCH = 20;
/** Docs kept in memory for the next update of their session. */
const RECENT_DOCS = 16;

export class AppSearch {
  private index: SessionIndex | undefined;
  /** Work on the index and docs, one piece at a time, in order. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly changed = new Set<string>();
  /** Sessions whose run is going on (their events are indexed when it ends). */
  private readonly running = new Set<string>();
  private listChanged = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The docs this room wrote last, and the titles it read: an append reads neither again. */
  private readonly recent = new Map<string, SearchDocRecord>();
  private readonly titles = new Map<string, string>();
  /** The manifest token the index in memory is in step with (but for `unsynced`). */
  private indexToken: string | undefined;
  /** Sessions whose docs this room wrote since the index was last in step. */
  private readonly unsynced = new Set<string>();

  /** What the index loads its parts from. */
  private readonly source: IndexSource;

  constructor(private readonly deps: SearchDeps) {
    const { docs } = deps;
    this.source = {
      snapshot: (bucket) => docs.snapshot(bucket, BUCKETS),
      docs: (ids) => docs.docs(ids),
      allDocs: () => docs.allDocs(),
    };
  }

  /** The room on a database of its own services (the worker's: runtime.ts). */
  static on(dbName?: string): AppSearch {
    const name = dbName === undefined ? {} : { dbName };
    return new AppSearch({
      sessions: new IndexedDbSessionService(name),
      artifacts: new IndexedDbArtifactService(name),
      store: new IndexedDbAppStore(name),
      docs: new IndexedDbSearchStore(APP_NAME, USER_ID, name),
    });
  }

  /**
   * What the runtime broadcast: the sessions it names are indexed after a short quiet; one that
   * is running, once its run ends (one pass a turn, not one an event: a search still sees it).
   */
  notice(message: RuntimeBroadcast): void {
    if (message.type === 'busy-changed') {
      if (message.busy) this.running.add(message.sessionId);
      else this.running.delete(message.sessionId);
      if (message.busy || !this.changed.has(message.sessionId)) return;
    } else if (message.type === 'session-changed' && !isRemoteId(message.sessionId)) {
      this.changed.add(message.sessionId);
      if (this.running.has(message.sessionId)) return;
    } else if (message.type === 'sessions-changed') this.listChanged = true;
    else return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush().catch(warn), this.deps.delayMs ?? 30);
  }

  /** Indexes what was noticed, now; resolves when done (a search does it first). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    const ids = [...this.changed];
    const list = this.listChanged;
    this.changed.clear();
    this.listChanged = false;
    return this.enqueue(async () => {
      if (list) await this.reconcile();
      if (ids.length > 0) await this.update(ids);
    });
  }

  /** The sessions holding every word of `query`, the best first, each with where. */
  async search(query: unknown, limit: unknown = 20): Promise<SearchResults> {
    if (typeof query !== 'string') throw new InvalidRequestError('A search is words to find');
    if (query.length > MAX_SEARCH_QUERY)
      throw new InvalidRequestError(`A search is at most ${MAX_SEARCH_QUERY} characters`);
    if (
      typeof limit !== 'number' ||
      !Number.isSafeInteger(limit) ||
      limit < 1 ||
      limit > MAX_SEARCH_SESSIONS
    )
      throw new InvalidRequestError(
        `limit must be a whole number from 1 to ${MAX_SEARCH_SESSIONS}`,
      );
    if (query.trim() === '') return { words: [], sessions: [] };
    await this.flush();
    return this.enqueue(async () => {
      const index = await this.current();
      const words = index.words(query);
      const matches = await index.search(words, limit);
      if (index.dirty) this.saveLater();
      const docs = new Map(
        (await this.deps.docs.docs(matches.map((match) => match.sessionId))).map((doc) => [
          doc.sessionId,
          doc,
        ]),
      );
      const sessions = matches.flatMap((match) => {
        const doc = docs.get(match.sessionId);
        return doc ? [hitsOf(doc, match.terms)] : [];
      });
      return { words, sessions };
    });
  }

  /** Saves the index's changed parts now (else they are saved after a quiet). */
  save(): Promise<void> {
    clearTimeout(this.saveTimer);
    return this.enqueue(async () => {
      if (!this.index) return;
      const parts = this.index.changedParts();
      await this.deps.docs.saveSnapshots(parts, BUCKETS);
      this.index.saved(parts);
    });
  }

  private enqueue<T>(work: () => Promise<T>): Promise<T> {
    const done = this.queue.then(work);
    this.queue = done.catch(() => undefined);
    return done;
  }

  /** The index, as of the stored docs: loaded (or built) once, then caught up with them. */
  private async current(): Promise<SessionIndex> {
    let token = await this.deps.docs.token();
    if (token === undefined) {
      // Never built, or unreadable: every session is read into its doc again.
      await this.deps.docs.startToken();
      await this.reconcile();
      token = await this.deps.docs.token();
      this.index = undefined;
    }
    if (!this.index) {
      // Opened at the docs' revisions: its parts load, and catch up, as searches need them.
      const { token: now, revs } = await this.deps.docs.revs();
      this.index = await SessionIndex.open(revs, this.source);
      this.indexToken = now;
      this.unsynced.clear();
      // Sessions this index never heard of (made before it, or while no tab searched).
      void this.enqueue(() => this.reconcile()).catch(warn);
    }
    const index = this.index;
    if (token !== undefined && token === this.indexToken) {
      // No other tab wrote since the index was last in step: only this room's own docs changed.
      const ids = [...this.unsynced];
      this.unsynced.clear();
      const docs = await this.deps.docs.docs(ids);
      const found = new Set(docs.map((doc) => doc.sessionId));
      for (const id of ids) if (!found.has(id)) index.remove(id);
      for (const doc of docs) index.put(doc);
      if (ids.length > 0) this.saveLater();
      return index;
    }
    const { token: now, revs } = await this.deps.docs.revs();
    if (index.follow(revs)) {
      this.unsynced.clear();
      this.indexToken = now;
      return index;
    }
    const behind = [...revs].filter(([id, rev]) => index.revs.get(id) !== rev).map(([id]) => id);
    for (const id of [...index.revs.keys()]) if (!revs.has(id)) index.remove(id);
    for (const doc of await this.deps.docs.docs(behind)) index.put(doc);
    if (behind.length > 0) this.saveLater();
    this.unsynced.clear();
    this.indexToken = now;
    return index;
  }

  /** Compares the sessions with the manifest: new and changed ones are read, gone ones dropped. */
  private async reconcile(): Promise<void> {
    const user = { appName: APP_NAME, userId: USER_ID };
    const [{ sessions }, metas, { revs }] = await Promise.all([
      this.deps.sessions.listSessions(user),
      this.deps.store.listSessionMeta(APP_NAME, USER_ID),
      this.deps.docs.revs(),
    ]);
    const titles = new Map(metas.map((meta) => [meta.sessionId, meta.title]));
    this.titles.clear();
    for (const [id, title] of titles) this.titles.set(id, title);
    const live = new Set(sessions.map((session) => session.id));
    const stale = sessions.flatMap((session) => {
      const stamp = revStamp(revs?.get(session.id) ?? '');
      const title = titles.get(session.id) ?? DEFAULT_TITLE;
      const same = stamp?.lastUpdateTime === session.lastUpdateTime && stamp.title === title;
      return same ? [] : [session.id];
    });
    const gone = [...(revs?.keys() ?? [])].filter((id) => !live.has(id));
    await this.update(stale, gone);
  }

  /** Reads these sessions into their docs (on from where they stopped) and drops `gone`. */
  private async update(ids: readonly string[], gone: readonly string[] = []): Promise<void> {
    for (let i = 0; i < ids.length || (i === 0 && gone.length > 0); i += BATCH) {
      const batch = ids.slice(i, i + BATCH);
      const unknown = batch.filter((id) => !this.recent.has(id));
      const held = new Map(this.recent);
      for (const doc of unknown.length > 0 ? await this.deps.docs.docs(unknown) : [])
        held.set(doc.sessionId, doc);
      const read = await Promise.all(batch.map((id) => this.read(id, held.get(id))));
      const writes = read.flatMap((found, j): SearchDocWrite[] => {
        if (!found) return [];
        const before = held.get(batch[j]!);
        return [{ ...found, ...changedTurns(found, before), replace: found.whole || !before }];
      });
      const removed = [...(i === 0 ? gone : []), ...batch.filter((_, j) => !read[j])];
      // The index in memory catches up at the next search (current()): a turn's append pays
      // for its doc and that turn only, not for the session's text indexed again.
      const { before, after } = await this.deps.docs.write(writes, removed);
      for (const id of [...writes.map(({ doc }) => doc.sessionId), ...removed])
        this.unsynced.add(id);
      // The index stays in step with the token only while this room is the one writing.
      if (this.indexToken !== undefined && before === this.indexToken) this.indexToken = after;
      for (const id of removed) this.recent.delete(id);
      for (const { doc } of writes)
        this.remember({ ...doc, kind: 'doc', version: SEARCH_STORE_VERSION });
    }
  }

  private async read(sessionId: string, held: SearchDocRecord | undefined) {
    let title = this.titles.get(sessionId);
    if (title === undefined) {
      const meta = await this.deps.store.getSessionMeta(APP_NAME, USER_ID, sessionId);
      title = meta?.title ?? DEFAULT_TITLE;
    }
    return docOf(this.deps, sessionId, title, held);
  }

  /**
   * Keeps a doc just written for the session's next update. One another tab wrote since is
   * newer: reading on from this one gives the same doc, and the store keeps the newer one.
   */
  private remember(doc: SearchDocRecord): void {
    this.recent.delete(doc.sessionId);
    this.recent.set(doc.sessionId, doc);
    if (this.recent.size > RECENT_DOCS) this.recent.delete(this.recent.keys().next().value!);
  }

  private saveLater(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = setTimeout(() => void this.save().catch(warn), this.deps.saveAfterMs ?? 2000);
  }
}

/** The turns of a doc read that are not as they were in `before` (all when read whole). */
function changedTurns(read: DocRead, before: SearchDocRecord | undefined) {
  if (read.whole || !before) return { turns: read.doc.turns };
  const held = new Map(before.turns.map((turn) => [turn.invocationId, turn]));
  const turns = read.doc.turns.filter((turn) => {
    const was = held.get(turn.invocationId);
    return !was || was.text !== turn.text || was.active !== turn.active;
  });
  return { turns };
}

function warn(error: unknown): void {
  console.warn('Trellis: the search index could not be brought up to date', error);
}
