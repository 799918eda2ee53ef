import { formatBytes } from '../core/format.ts';
import { useEffect, useState } from 'preact/hooks';

interface Usage {
  persisted: boolean;
  usage: number;
  quota: number;
}

/** Asks the browser to keep Trellis's data (not evict it under pressure) and shows the usage. */
export function StorageInfo({ refreshKey }: { refreshKey: unknown }) {
  const [usage, setUsage] = useState<Usage>();
  useEffect(() => {
    const storage = navigator.storage;
    if (!storage?.estimate) return;
    void (async () => {
      const persisted = (await storage.persisted?.()) || (await storage.persist?.()) || false;
      const { usage = 0, quota = 0 } = await storage.estimate();
      setUsage({ persisted, usage, quota });
    })();
  }, [refreshKey]);
  if (!usage) return null;
  return (
    <p
      class="storage"
      title={
        usage.persisted
          ? 'The browser will keep this data'
          : 'The browser may clear this data when space runs low'
      }
    >
      Storage: {formatBytes(usage.usage)} of {formatBytes(usage.quota)}
      {usage.persisted ? ' · kept' : ''}
    </p>
  );
}
