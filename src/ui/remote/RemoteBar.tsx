import { useState } from 'preact/hooks';
import type { RemoteSessionInfo } from '../../../workers/protocol.ts';
import type { AdkSpan } from '../../remote/client.ts';
import { lazy } from '../common/lazy.tsx';

const TraceList = lazy(() => import('../trace/TraceList.tsx').then((m) => m.TraceList));

interface Props {
  remote: RemoteSessionInfo;
  disabled: boolean;
  onCopy: () => void;
  onOpen: (sessionId: string) => void;
  loadTrace: () => Promise<AdkSpan[] | undefined>;
}

/**
 * Above a session that lives on an ADK server: where it lives, where it came from (a rewind into a
 * new session), Copy to this browser, and the server's trace of it.
 */
export function RemoteBar({ remote, disabled, onCopy, onOpen, loadTrace }: Props) {
  const [spans, setSpans] = useState<AdkSpan[] | undefined>();
  const [showTrace, setShowTrace] = useState(false);
  return (
    <div class="remote-bar">
      <p class="hint">
        On the ADK server <code>{remote.url}</code> · app <strong>{remote.appName}</strong>{' '}
        <button type="button" class="quiet" disabled={disabled} onClick={onCopy}>
          Copy to this browser
        </button>{' '}
        <button
          type="button"
          class="quiet"
          aria-expanded={showTrace}
          onClick={async () => {
            const next = !showTrace;
            setShowTrace(next);
            if (next) setSpans(await loadTrace());
          }}
        >
          Trace
        </button>
      </p>
      {remote.rewoundFrom && (
        <p class="hint remote-origin">
          Rewound from{' '}
          <button type="button" class="quiet" onClick={() => onOpen(remote.rewoundFrom!.sessionId)}>
            {remote.rewoundFrom.title}
          </button>
          : {remote.rewoundFrom.note}
        </p>
      )}
      {showTrace && <TraceList spans={spans} />}
    </div>
  );
}
