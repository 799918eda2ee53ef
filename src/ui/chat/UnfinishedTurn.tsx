import type { TurnRun } from './turn-run-model.ts';

interface Props {
  turn: TurnRun;
  /** A run holds the session (here or in another tab). */
  disabled: boolean;
  onResume: (invocationId: string) => void;
}

const TITLES: Record<TurnRun['action'], string> = {
  Continue: 'Go on from what the answer had said',
  Retry: 'Ask the model again, from where the run stopped: what it did is not done twice',
  Resume: 'Finish the run from where it stopped: nothing saved is lost or done twice',
};

/** The end of a turn whose run did not finish: why, and Continue, Retry or Resume. */
export function UnfinishedTurn({ turn, disabled, onResume }: Props) {
  return (
    <li class="unfinished-turn">
      {turn.note && <span>{turn.note}</span>}
      <button
        type="button"
        class="primary"
        disabled={disabled}
        title={TITLES[turn.action]}
        onClick={() => onResume(turn.invocationId)}
      >
        {turn.action}
      </button>
    </li>
  );
}
