import type { Flow } from '../flows/flow.ts';
import type { FlowProgress } from './checkpoints-model.ts';
import { useMemo } from 'preact/hooks';
import { graphLabel, progressWord } from './flow-graph-model.ts';
import { pure } from './pure.ts';
import { FlowCanvas } from './canvas/index.tsx';
import type { LooseFlow } from './canvas/canvas-model.ts';

interface Props {
  flow: Flow;
  progress: FlowProgress;
  /** The run waits for an approval. */
  waiting: boolean;
  /** The node to centre (a checkpoint row chosen). */
  focus?: string | undefined;
}

/** A flow session's graph, its running node(s) highlighted as the events come in. */
function FlowPanelView({ flow, progress, waiting, focus }: Props) {
  const { current, visited, running } = progress;
  const marks = useMemo(
    () => ({ current, visited, running, waiting }),
    [current, visited, running, waiting],
  );
  return (
    <section class="panel flow" aria-label="Flow">
      <h2>
        Flow <span class="hint">{flow.name}</span>
      </h2>
      {/* The same canvas as the Flows view's, read-only: where the run is, lit. */}
      <FlowCanvas
        flow={flow as unknown as LooseFlow}
        readOnly
        marks={marks}
        label={graphLabel(flow.name, current, running, waiting)}
        focus={focus}
      />
      <p class="hint flow-status" aria-live="polite">
        {current.length > 0
          ? `${capitalised(progressWord(running, waiting))} ${current.join(', ')}`
          : visited.length > 0
            ? 'The last run went through the highlighted nodes.'
            : 'Send a message to run the flow.'}
      </p>
    </section>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export const FlowPanel = pure(FlowPanelView);
