import type { VersionStep } from '../history/history-model.ts';

interface Props {
  step: VersionStep;
  /** What is counted: "version" (of a message) or "answer". */
  noun: 'version' | 'answer';
  disabled: boolean;
  onSwitch: (invocationId: string) => void;
}

/**
 * ‹ 2 / 3 ›: switches between the versions of a message, or the answers to it. Always shown
 * (not only on hover): it says that there is more than one.
 */
export function VersionArrows({ step, noun, disabled, onSwitch }: Props) {
  const { previous, next } = step;
  return (
    <span class="versions">
      <button
        type="button"
        class="quiet"
        aria-label={`Previous ${noun}`}
        disabled={disabled || !previous}
        onClick={() => previous && onSwitch(previous)}
      >
        ‹
      </button>
      <span aria-hidden="true">
        {step.index} / {step.count}
      </span>
      <span class="visually-hidden">
        {noun === 'answer' ? 'Answer' : 'Version'} {step.index} of {step.count}
      </span>
      <button
        type="button"
        class="quiet"
        aria-label={`Next ${noun}`}
        disabled={disabled || !next}
        onClick={() => next && onSwitch(next)}
      >
        ›
      </button>
    </span>
  );
}
