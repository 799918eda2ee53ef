// What the app keeps beside the library's data, in the same database: each session's title and
// agent, the user's flows, model providers and agents, and the user's settings.

import {
  Stores,
  type AgentSpecRecord,
  type FlowRecord,
  type ProviderRecord,
  type SessionMetaRecord,
} from './database.ts';
import { DatabaseRef, type IndexedDbServiceOptions } from './connection.ts';
import { InvalidRequestError } from '../core/errors.ts';
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

export interface AppStoreOptions extends IndexedDbServiceOptions {
  /**
   * What is wrong with a setting's value (undefined: nothing). A stored value with a problem
   * reads as absent and is listed by `settingProblems`; one is never written.
   */
  checkSetting?: (name: string, value: unknown) => string | undefined;
}

/** A stored setting that could not be used, and why. */
export interface SettingProblem {
  name: string;
  problem: string;
}

export class IndexedDbAppStore {
  private readonly database: DatabaseRef;
  private readonly checkSetting: AppStoreOptions['checkSetting'];
  /** The stored settings read as absent, by name. */
  private readonly unreadable = new Map<string, string>();

  constructor(options: AppStoreOptions = {}) {
    this.database = DatabaseRef.acquire(options.dbName);
    this.checkSetting = options.checkSetting;
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

  /**
   * Changes several sessions' records in one transaction: all or none. `fallback` gives the record
   * of a session that has none yet (made by the library directly); an id with neither is refused
   * (`missing` makes the error), and nothing is written.
   */
  async changeSessionMetas(
    appName: string,
    userId: string,
    ids: readonly string[],
    change: (meta: SessionMeta) => SessionMeta,
    fallback: (sessionId: string) => SessionMeta | undefined,
    missing: (sessionId: string) => Error,
  ): Promise<SessionMeta[]> {
    const db = await this.database.open();
    return writeTransaction(db, [Stores.sessionMeta], async (tx) => {
      const store = tx.objectStore(Stores.sessionMeta);
      const before: SessionMeta[] = [];
      for (const id of ids) {
        const meta = (await store.get([appName, userId, id])) ?? fallback(id);
        if (!meta) throw missing(id);
        before.push(meta);
      }
      await Promise.all(before.map((meta) => store.put(change(meta))));
      return before;
    });
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

  /** A setting's value; undefined when there is none, or when it does not fit (see checkSetting). */
  async getSetting<T>(name: string): Promise<T | undefined> {
    const value = (await (await this.database.open()).get(Stores.settings, name))?.value;
    const problem = value === undefined ? undefined : this.checkSetting?.(name, value);
    if (problem === undefined) {
      this.unreadable.delete(name);
      return value as T | undefined;
    }
    this.unreadable.set(name, problem);
    return undefined;
  }

  /** The settings read so far whose stored values did not fit, and what was wrong. */
  settingProblems(): SettingProblem[] {
    return [...this.unreadable].map(([name, problem]) => ({ name, problem }));
  }

  /** Stores a setting; one that does not fit (see checkSetting) is refused, nothing written. */
  async putSetting(name: string, value: unknown): Promise<void> {
    const problem = this.checkSetting?.(name, value);
    if (problem !== undefined)
      throw new InvalidRequestError(`The setting ${name} was not saved: ${problem}`);
    const db = await this.database.open();
    await writeTransaction(db, [Stores.settings], (tx) =>
      tx.objectStore(Stores.settings).put({ name, value }),
    );
  }

  /**
   * Reads a setting and writes what `change` makes of it in one transaction, so that two tabs
   * changing a list setting at once both keep their change. `change` must be synchronous (it runs
   * inside the transaction) and may throw to write nothing; what it returns is checked as
   * putSetting checks.
   */
  async updateSetting<T>(name: string, change: (current: T | undefined) => T): Promise<T> {
    const db = await this.database.open();
    return writeTransaction(db, [Stores.settings], async (tx) => {
      const store = tx.objectStore(Stores.settings);
      const stored = (await store.get(name))?.value as T | undefined;
      const fits = stored !== undefined && this.checkSetting?.(name, stored) === undefined;
      const next = change(fits || !this.checkSetting ? stored : undefined);
      const problem = this.checkSetting?.(name, next);
      if (problem !== undefined)
        throw new InvalidRequestError(`The setting ${name} was not saved: ${problem}`);
      await store.put({ name, value: next });
      return next;
    });
  }

  async deleteSetting(name: string): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.settings], (tx) =>
      tx.objectStore(Stores.settings).delete(name),
    );
  }

  /**
   * Rewrites the stored secrets (workers/keys/key-vault.ts) in one transaction: each provider of
   * `providers` is put only if its stored `updatedAt` is still `expectedAt` (else nothing is
   * written and ConcurrentChangeError is thrown, for the caller to read again); each setting of
   * `settings` is put, or deleted when `undefined`, only if its stored JSON is still
   * `expectedJson`.
   */
  async putSecrets(change: {
    providers: { record: ProviderRecord; expectedAt: number }[];
    settings: { name: string; value: unknown; expectedJson: string | undefined }[];
  }): Promise<void> {
    for (const { name, value } of change.settings) {
      const problem = value === undefined ? undefined : this.checkSetting?.(name, value);
      if (problem !== undefined)
        throw new InvalidRequestError(`The setting ${name} was not saved: ${problem}`);
    }
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
