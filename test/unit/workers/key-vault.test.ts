// Keys at rest (issue 28): an optional passphrase seals the providers' keys in IndexedDB with
// AES-GCM under a PBKDF2-derived key. Nothing plain is left in the database while it is on; a
// locked tab refuses to use a key (and changes nothing) until unlocked; another tab gets the key
// from an unlocked one; a wrong passphrase is refused; change, remove and forget rewrite every key
// in one go. Run against the fixture model server over real HTTP.

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import type { ChannelLike } from '../../../workers/keys/key-vault.ts';
import type { ProviderInput, RuntimeBroadcast } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-fixture-9f8e7d6c5b4a3210-LAST';
const PASSPHRASE = 'correct horse battery staple';

/** A BroadcastChannel between runtimes of this process (each "tab" hears the others). */
function channels() {
  const members: { listener?: (event: MessageEvent) => void }[] = [];
  return (): ChannelLike => {
    const me: { listener?: (event: MessageEvent) => void } = {};
    members.push(me);
    return {
      postMessage: (data) => {
        for (const other of members)
          if (other !== me) queueMicrotask(() => other.listener?.({ data } as MessageEvent));
      },
      addEventListener: (_type, listener) => {
        me.listener = listener;
      },
    };
  };
}

function tab(dbName: string, channel?: ChannelLike) {
  const broadcasts: RuntimeBroadcast[] = [];
  const runtime = new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: (message) => broadcasts.push(message),
    modelHttp: { maxRetries: 0 },
    keyIterations: 1000,
    ...(channel ? { keyChannel: channel } : {}),
  });
  return { runtime, broadcasts };
}

function input(overrides: Partial<ProviderInput> = {}): ProviderInput {
  return {
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl: `${server.url}/v1`,
    defaultModel: 'fixture-text',
    apiKey: KEY,
    ...overrides,
  };
}

/** Every record of the database, as one text: what someone with the disk could read. */
async function rawDatabase(dbName: string): Promise<string> {
  const db = await openDB(dbName);
  const all: unknown[] = [];
  for (const name of db.objectStoreNames) all.push(await db.getAll(name));
  db.close();
  return JSON.stringify(all);
}

/** The Authorization headers the model server was sent since `from`. */
const keysSent = (from: number) =>
  server.requests.slice(from).map((request) => request.headers['authorization']);

