// What the app keeps beside the library's data, in the same database: each session's title and
// agent, and the user's settings.

import {
  DatabaseRef,
  Stores,
  type IndexedDbServiceOptions,
  type SessionMetaRecord,
} from './database.ts';
import { writeTransaction } from './transaction.ts';

export type SessionMeta = SessionMetaRecord;

export class IndexedDbAppStore {
  private readonly database: DatabaseRef;

  constructor(options: IndexedDbServiceOptions = {}) {
    this.database = DatabaseRef.acquire(options.dbName);
  }

  async getSessionMeta(
    appName: string,
    userId: string,
    sessionId: string,
  ): Promise<SessionMeta | undefined> {
    return (await this.database.open()).get(Stores.sessionMeta, [appName, userId, sessionId]);
  }

  async listSessionMeta(appName: string, userId: string): Promise<SessionMeta[]> {
    return (await this.database.open()).getAllFromIndex(Stores.sessionMeta, 'byUser', [
      appName,
      userId,
    ]);
  }

  async putSessionMeta(meta: SessionMeta): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.sessionMeta], (tx) =>
      tx.objectStore(Stores.sessionMeta).put(meta),
    );
  }

  async deleteSessionMeta(appName: string, userId: string, sessionId: string): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.sessionMeta], (tx) =>
      tx.objectStore(Stores.sessionMeta).delete([appName, userId, sessionId]),
    );
  }

  async getSetting<T>(name: string): Promise<T | undefined> {
    return (await (await this.database.open()).get(Stores.settings, name))?.value as T | undefined;
  }

  async putSetting(name: string, value: unknown): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.settings], (tx) =>
      tx.objectStore(Stores.settings).put({ name, value }),
    );
  }

  close(): Promise<void> {
    return this.database.release();
  }
}
