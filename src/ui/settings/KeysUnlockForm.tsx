// The locked-keys banner's content (KeysUnlockBanner.tsx decides whether it shows): the
// passphrase field, Unlock, and Not now.

import { useState } from 'preact/hooks';
import { PassphraseForm } from './PassphraseForm.tsx';

interface Props {
  /** Unlocks with the passphrase (rejects with why: a wrong one). */
  unlock: (passphrase: string) => Promise<void>;
  onLater: () => void;
}

export function KeysUnlockForm({ unlock, onLater }: Props) {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
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
        onCancel={onLater}
        onSubmit={async (values) => {
          setBusy(true);
          setError(undefined);
          try {
            await unlock(values.passphrase!);
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
