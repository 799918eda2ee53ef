// The banner that asks for the passphrase, once per browser session, when a passphrase seals the
// stored keys and no tab holds them yet (Settings → Security sets one up: KeysView.tsx).

import { useState } from 'preact/hooks';
import { PassphraseForm } from './PassphraseForm.tsx';
import { useKeyStatus } from './use-key-status.ts';
import type { RuntimeClient } from './workbench-state.ts';

/** Set for the browser session once the user says Not now: the banner stays away until then. */
const LATER = 'trellis-keys-later';

export function KeysUnlockBanner({
  client,
}: {
  client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>;
}) {
  const [status, setStatus] = useKeyStatus(client);
  const [later, setLater] = useState(() => sessionStorage.getItem(LATER) === '1');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  if (!status?.protected || status.unlocked || later) return null;
  return (
    <div class="banner keys-unlock" role="region" aria-label="Locked keys">
      <p>
        Your API keys are sealed with a passphrase. Enter it to use agents on your providers and
        tool servers; the demos work without.
      </p>
      <PassphraseForm
        label="Unlock keys"
        fields={[{ name: 'passphrase', label: 'Passphrase', autocomplete: 'current-password' }]}
        submit="Unlock"
        busy={busy}
        cancel="Not now"
        onCancel={() => {
          sessionStorage.setItem(LATER, '1');
          setLater(true);
        }}
        onSubmit={async (values) => {
          setBusy(true);
          setError(undefined);
          try {
            setStatus(await client.runtime.unlockKeys(values.passphrase!));
            return true;
          } catch (thrown) {
            setError((thrown as Error | null)?.message ?? String(thrown));
            return false;
          } finally {
            setBusy(false);
          }
        }}
      />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
