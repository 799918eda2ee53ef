// Where the app stores secrets, for the key vault (workers/keys/key-vault.ts) to rewrite them all
// at once: every provider's API key and every tool server's header values. Each rewrite reads them,
// rewrites each (open, seal, remove) and writes them back with the protection record in one
// transaction; if another tab changed one meanwhile, it reads again.

import { maskKey } from '../../src/models/provider-spec.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import { providerKeyPlace } from '../providers.ts';
import {
  headerHint,
  toolServerPlace,
  type ToolServerRecord,
} from '../tool-servers/tool-server-record.ts';
import {
  KEY_PROTECTION_SETTING,
  type KeyProtectionRecord,
  type SecretRewrite,
  type SecretsRewriter,
} from './key-vault.ts';

const ATTEMPTS = 3;
const TOOL_SERVERS = 'toolServers';

/** The servers with each header value rewritten; a sealed one keeps its masked hint beside it. */
async function rewriteServers(
  servers: readonly ToolServerRecord[],
  rewrite: SecretRewrite,
): Promise<ToolServerRecord[]> {
  return Promise.all(
    servers.map(async (server) => ({
      ...server,
      headers: await Promise.all(
        server.headers.map(async ({ name, value, hint }) => {
          if (value === '') return { name, value }; // nothing to keep secret
          const next = await rewrite(value, toolServerPlace(server.id));
          // A forgotten value leaves its header's name, for the form to ask for it again.
          if (next === undefined) return { name, value: '' };
          const kept = hint ?? (typeof value === 'string' ? headerHint(value) : undefined);
          return {
            name,
            value: next,
            ...(typeof next !== 'string' && kept ? { hint: kept } : {}),
          };
        }),
      ),
    })),
  );
}

export function storedSecrets(store: IndexedDbAppStore): SecretsRewriter {
  return async (rewrite, protection) => {
    for (let attempt = 1; ; attempt++) {
      const [providers, record, servers] = await Promise.all([
        store.listProviders(),
        store.getSetting<KeyProtectionRecord>(KEY_PROTECTION_SETTING),
        store.getSetting<ToolServerRecord[]>(TOOL_SERVERS),
      ]);
      const changed = [];
      for (const provider of providers) {
        if (provider.apiKey === undefined) continue;
        const { apiKey: _key, keyHint, ...rest } = provider;
        const apiKey = await rewrite(provider.apiKey, providerKeyPlace(provider.id));
        // A sealed key keeps its masked hint beside it; a plain one is its own hint.
        const hint =
          keyHint ?? (typeof provider.apiKey === 'string' ? maskKey(provider.apiKey) : undefined);
        changed.push({
          record: {
            ...rest,
            ...(apiKey === undefined ? {} : { apiKey }),
            ...(apiKey !== undefined && typeof apiKey !== 'string' && hint
              ? { keyHint: hint }
              : {}),
          },
          expectedAt: provider.updatedAt,
        });
      }
      const rewritten = servers && (await rewriteServers(servers, rewrite));
      try {
        await store.putSecrets({
          providers: changed,
          settings: [
            {
              name: KEY_PROTECTION_SETTING,
              value: protection,
              expectedJson: JSON.stringify(record),
            },
            ...(rewritten
              ? [{ name: TOOL_SERVERS, value: rewritten, expectedJson: JSON.stringify(servers) }]
              : []),
          ],
        });
        return;
      } catch (error) {
        if ((error as Error).name !== 'ConcurrentChangeError' || attempt === ATTEMPTS) throw error;
      }
    }
  };
}
