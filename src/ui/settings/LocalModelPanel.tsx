import { useEffect, useState } from 'preact/hooks';
import type { LocalModelStatus } from '../../../workers/protocol.ts';
import { localModelStatusView } from './local-model-status.ts';
import type { ProvidersEditor } from './providers-editor.ts';

interface Props {
  editor: ProvidersEditor;
  providerId: string;
}

/** Faster while loading, so the bar moves; slow otherwise, as the state rarely changes. */
const POLL_MS = { loading: 300, other: 1500 } as const;

/**
 * A local model's state in this tab's worker (each tab loads its own): not loaded, loading (a
 * bar of the file read, and the time it has taken), or loaded (threads, memory), with Load and
 * Unload. Asked of the worker while the form is open, rather than broadcast: a broadcast would
 * reach other tabs, whose workers have models of their own.
 */
export function LocalModelPanel({ editor, providerId }: Props) {
  const [status, setStatus] = useState<LocalModelStatus | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const runtime = editor.client.runtime;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const next = await runtime.localModelStatus(providerId).catch(() => undefined);
      if (stopped) return;
      if (next) setStatus(next);
      timer = setTimeout(
        () => void poll(),
        next?.state === 'loading' ? POLL_MS.loading : POLL_MS.other,
      );
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [runtime, providerId]);

  if (!status) return null;
  const view = localModelStatusView(status, Date.now());
  const act = async (action: 'load' | 'unload') => {
    setBusy(true);
    setError(undefined);
    // The answer comes back as the next status too; setting it now saves a poll's wait.
    if (action === 'load') setStatus({ state: 'loading', read: 0, total: 0, since: Date.now() });
    try {
      setStatus(
        await (action === 'load'
          ? runtime.loadLocalModel(providerId)
          : runtime.unloadLocalModel(providerId)),
      );
    } catch (caught) {
      setError((caught as Error | null)?.message ?? String(caught));
      setStatus(await runtime.localModelStatus(providerId).catch(() => status));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="local-model-state">
      <p class="hint" role="status" aria-label="Local model state">
        {view.text}
      </p>
      {view.progress && (
        <progress
          value={view.progress.value}
          max={view.progress.max}
          aria-label="Model file read"
        />
      )}
      {view.action && (
        <button type="button" disabled={busy} onClick={() => void act(view.action!)}>
          {view.action === 'load' ? 'Load' : 'Unload'}
        </button>
      )}
      {error && (
        <p class="banner error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
