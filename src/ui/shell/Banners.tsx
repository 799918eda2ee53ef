import type { InterruptedRun } from '../../../workers/protocol.ts';
import { ResumeBanner } from './ResumeBanner.tsx';
import { UpdatePrompt } from './UpdatePrompt.tsx';

interface Props {
  /**
   * The open session's runs cut off or waiting, each with its Resume button (none while another
   * view than the session's is open).
   */
  interrupted: InterruptedRun[];
  /** This tab is running the open session: nothing can be resumed meanwhile. */
  running: boolean;
  /** Another tab is running the open session. */
  busyElsewhere: boolean;
  error: string | undefined;
  notice: string | undefined;
  onResume: (run: InterruptedRun) => void;
  onDismissRuns: (invocationIds: string[]) => void;
  onDismiss: () => void;
}

/** What the app has to say above the main area: an update, runs to resume, errors, notices. */
export function Banners({
  interrupted,
  running,
  busyElsewhere,
  error,
  notice,
  onResume,
  onDismissRuns,
  onDismiss,
}: Props) {
  return (
    <div class="banners">
      <UpdatePrompt />
      <ResumeBanner
        runs={interrupted}
        disabled={running}
        onResume={onResume}
        onDismiss={onDismissRuns}
      />
      {busyElsewhere && (
        <p class="banner busy" role="status">
          This session is running in another tab. It updates here live; you can act on it once that
          run ends.
        </p>
      )}
      {error && (
        <p class="banner error" role="alert">
          {error}{' '}
          <button type="button" class="quiet" onClick={onDismiss}>
            Dismiss
          </button>
        </p>
      )}
      {notice && (
        <p class="banner notice" role="status">
          {notice}{' '}
          <button type="button" class="quiet" onClick={onDismiss}>
            OK
          </button>
        </p>
      )}
    </div>
  );
}
