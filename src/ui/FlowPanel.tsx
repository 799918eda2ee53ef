import type { Flow } from '../flows/flow.ts';
import type { FlowProgress } from './checkpoints-model.ts';
import { progressWord } from './flow-graph-model.ts';
import { lazy } from './lazy.tsx';
import { pure } from './pure.ts';

// The graph's layout code loads with the first flow session shown.
const FlowGraph = lazy(() => import('./FlowGraph.tsx').then((m) => m.FlowGraph));

interface Props {
  flow: Flow;
  progress: FlowProgress;
  /** The run waits for an approval. */
  waiting: boolean;
}

/** A flow session's graph, its running node(s) highlighted as the events come in. */
function FlowPanelView({ flow, progress, waiting }: Props) {
  const { current, visited, running } = progress;
  return (
    <section class="panel flow" aria-label="Flow">
      <h2>
        Flow <span class="hint">{flow.name}</span>
      </h2>
      <FlowGraph
        flow={flow}
        current={current}
        visited={visited}
        running={running}
        waiting={waiting}
        scale={0.62}
        minScale={0.55}
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
