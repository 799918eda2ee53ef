import type { InterruptedRun } from '../../workers/protocol.ts';
import { clip, TITLE_CHARS } from './preview.ts';

interface Props {
  runs: InterruptedRun[];
  disabled: boolean;
  onResume: (run: InterruptedRun) => void;
}

/** Runs a reload, a crash, Stop or a lost connection cut off, each with its Resume button. */
export function ResumeBanner({ runs, disabled, onResume }: Props) {
  const interrupted = runs.filter((run) => run.status === 'interrupted');
  if (interrupted.length === 0) return null;
  return (
    <section class="banner resume" aria-label="Interrupted runs">
      <p>
        {interrupted.length === 1 ? 'A run was' : `${interrupted.length} runs were`} cut off (a
        reload, a crash, Stop, a model that could not be reached or storage that failed). Nothing
        that was saved is lost; resume to finish.
      </p>
      <ul>
        {interrupted.map((run) => (
          <li key={run.invocationId}>
            <button type="button" class="primary" disabled={disabled} onClick={() => onResume(run)}>
              Resume “{clip(run.sessionTitle, TITLE_CHARS)}”
            </button>{' '}
            <span class="hint">
              {run.agentName}, {new Date(run.updatedAt).toLocaleTimeString()}
              {run.error && `: ${firstSentence(run.error.message)}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** "Could not reach Ollama at http://localhost:11434 (4 attempts)." of a longer message. */
function firstSentence(message: string): string {
  return /^.*?[.!?](?=\s|$)/.exec(message)?.[0] ?? message;
}
