import { useEffect, useState } from 'preact/hooks';
import { formatBytes } from '../../core/format.ts';
import type { RuntimeBroadcast } from '../../../workers/protocol.ts';
import type { ProvidersEditor } from './providers-editor.ts';

interface Props {
  editor: ProvidersEditor;
}

interface Progress {
  received: number;
  total?: number | undefined;
}

/**
 * Add a local model by URL: the worker downloads the file into the browser's storage and
 * broadcasts its progress; an interrupted download continues where it stopped on the next
 * Download of the same URL. Its state is here, not in the editor, so that the page's first
 * chunk does not carry it (this form is loaded with the Providers view).
 */
export function LocalDownload({ editor }: Props) {
  const [url, setUrl] = useState('');
  const [running, setRunning] = useState<string | undefined>(undefined);
  const [progress, setProgress] = useState<Progress | undefined>(undefined);
  const [message, setMessage] = useState<{ text: string; error: boolean } | undefined>(undefined);

  useEffect(
    () =>
      editor.client.onBroadcast((event: RuntimeBroadcast) => {
        if (event.type === 'local-download' && event.url === running)
          setProgress({ received: event.received, total: event.total });
      }),
    [editor, running],
  );

  const download = async () => {
    const target = url.trim();
    if (!target || running) return;
    setRunning(target);
    setProgress(undefined);
    setMessage(undefined);
    try {
      const added = await editor.client.runtime.downloadLocalModel(target);
      await editor.refresh();
      editor.open(added.id);
      setMessage({ text: `Downloaded “${added.name}”.`, error: false });
      setUrl('');
    } catch (error) {
      setMessage({ text: (error as Error | null)?.message ?? String(error), error: true });
    } finally {
      setRunning(undefined);
    }
  };

  return (
    <div class="presets">
      <input
        type="url"
        value={url}
        placeholder="https://…/model.gguf"
        aria-label="Model URL"
        spellcheck={false}
        onInput={(e) => setUrl(e.currentTarget.value)}
      />
      <button type="button" disabled={!!running || !url.trim()} onClick={() => void download()}>
        Download
      </button>
      {running && (
        <button
          type="button"
          onClick={() => void editor.client.runtime.cancelLocalDownload(running)}
        >
          Cancel
        </button>
      )}
      {running && (
        <p class="hint" role="status" aria-label="Download">
          {progressText(progress)}
        </p>
      )}
      {message && (
        <p
          class={message.error ? 'banner error' : 'hint'}
          role={message.error ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      )}
    </div>
  );
}

function progressText(progress: Progress | undefined): string {
  if (!progress) return 'Starting the download…';
  const { received, total } = progress;
  if (!total) return `Downloaded ${formatBytes(received)}…`;
  const percent = Math.floor((received / total) * 100);
  return `Downloaded ${formatBytes(received)} of ${formatBytes(total)} (${percent}%)…`;
}
