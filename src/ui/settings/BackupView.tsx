// Settings → Back up & restore: the whole workspace as one file, and a file merged back in. The
// worker does the work (workers/backups/backups.ts); this view says what happened, conflicts
// included.

import { useEffect, useState } from 'preact/hooks';
import type { RuntimeClient } from '../workbench/workbench.ts';
import { download } from '../common/download.ts';
import { ErrorBanner, FormStatus } from '../common/FormNotices.tsx';

interface Props {
  client: Pick<RuntimeClient, 'runtime'>;
  onClose: () => void;
}

interface Report {
  restored: string[];
  unchanged: number;
  conflicts: string[];
  /** What the file held that a restore does not take, with why. */
  ignored: string[];
}

export function BackupView({ client, onClose }: Props) {
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string>();
  const [error, setError] = useState<string>();
  const [report, setReport] = useState<Report>();
  const [last, setLast] = useState<number>();
  const [persisted, setPersisted] = useState<boolean>();
  useEffect(() => {
    void client.runtime.lastBackupAt().then(setLast);
    void navigator.storage?.persisted?.().then(setPersisted);
  }, [client]);

  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setError(undefined);
    setStatus(undefined);
    try {
      await work();
    } catch (thrown) {
      setError((thrown as Error | null)?.message ?? String(thrown));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="flows-view backup-view" aria-label="Backup">
      <header class="flows-head">
        <h2>Back up &amp; restore</h2>
        <p class="hint">
          Everything Trellis keeps lives in this browser: clearing its site data loses it. A backup
          is one file with every session (its events and artifact versions), flow, agent, provider
          and tool server, and your settings — never an API key or a token (add those again after
          restoring).
        </p>
        <button type="button" onClick={onClose}>
          Back to the chat
        </button>
      </header>
      <div class="backup-body">
        <p>
          {last ? `Last backup: ${new Date(last).toLocaleString()}.` : 'No backup made yet.'}{' '}
          {persisted === false &&
            'This browser has not promised to keep this data: it may clear it when space runs low.'}
          {persisted === true && 'This browser keeps this data unless you clear it.'}
        </p>
        <div class="flow-buttons">
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                const file = await client.runtime.backup();
                download(file.filename, file.json);
                setLast(Date.now());
                setStatus(`Backed up to ${file.filename}.`);
              })
            }
          >
            Back up
          </button>
          <label class="import">
            Restore…
            <input
              type="file"
              accept=".json,application/json"
              disabled={busy}
              onChange={(event) => {
                const input = event.currentTarget;
                const file = input.files?.[0];
                input.value = '';
                if (!file) return;
                void run(async () => {
                  const result = await client.runtime.restore(await file.text());
                  setReport(result);
                  setStatus(
                    `Restored ${result.restored.length}; ${result.unchanged} already here; ${result.conflicts.length} conflicts.`,
                  );
                });
              }}
            />
          </label>
          <FormStatus text={status} />
        </div>
        <ErrorBanner text={error} />
        {report && report.conflicts.length > 0 && (
          <section aria-label="Conflicts">
            <h3>Not restored: already here, different</h3>
            <ul>
              {report.conflicts.map((conflict) => (
                <li key={conflict}>{conflict}</li>
              ))}
            </ul>
          </section>
        )}
        {report && report.ignored.length > 0 && (
          <section aria-label="Left out">
            <h3>Left out of the restore</h3>
            <ul>
              {report.ignored.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </section>
        )}
        {report && report.restored.length > 0 && (
          <details>
            <summary>Restored ({report.restored.length})</summary>
            <ul>
              {report.restored.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          </details>
        )}
      </div>
    </section>
  );
}
