import type { InterruptedRun, RunCause } from '../../../workers/protocol.ts';
import { clip, TITLE_CHARS } from '../common/preview.ts';

interface Props {
  /** The open session's runs to list (not the one its chat's last turn offers itself). */
  runs: InterruptedRun[];
  disabled: boolean;
  onResume: (run: InterruptedRun) => void;
  /** Hides these runs from the banner (each turn keeps its own action). */
  onDismiss: (invocationIds: string[]) => void;
}

/** How many cut-off runs show before the rest fold away (the banner never fills the chat). */
const SHOWN = 2;

/**
 * The open session's runs that were cut off, each named by its turn, with why it stopped and its
 * Resume button; Dismiss hides them. Nothing that was saved is lost: resuming finishes the run
 * from where it stopped. On a phone it keeps to a line or two (styles.css).
 */
export function ResumeBanner({ runs, disabled, onResume, onDismiss }: Props) {
  const interrupted = runs.filter((run) => run.status === 'interrupted');
  if (interrupted.length === 0) return null;
  const item = (run: InterruptedRun) => {
    const turn = run.turnText || clip(run.sessionTitle, TITLE_CHARS);
    // On a phone the row keeps to one line: the turn and why, cut short (styles.css).
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
        <span class="run-text">
          “{turn}”<span class="hint"> {reasonOf(run)}</span>
          <span class="hint run-when">
            {' '}
            ({run.agentName}, {new Date(run.updatedAt).toLocaleTimeString()})
          </span>
        </span>
      </li>
    );
  };
  return (
    <section class="banner resume" aria-label="Interrupted runs">
      <p class="resume-lead">
        {interrupted.length === 1
          ? 'A run of this session stopped before it finished.'
          : `${interrupted.length} runs of this session stopped before they finished.`}{' '}
        <span class="hint">Nothing that was saved is lost: resume to finish.</span>
      </p>
      <button
        type="button"
        class="quiet dismiss"
        title="Hide this: each turn keeps its own Resume"
        onClick={() => onDismiss(interrupted.map((run) => run.invocationId))}
      >
        Dismiss
      </button>
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
