// What the app keeps beside the library's data, in the same database: each session's title and
// agent, the user's flows, model providers and agents, and the user's settings.

import {
  DatabaseRef,
  Stores,
  type AgentSpecRecord,
  type FlowRecord,
  type ProviderRecord,
  type IndexedDbServiceOptions,
  type SessionMetaRecord,
} from './database.ts';
import { writeTransaction } from './transaction.ts';

export type SessionMeta = SessionMetaRecord;
export type { AgentSpecRecord, FlowRecord, ProviderRecord };

/** What putSecrets read changed before it could write: read again and retry. */
export class ConcurrentChangeError extends Error {
  override name = 'ConcurrentChangeError' as const;
  constructor() {
    super('The stored settings changed meanwhile (in another tab?): try again');
  }
}

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

  /** The user's flows, in no particular order. */
  async listFlows(): Promise<FlowRecord[]> {
    return (await this.database.open()).getAll(Stores.flows);
  }

  async getFlow(id: string): Promise<FlowRecord | undefined> {
    return (await this.database.open()).get(Stores.flows, id);
  }

  async putFlow(record: FlowRecord): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.flows], (tx) => tx.objectStore(Stores.flows).put(record));
  }

  async deleteFlow(id: string): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.flows], (tx) => tx.objectStore(Stores.flows).delete(id));
  }

  /** The model providers, keys included: for the worker only. */
  async listProviders(): Promise<ProviderRecord[]> {
    return (await this.database.open()).getAll(Stores.providers);
  }

  async getProvider(id: string): Promise<ProviderRecord | undefined> {
    return (await this.database.open()).get(Stores.providers, id);
  }

  async putProvider(record: ProviderRecord): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.providers], (tx) =>
      tx.objectStore(Stores.providers).put(record),
    );
  }

  async deleteProvider(id: string): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.providers], (tx) =>
      tx.objectStore(Stores.providers).delete(id),
    );
  }

  /** The agents made in the agent builder, in no particular order. */
  async listAgentSpecs(): Promise<AgentSpecRecord[]> {
    return (await this.database.open()).getAll(Stores.agents);
  }

  async getAgentSpec(id: string): Promise<AgentSpecRecord | undefined> {
    return (await this.database.open()).get(Stores.agents, id);
  }

  /** Saves several specs in one transaction (an import writes all of its agents, or none). */
  async putAgentSpecs(records: readonly AgentSpecRecord[]): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.agents], (tx) => {
      const store = tx.objectStore(Stores.agents);
      return Promise.all(records.map((record) => store.put(record)));
    });
  }

  async deleteAgentSpec(id: string): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.agents], (tx) => tx.objectStore(Stores.agents).delete(id));
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

  async deleteSetting(name: string): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.settings], (tx) =>
      tx.objectStore(Stores.settings).delete(name),
    );
  }

  /**
   * Rewrites the stored secrets (workers/key-vault.ts) in one transaction: each provider of
   * `providers` is put only if its stored `updatedAt` is still `expectedAt` (else nothing is
   * written and ConcurrentChangeError is thrown, for the caller to read again); each setting of
   * `settings` is put, or deleted when `undefined`, only if its stored JSON is still
   * `expectedJson`.
   */
  async putSecrets(change: {
    providers: { record: ProviderRecord; expectedAt: number }[];
    settings: { name: string; value: unknown; expectedJson: string | undefined }[];
  }): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.providers, Stores.settings], async (tx) => {
      const providers = tx.objectStore(Stores.providers);
      const settings = tx.objectStore(Stores.settings);
      for (const { record, expectedAt } of change.providers) {
        const stored = await providers.get(record.id);
        if (stored?.updatedAt !== expectedAt) throw new ConcurrentChangeError();
        await providers.put(record);
      }
      for (const { name, value, expectedJson } of change.settings) {
        const stored = await settings.get(name);
        if (JSON.stringify(stored?.value) !== expectedJson) throw new ConcurrentChangeError();
        if (value === undefined) await settings.delete(name);
        else await settings.put({ name, value });
      }
    });
  }

  close(): Promise<void> {
    return this.database.release();
  }
}
