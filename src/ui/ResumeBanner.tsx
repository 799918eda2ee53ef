import type { InterruptedRun, RunCause } from '../../workers/protocol.ts';
import { clip, TITLE_CHARS } from './preview.ts';

interface Props {
  runs: InterruptedRun[];
  disabled: boolean;
  onResume: (run: InterruptedRun) => void;
}

/** How many cut-off runs show before the rest fold away (the banner never fills the chat). */
const SHOWN = 2;

/**
 * The runs that were cut off, each named by its turn, with why it stopped and its Resume button.
 * Nothing that was saved is lost: resuming finishes the run from where it stopped.
 */
export function ResumeBanner({ runs, disabled, onResume }: Props) {
  const interrupted = runs.filter((run) => run.status === 'interrupted');
  if (interrupted.length === 0) return null;
  const item = (run: InterruptedRun) => {
    const title = clip(run.sessionTitle, TITLE_CHARS);
    const turn = run.turnText || title;
    return (
      <li key={run.invocationId}>
        <button
          type="button"
          class="primary"
          disabled={disabled}
          aria-label={`Resume “${turn}”`}
          onClick={() => onResume(run)}
        >
          Resume
        </button>{' '}
        <span>
          “{turn}”{run.turnText && title !== run.turnText && <span class="hint"> in {title}</span>}
          <span class="hint">
            {' '}
            {reasonOf(run)} ({run.agentName}, {new Date(run.updatedAt).toLocaleTimeString()})
          </span>
        </span>
      </li>
    );
  };
  return (
    <section class="banner resume" aria-label="Interrupted runs">
      <p>
        {interrupted.length === 1
          ? 'A run stopped before it finished.'
          : `${interrupted.length} runs stopped before they finished.`}{' '}
        Nothing that was saved is lost: resume to finish.
      </p>
      <ul>{interrupted.slice(0, SHOWN).map(item)}</ul>
      {interrupted.length > SHOWN && (
        <details>
          <summary>{interrupted.length - SHOWN} more</summary>
          <ul>{interrupted.slice(SHOWN).map(item)}</ul>
        </details>
      )}
    </section>
  );
}

const REASONS: Record<Exclude<RunCause, 'failed'>, string> = {
  'cut-off': 'was cut off by a reload, a crash or a closed tab',
  stopped: 'was stopped',
  rewound: 'was rewound to a checkpoint, and goes on from there',
  waiting: 'waits for an answer',
};

function reasonOf(run: InterruptedRun): string {
  if (run.cause !== 'failed') return REASONS[run.cause];
  return run.error ? `stopped: ${firstSentence(run.error.message)}` : 'stopped on a failure';
}

/** "Could not reach Ollama at http://localhost:11434 (4 attempts)." of a longer message. */
function firstSentence(message: string): string {
  return /^.*?[.!?](?=\s|$)/.exec(message)?.[0] ?? message;
}
