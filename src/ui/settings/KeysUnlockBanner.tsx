// The banner that asks for the passphrase, once per browser session, when a passphrase seals the
// stored keys and no tab holds them yet (Settings → Security sets one up: KeysView.tsx). Its form
// loads only when it shows (KeysUnlockForm.tsx).

import { useState } from 'preact/hooks';
import { lazy } from '../common/lazy.tsx';
import { useKeyStatus } from './use-key-status.ts';
import type { RuntimeClient } from '../workbench/workbench-state.ts';

const KeysUnlockForm = lazy(() => import('./KeysUnlockForm.tsx').then((m) => m.KeysUnlockForm), {
  fallback: null,
});

/** Set for the browser session once the user says Not now: the banner stays away until then. */
const LATER = 'trellis-keys-later';

export function KeysUnlockBanner({
  client,
}: {
  client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>;
}) {
  const [status, setStatus] = useKeyStatus(client);
  const [later, setLater] = useState(() => sessionStorage.getItem(LATER) === '1');
  if (!status?.protected || status.unlocked || later) return null;
  return (
    <KeysUnlockForm
      unlock={(passphrase) => client.runtime.unlockKeys(passphrase).then(setStatus)}
      onLater={() => {
        sessionStorage.setItem(LATER, '1');
        setLater(true);
      }}
    />
  );
}
