import type { InterruptedRun } from '../../workers/protocol.ts';

interface Props {
  runs: InterruptedRun[];
  disabled: boolean;
  onResume: (run: InterruptedRun) => void;
}

/** Runs a reload, a crash or Stop cut off, each with its Resume button. */
export function ResumeBanner({ runs, disabled, onResume }: Props) {
  const interrupted = runs.filter((run) => run.status === 'interrupted');
  if (interrupted.length === 0) return null;
  return (
    <section class="banner resume" aria-label="Interrupted runs">
      <p>
        {interrupted.length === 1 ? 'A run was' : `${interrupted.length} runs were`} cut off (a
        reload, a crash or Stop). Nothing that was saved is lost; resume to finish.
      </p>
      <ul>
        {interrupted.map((run) => (
          <li key={run.invocationId}>
            <button type="button" class="primary" disabled={disabled} onClick={() => onResume(run)}>
              Resume “{run.sessionTitle}”
            </button>{' '}
            <span class="hint">
              {run.agentName}, {new Date(run.updatedAt).toLocaleTimeString()}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
