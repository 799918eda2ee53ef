import { formatBytes } from '../../core/format.ts';
import { useEffect, useState } from 'preact/hooks';

interface Usage {
  persisted: boolean;
  usage: number;
  quota: number;
}

/** A backup older than this is not recent: the reminder shows again. */
const BACKUP_DUE_MS = 7 * 24 * 3600_000;

interface Props {
  refreshKey: unknown;
  /** Whether there is work to lose (a session with messages): no reminder before there is. */
  hasWork?: boolean;
  /** When the last backup was made, if ever. */
  lastBackupAt?: () => Promise<number | undefined>;
  onBackup?: () => void;
}

/**
 * Asks the browser to keep Trellis's data (not evict it under pressure) and shows the usage; when
 * the browser has not promised to keep it and no backup is recent, a reminder to back up.
 */
export function StorageInfo({ refreshKey, hasWork = false, lastBackupAt, onBackup }: Props) {
  const [usage, setUsage] = useState<Usage>();
  const [due, setDue] = useState(false);
  useEffect(() => {
    const storage = navigator.storage;
    if (!storage?.estimate) return;
    void (async () => {
      const persisted = (await storage.persisted?.()) || (await storage.persist?.()) || false;
      const { usage = 0, quota = 0 } = await storage.estimate();
      setUsage({ persisted, usage, quota });
      const last = persisted ? undefined : await lastBackupAt?.().catch(() => undefined);
      setDue(!persisted && !!onBackup && (last === undefined || Date.now() - last > BACKUP_DUE_MS));
    })();
  }, [refreshKey]);
  if (!usage) return null;
  const reminder = due && hasWork && onBackup && (
    <button
      type="button"
      class="quiet backup-due"
      title="This browser may clear Trellis's data when space runs low, and there is no recent backup"
      onClick={onBackup}
    >
      Back up
    </button>
  );
  return (
    <p
      class="storage"
      title={
        usage.persisted
          ? 'The browser will keep this data'
          : 'The browser may clear this data when space runs low'
      }
    >
      {/* With the reminder, the quota gives it its room: the header keeps to one line. */}
      Storage: {formatBytes(usage.usage)}
      {reminder ? ' · ' : ` of ${formatBytes(usage.quota)}`}
      {usage.persisted ? ' · kept' : ''}
      {reminder}
    </p>
  );
}