describe('keys at rest', () => {
  it('seals every key with a passphrase: nothing plain stays in IndexedDB, the key still works', async () => {
    const dbName = freshDbName();
    const { runtime } = tab(dbName);
    const saved = await runtime.providers.save(input());
    expect(await rawDatabase(dbName)).toContain(KEY);
    expect(await runtime.keys.status()).toEqual({ protected: false, unlocked: true });

    expect(await runtime.keys.protect(PASSPHRASE)).toEqual({ protected: true, unlocked: true });
    const raw = await rawDatabase(dbName);
    expect(raw).not.toContain(KEY);
    expect(raw).not.toContain(PASSPHRASE);
    expect(raw).toContain('AES-GCM');
    // The page sees the same masked key as before.
    expect((await runtime.providers.list())[0]!.keyHint).toBe('••••LAST');

    const from = server.requests.length;
    expect(await runtime.providers.models(saved.id)).toMatchObject({ ok: true });
    expect(keysSent(from)).toEqual([`Bearer ${KEY}`]);

    // A key saved while protected is sealed too.
    await runtime.providers.save(
      input({ name: 'Second', apiKey: 'sk-second-0000000000000000-2ND' }),
    );
    expect(await rawDatabase(dbName)).not.toContain('sk-second');
  });

  it('seals tool servers’ header values too, and opens them only to connect', async () => {
    const dbName = freshDbName();
    const { runtime } = tab(dbName);
    const TOKEN = 'Bearer mcp-token-4242-TOKN';
    const saved = await runtime.toolServers.save({
      name: 'MCP',
      url: 'http://127.0.0.1:9/mcp',
      headers: [
        { name: 'Authorization', value: TOKEN },
        { name: 'X-Empty', value: '' },
      ],
    });
    await runtime.keys.protect(PASSPHRASE);
    expect(await rawDatabase(dbName)).not.toContain('mcp-token');
    expect((await runtime.toolServers.list())[0]!.headers).toEqual([
      { name: 'Authorization', hint: '••••TOKN' },
      { name: 'X-Empty', hint: '' },
    ]);
    expect((await runtime.toolServers.record(saved.id))!.headers[0]!.value).toBe(TOKEN);
    // A save that keeps the value (the form sends none) keeps it sealed; a new one is sealed.
    await runtime.toolServers.save({
      id: saved.id,
      name: 'MCP renamed',
      url: 'http://127.0.0.1:9/mcp',
      headers: [{ name: 'Authorization' }, { name: 'X-New', value: 'fresh-value-1234' }],
    });
    const raw = await rawDatabase(dbName);
    expect(raw).not.toMatch(/mcp-token|fresh-value/);
    const opened = await runtime.toolServers.record(saved.id);
    expect(opened!.headers).toEqual([
      { name: 'Authorization', value: TOKEN },
      { name: 'X-New', value: 'fresh-value-1234' },
    ]);
    // Locked: the server is listed, but not connected to.
    const later = tab(dbName).runtime;
    expect((await later.toolServers.list())[0]!.name).toBe('MCP renamed');
    expect((await rejectionOf(later.toolServers.record(saved.id))).name).toBe('KeysLockedError');
    // Forgotten: the names stay, for the form to ask for their values again.
    await later.keys.forget();
    expect((await later.toolServers.record(saved.id))!.headers).toEqual([
      { name: 'Authorization', value: '' },
      { name: 'X-New', value: '' },
    ]);
  });

  it('a locked tab refuses to use a key, saying how to unlock; a wrong passphrase changes nothing', async () => {
    const dbName = freshDbName();
    const first = tab(dbName);
    const saved = await first.runtime.providers.save(input());
    await first.runtime.keys.protect(PASSPHRASE);

    // A new tab after the browser restarted: no other tab to ask.
    const { runtime } = tab(dbName);
    expect(await runtime.keys.status()).toEqual({ protected: true, unlocked: false });
    const from = server.requests.length;
    const locked = await rejectionOf(runtime.providers.models(saved.id));
    expect(locked.name).toBe('KeysLockedError');
    expect(locked.message).toMatch(/passphrase/);
    // A new key can't be sealed either: the provider is not changed.
    const refused = await rejectionOf(
      runtime.providers.save(input({ id: saved.id, apiKey: 'sk-new-000000000000000-NEWK' })),
    );
    expect(refused.name).toBe('KeysLockedError');
    expect(server.requests.length).toBe(from);

    const before = await rawDatabase(dbName);
    const wrong = await rejectionOf(runtime.keys.unlock('not the passphrase'));
    expect(wrong.message).toBe('That is not the passphrase');
    expect(await runtime.keys.status()).toEqual({ protected: true, unlocked: false });
    expect(await rawDatabase(dbName)).toBe(before);

    expect(await runtime.keys.unlock(PASSPHRASE)).toEqual({ protected: true, unlocked: true });
    expect(await runtime.providers.models(saved.id)).toMatchObject({ ok: true });
    expect(keysSent(from)).toEqual([`Bearer ${KEY}`]);

    runtime.keys.lock();
    expect((await rejectionOf(runtime.providers.models(saved.id))).name).toBe('KeysLockedError');
  });

  it('another tab gets the key from an unlocked one, and Lock locks every tab', async () => {
    const dbName = freshDbName();
    const channel = channels();
    const a = tab(dbName, channel());
    const saved = await a.runtime.providers.save(input());
    await a.runtime.keys.protect(PASSPHRASE);
    const b = tab(dbName, channel());
    expect(await b.runtime.keys.status()).toEqual({ protected: true, unlocked: true });
    expect(await b.runtime.providers.models(saved.id)).toMatchObject({ ok: true });

    a.runtime.keys.lock();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await b.runtime.keys.status()).toEqual({ protected: true, unlocked: false });
    expect(b.broadcasts).toContainEqual({ type: 'keys-changed' });
  });

  it('changes the passphrase (the old one must be right) and removes it, rewriting every key', async () => {
    const dbName = freshDbName();
    const { runtime } = tab(dbName);
    const saved = await runtime.providers.save(input());
    await runtime.keys.protect(PASSPHRASE);
    const sealedBefore = await rawDatabase(dbName);

    expect(
      (await rejectionOf(runtime.keys.change('wrong passphrase', 'another long one'))).message,
    ).toBe('That is not the passphrase');
    expect((await rejectionOf(runtime.keys.change(PASSPHRASE, 'short'))).message).toMatch(
      /at least 8 characters/,
    );
    expect(await rawDatabase(dbName)).toBe(sealedBefore);

    await runtime.keys.change(PASSPHRASE, 'another long one');
    expect(await rawDatabase(dbName)).not.toContain(KEY);
    runtime.keys.lock();
    expect((await rejectionOf(runtime.keys.unlock(PASSPHRASE))).message).toBe(
      'That is not the passphrase',
    );
    await runtime.keys.unlock('another long one');
    expect(await runtime.providers.models(saved.id)).toMatchObject({ ok: true });

    expect(await runtime.keys.unprotect('another long one')).toEqual({
      protected: false,
      unlocked: true,
    });
    expect(await rawDatabase(dbName)).toContain(KEY);
    expect(await tab(dbName).runtime.providers.models(saved.id)).toMatchObject({ ok: true });
  });

  it('a run on a locked key is refused before anything is stored; unlocked, the same agent answers', async () => {
    const dbName = freshDbName();
    const { runtime } = tab(dbName);
    const provider = await runtime.providers.save(input());
    const { saved } = await runtime.agentSpecs.save({
      name: 'calc',
      description: 'Does sums.',
      providerId: provider.id,
      model: 'fixture-text',
      instruction: 'Answer.',
      tools: [],
      subAgentIds: [],
      resumable: true,
    });
    const session = await runtime.createSession(saved!.agentId);
    await runtime.runs.send(session.id, 'hello', () => {});
    await runtime.keys.protect(PASSPHRASE);
    runtime.keys.lock();
    const before = await runtime.openSession(session.id);

    const events: unknown[] = [];
    const error = await rejectionOf(runtime.runs.send(session.id, 'again', (e) => events.push(e)));
    expect(error.name).toBe('KeysLockedError');
    expect(events).toEqual([]);
    expect((await runtime.openSession(session.id)).events).toEqual(before.events);
    expect(await runtime.runs.interruptedRuns()).toEqual([]);

    await runtime.keys.unlock(PASSPHRASE);
    await runtime.runs.send(session.id, 'again', () => {});
    expect((await runtime.openSession(session.id)).events.length).toBeGreaterThan(
      before.events.length,
    );
  });

  it('a forgotten passphrase removes the sealed keys and keeps the providers', async () => {
    const dbName = freshDbName();
    const { runtime } = tab(dbName);
    await runtime.providers.save(input());
    await runtime.keys.protect(PASSPHRASE);
    const later = tab(dbName).runtime;
    expect(await later.keys.forget()).toEqual({ protected: false, unlocked: true });
    const [provider] = await later.providers.list();
    expect(provider).toMatchObject({ name: 'Fixture' });
    expect(provider!.keyHint).toBeUndefined();
    expect(await rawDatabase(dbName)).not.toMatch(/AES-GCM|keyProtection/);
  });

  it('a sealed key moved to another provider does not open there', async () => {
    const dbName = freshDbName();
    const { runtime } = tab(dbName);
    const one = await runtime.providers.save(input());
    const two = await runtime.providers.save(input({ name: 'Two', apiKey: undefined }));
    await runtime.keys.protect(PASSPHRASE);
    const db = await openDB(dbName);
    const sealed = (await db.get('providers', one.id)).apiKey;
    await db.put('providers', { ...(await db.get('providers', two.id)), apiKey: sealed });
    db.close();
    const error = await rejectionOf(runtime.providers.models(two.id));
    expect(error.name).toBe('KeysLockedError');
    expect(error.message).toMatch(/could not be decrypted/);
  });
});
