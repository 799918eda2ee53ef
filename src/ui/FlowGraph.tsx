import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { Flow } from '../flows/flow.ts';
import { layoutFlow, type LaidOutNode } from './flow-layout.ts';
import { graphLabel, nodeState, shortText } from './flow-graph-model.ts';

interface Props {
  /** The flow (or what the editor holds: it may be incomplete). */
  flow: Pick<Flow, 'nodes' | 'edges'> & { name?: unknown };
  /** Nodes started and not finished: running now, or where the run stopped. */
  current?: readonly string[];
  /** Nodes the run has completed. */
  visited?: readonly string[];
  /** `current` is running now (else it is where the run stopped). */
  running?: boolean;
  /** The run waits for the user (an approval) at `current`. */
  waiting?: boolean;
  /** Nodes with a problem (the editor). */
  problems?: readonly string[];
  /** The largest scale it is drawn at; it shrinks to fit its box down to `minScale`. */
  scale?: number;
  /** Below this it scrolls instead (the side panel). */
  minScale?: number;
  /** Makes the nodes buttons that select a node (the editor's node form). */
  onSelect?: (nodeId: string) => void;
  selected?: string;
}

const NONE: readonly string[] = [];

/** A flow drawn as a graph: nodes left to right, back edges and loop jumps dashed below. */
export function FlowGraph(props: Props) {
  const { flow, current = NONE, visited = NONE, running = false, problems = NONE } = props;
  const waiting = props.waiting ?? false;
  const scale = props.scale ?? 1;
  const minScale = props.minScale ?? 0.5;
  const layout = useMemo(() => layoutFlow(flow), [flow]);
  const scroller = useRef<HTMLDivElement>(null);
  const focus = current[0];

  // Keep the running node in view as the run moves through a wide graph.
  useEffect(() => {
    const box = layout.nodes.find((node) => node.id === focus);
    const element = scroller.current;
    if (!box || !element) return;
    const drawn = element.scrollWidth / layout.width; // the scale it is drawn at now
    const left = box.x * drawn - (element.clientWidth - box.width * drawn) / 2;
    element.scrollTo({ left: Math.max(0, left), behavior: 'smooth' });
  }, [focus, layout]);

  const label = graphLabel(flow.name, current, running, waiting);
  return (
    // It scrolls sideways when the graph is wide: focusable, so that the keyboard can scroll it.
    <div
      class="flow-graph"
      ref={scroller}
      tabIndex={0}
      role="group"
      aria-label={`Graph of ${flow.name}`}
    >
      <svg
        // A picture, unless its nodes are buttons (the editor): an image has no controls inside.
        role={props.onSelect ? 'group' : 'img'}
        aria-label={label}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        style={{
          maxWidth: `${layout.width * scale}px`,
          minWidth: `${layout.width * minScale}px`,
        }}
      >
        <defs>
          <marker
            id="flow-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto-start-reverse"
          >
            <path d="M 0 0 L 10 5 L 0 10 z" class="arrow-head" />
          </marker>
        </defs>
        {layout.edges.map((edge) => (
          <path
            key={`${edge.from}>${edge.to}>${edge.kind}>${edge.label ?? ''}`}
            class={`edge ${edge.kind}`}
            d={edge.path}
            marker-end="url(#flow-arrow)"
          />
        ))}
        {layout.edges.map((edge) =>
          edge.label ? (
            <text
              key={`label ${edge.from}>${edge.to}>${edge.kind}>${edge.label}`}
              class="edge-label"
              x={edge.labelX}
              y={edge.labelY}
            >
              {shortText(edge.label, 16)}
            </text>
          ) : null,
        )}
        {layout.nodes.map((node) => (
          <NodeBox
            key={node.id}
            node={node}
            state={nodeState(node.id, { current, visited, running, waiting, problems })}
            selected={props.selected === node.id}
            onSelect={props.onSelect}
          />
        ))}
      </svg>
    </div>
  );
}

function NodeBox({
  node,
  state,
  selected,
  onSelect,
}: {
  node: LaidOutNode;
  state: ReturnType<typeof nodeState>;
  selected: boolean;
  onSelect: ((nodeId: string) => void) | undefined;
}) {
  const choose = onSelect && (() => onSelect(node.id));
  return (
    <g
      class={`node type-${node.type} ${state.classes}${selected ? ' selected' : ''}${choose ? ' selectable' : ''}`}
      transform={`translate(${node.x} ${node.y})`}
      aria-current={state.running ? 'step' : undefined}
      {...(choose
        ? {
            role: 'button',
            // SVG takes the attribute as written: `tabindex`, lower case (`tabIndex` would not focus).
            tabindex: 0,
            // Its name starts with what it shows (the id, then the type line), then says what it does.
            'aria-label': `${shortText(node.id, 17)} ${typeLine(node, state)}, edit`,
            'aria-pressed': selected,
            onClick: choose,
            onKeyDown: (event: KeyboardEvent) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              choose();
            },
          }
        : {})}
    >
      <title>{`${node.label} (${node.type})${state.title ? `: ${state.title}` : ''}`}</title>
      <rect width={node.width} height={node.height} rx="9" />
      {/* One text, so that what it shows reads as "id type" (a button's name starts with it). */}
      <text>
        <tspan class="node-id" x={12} y={20}>
          {shortText(node.id, 17)}
        </tspan>{' '}
        <tspan class="node-type" x={12} y={37}>
          {typeLine(node, state)}
        </tspan>
      </text>
    </g>
  );
}

/** The second line of a node's box: its type, and where a run is at it. */
function typeLine(node: LaidOutNode, state: ReturnType<typeof nodeState>): string {
  return state.title ? `${node.type} · ${state.title}` : node.type;
}
