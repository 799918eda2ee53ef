import type { ContextUse } from '../../models/context-windows.ts';
import { contextMeter } from './context-meter-model.ts';

/**
 * The chat header's context meter: "3.1k of 4k tokens" and a bar that takes colour near the
 * limit (a `meter` for assistive technology, with the exact numbers as its value text).
 */
export function ContextMeter({ use }: { use: ContextUse | undefined }) {
  const meter = contextMeter(use);
  if (!meter) return null;
  return (
    <p
      class={`context-meter ${meter.level}`}
      role="meter"
      aria-label="Context"
      aria-valuemin={0}
      aria-valuemax={meter.window ?? meter.tokens}
      aria-valuenow={meter.tokens}
      aria-valuetext={meter.valueText}
      title={meter.title}
    >
      {meter.fill !== undefined && (
        <span class="context-bar" aria-hidden="true">
          <span style={{ width: `${(meter.fill * 100).toFixed(1)}%` }} />
        </span>
      )}
      <span class="context-text">{meter.text}</span>
    </p>
  );
}
