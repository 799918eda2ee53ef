// Where the app stores secrets, for the key vault (workers/key-vault.ts) to rewrite them all at
// once: every provider's API key. Each rewrite reads them, rewrites each (open, seal, remove) and
// writes them back with the protection record in one transaction; if another tab changed one
// meanwhile, it reads again.

import { maskKey } from '../src/models/provider-spec.ts';
import type { IndexedDbAppStore } from '../src/store/app-store.ts';
import { providerKeyPlace } from './app-providers.ts';
import {
  KEY_PROTECTION_SETTING,
  type KeyProtectionRecord,
  type SecretsRewriter,
} from './key-vault.ts';

const ATTEMPTS = 3;

export function storedSecrets(store: IndexedDbAppStore): SecretsRewriter {
  return async (rewrite, protection) => {
    for (let attempt = 1; ; attempt++) {
      const [providers, record] = await Promise.all([
        store.listProviders(),
        store.getSetting<KeyProtectionRecord>(KEY_PROTECTION_SETTING),
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
      try {
        await store.putSecrets({
          providers: changed,
          settings: [
            {
              name: KEY_PROTECTION_SETTING,
              value: protection,
              expectedJson: JSON.stringify(record),
            },
          ],
        });
        return;
      } catch (error) {
        if ((error as Error).name !== 'ConcurrentChangeError' || attempt === ATTEMPTS) throw error;
      }
    }
  };
}
