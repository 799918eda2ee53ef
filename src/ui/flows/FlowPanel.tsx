import type { FlowProgress } from '../history/checkpoints-model.ts';
import type { SessionFlow } from '../workbench/open-session-model.ts';
import { useMemo } from 'preact/hooks';
import { graphLabel, progressWord } from './flow-graph-model.ts';
import { pure } from '../common/pure.ts';
import { FlowCanvas } from './canvas/index.tsx';
import type { LooseFlow } from './canvas/loose-flow.ts';

interface Props {
  /** The flow the session ran (its checkpoints are of it), and what to say beside it. */
  shown: SessionFlow;
  progress: FlowProgress;
  /** The run waits for an approval. */
  waiting: boolean;
  /** The node to centre (a checkpoint row chosen). */
  focus?: string | undefined;
}

/** A flow session's graph, its running node(s) highlighted as the events come in. */
function FlowPanelView({ shown, progress, waiting, focus }: Props) {
  const { flow, ranOn, next } = shown;
  const { current, visited, running } = progress;
  const marks = useMemo(
    () => ({ current, visited, running, waiting }),
    [current, visited, running, waiting],
  );
  const nextNote = next && (
    <p class="hint flow-next">
      This is the flow this session ran; the next message goes to <strong>{next}</strong>.
    </p>
  );
  if (!flow)
    return (
      <section class="panel flow" aria-label="Flow">
        <h2>Flow</h2>
        <p class="hint">
          This session ran the flow <code>{ranOn}</code>, which is no longer here (deleted or
          renamed): its checkpoints are still listed.
        </p>
        {nextNote}
      </section>
    );
  return (
    <section class="panel flow" aria-label="Flow">
      <h2>
        Flow <span class="hint">{flow.name}</span>
      </h2>
      {nextNote}
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
          ? `${capitalised(progressWord(running, waiting))} ${nodeNames(flow, current).join(', ')}`
          : visited.length > 0
            ? 'The last run went through the highlighted nodes.'
            : 'Send a message to run the flow.'}
      </p>
    </section>
  );
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Nodes as the canvas names them: by their labels, else their ids. */
function nodeNames(flow: object, ids: readonly string[]): string[] {
  const nodes = (flow as { nodes?: unknown }).nodes;
  const list = Array.isArray(nodes) ? (nodes as { id?: unknown; label?: unknown }[]) : [];
  return ids.map((id) => {
    const label = list.find((node) => node?.id === id)?.label;
    return typeof label === 'string' && label.trim() ? label : id;
  });
}

export const FlowPanel = pure(FlowPanelView);
