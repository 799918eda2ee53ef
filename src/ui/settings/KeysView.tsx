// Settings → Security: an optional passphrase that seals the keys Trellis stores (providers' API
// keys, tool servers' header values) in this browser. The worker does the cryptography
// (workers/keys/key-vault.ts); this view sets, changes, removes, locks and unlocks.

import { useState } from 'preact/hooks';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';
import { PassphraseForm } from './PassphraseForm.tsx';
import { useKeyStatus } from './use-key-status.ts';
import type { RuntimeClient } from '../workbench/workbench-state.ts';

interface Props {
  client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>;
  onClose: () => void;
}

/** What the form is doing: nothing, or one of the changes that take passphrases. */
type Change = 'none' | 'change' | 'remove' | 'forget';

export function KeysView({ client, onClose }: Props) {
  const [status, setStatus] = useKeyStatus(client);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [said, setSaid] = useState<string>();
  const [change, setChange] = useState<Change>('none');

  /** Runs a change; a form's fields are cleared by the form once it resolves. */
  const run = async (work: () => Promise<void>, done: string): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    setSaid(undefined);
    try {
      await work();
      setSaid(done);
      setChange('none');
      return true;
    } catch (thrown) {
      setError((thrown as Error | null)?.message ?? String(thrown));
      return false;
    } finally {
      setBusy(false);
    }
  };
  const runtime = client.runtime;

  return (
    <section class="flows-view keys-view" aria-label="Security">
      <header class="flows-head">
        <h2>Security</h2>
        <p class="hint">
          Your providers’ API keys and tool servers’ tokens are kept in this browser’s storage, and
          go only to their own servers. Anyone who can read this computer’s browser profile can read
          them too, unless a passphrase seals them: then they are stored encrypted (AES-GCM, with a
          key derived from the passphrase by PBKDF2), and each browser session asks for the
          passphrase once before a key is used. The passphrase is never stored: if you lose it, the
          keys must be entered again.
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <div class="keys-body">
        <p role="status" aria-label="Key protection">
          {!status
            ? 'Reading…'
            : !status.protected
              ? 'Keys are stored as they are: no passphrase.'
              : status.unlocked
                ? 'Keys are sealed with your passphrase, and unlocked in this browser session.'
                : 'Keys are sealed with your passphrase, and locked: enter it to use them.'}
        </p>
        {status && !status.protected && (
          <PassphraseForm
            label="Protect keys with a passphrase"
            fields={[
              { name: 'passphrase', label: 'New passphrase', autocomplete: 'new-password' },
              { name: 'repeat', label: 'The same again', autocomplete: 'new-password' },
            ]}
            submit="Protect keys"
            busy={busy}
            onSubmit={(values) =>
              values.passphrase !== values.repeat
                ? (setError('The two passphrases differ'), Promise.resolve(false))
                : run(async () => {
                    setStatus(await runtime.protectKeys(values.passphrase!));
                  }, 'Your keys are sealed.')
            }
          />
        )}
        {status?.protected && !status.unlocked && change !== 'forget' && (
          <>
            <PassphraseForm
              label="Unlock keys"
              fields={[
                { name: 'passphrase', label: 'Passphrase', autocomplete: 'current-password' },
              ]}
              submit="Unlock"
              busy={busy}
              onSubmit={(values) =>
                run(async () => {
                  setStatus(await runtime.unlockKeys(values.passphrase!));
                }, 'Unlocked.')
              }
            />
            <button type="button" class="quiet" onClick={() => setChange('forget')}>
              Forgot the passphrase?
            </button>
          </>
        )}
        {status?.protected && change === 'forget' && (
          <div class="keys-forget" role="group" aria-label="Forget the passphrase">
            <p>
              Without the passphrase the sealed keys cannot be read. Removing them keeps your
              providers and tool servers; enter their keys again afterwards.
            </p>
            <div class="flow-buttons">
              <button
                type="button"
                class="danger"
                disabled={busy}
                onClick={() =>
                  void run(async () => {
                    setStatus(await runtime.forgetKeys());
                  }, 'The sealed keys were removed, and the passphrase with them.')
                }
              >
                Remove the sealed keys
              </button>
              <button type="button" onClick={() => setChange('none')}>
                Cancel
              </button>
            </div>
          </div>
        )}
        {status?.protected && status.unlocked && change === 'none' && (
          <div class="flow-buttons">
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void run(async () => {
                  await runtime.lockKeys();
                  setStatus(await runtime.keyStatus());
                }, 'Locked in every tab.')
              }
            >
              Lock now
            </button>
            <button type="button" onClick={() => setChange('change')}>
              Change passphrase
            </button>
            <button type="button" onClick={() => setChange('remove')}>
              Remove passphrase
            </button>
          </div>
        )}
        {status?.protected && change === 'change' && (
          <PassphraseForm
            label="Change passphrase"
            fields={[
              { name: 'old', label: 'Current passphrase', autocomplete: 'current-password' },
              { name: 'passphrase', label: 'New passphrase', autocomplete: 'new-password' },
              { name: 'repeat', label: 'The new one again', autocomplete: 'new-password' },
            ]}
            submit="Change passphrase"
            busy={busy}
            onCancel={() => setChange('none')}
            onSubmit={(values) =>
              values.passphrase !== values.repeat
                ? (setError('The two new passphrases differ'), Promise.resolve(false))
                : run(async () => {
                    setStatus(await runtime.changePassphrase(values.old!, values.passphrase!));
                  }, 'Passphrase changed.')
            }
          />
        )}
        {status?.protected && change === 'remove' && (
          <PassphraseForm
            label="Remove passphrase"
            fields={[{ name: 'passphrase', label: 'Passphrase', autocomplete: 'current-password' }]}
            submit="Remove passphrase"
            busy={busy}
            onCancel={() => setChange('none')}
            onSubmit={(values) =>
              run(async () => {
                setStatus(await runtime.unprotectKeys(values.passphrase!));
              }, 'Keys are stored as they are again.')
            }
          />
        )}
        <FormStatus text={said} />
        <ErrorBanner text={error} />
      </div>
    </section>
  );
}
