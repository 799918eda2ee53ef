// Whether a passphrase protects the stored keys, and whether this tab holds them: asked of the
// worker on mount and again whenever any tab says the keys changed (set, changed, removed,
// locked, unlocked).

import { useEffect, useState } from 'preact/hooks';
import type { KeyStatus } from '../../../workers/protocol.ts';
import type { RuntimeClient } from '../workbench/workbench-state.ts';

export type { KeyStatus };

export function useKeyStatus(
  client: Pick<RuntimeClient, 'runtime' | 'onBroadcast'>,
): [KeyStatus | undefined, (status: KeyStatus) => void] {
  const [status, setStatus] = useState<KeyStatus>();
  useEffect(() => {
    let live = true;
    const read = () =>
      void client.runtime.keyStatus().then(
        (next) => live && setStatus(next),
        () => undefined, // the next change asks again
      );
    read();
    const stop = client.onBroadcast((message) => {
      if (message.type === 'keys-changed') read();
    });
    return () => {
      live = false;
      stop();
    };
  }, [client]);
  return [status, setStatus];
}
