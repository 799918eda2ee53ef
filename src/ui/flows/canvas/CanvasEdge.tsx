// An edge of the flow canvas: xyflow's curve with its label (a condition's output), and, once
// selected on an editable canvas, a button on it that deletes it, as Flowise's edges have, so a
// mouse alone can delete an edge (Delete or Backspace does too).

import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import {
  applyEdgeChanges,
  BaseEdge,
  EdgeLabelRenderer,
  getBezierPath,
  useReactFlow,
  type Edge,
  type EdgeChange,
  type EdgeProps,
} from '@xyflow/react';
import { isLoopJump, type canvasGraph } from './canvas-model.ts';

export type FlowEdgeData = { removable: boolean; name: string };
export type CanvasFlowEdge = Edge<FlowEdgeData, 'flow'>;

export function CanvasEdge(props: EdgeProps<CanvasFlowEdge>) {
  const { id, selected, data, label, markerEnd, style } = props;
  const [path, labelX, labelY] = getBezierPath(props);
  const flowApi = useReactFlow();
  return (
    <>
      <BaseEdge
        id={id}
        path={path}
        labelX={labelX}
        labelY={labelY}
        label={label}
        labelBgPadding={[3, 1]}
        interactionWidth={props.interactionWidth ?? 16}
        {...(markerEnd ? { markerEnd } : {})}
        {...(style ? { style } : {})}
      />
      {selected && data?.removable && (
        <EdgeLabelRenderer>
          <button
            type="button"
            class="edge-delete nodrag nopan"
            style={{
              transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY + (label ? 16 : 0)}px)`,
            }}
            aria-label={`Delete the ${data.name}`}
            title="Delete this edge"
            onClick={() => void flowApi.deleteElements({ edges: [{ id }] })}
          >
            ×
          </button>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

/**
 * The canvas's edges: the flow's, drawn, and the canvas's own copy of them, as for the nodes: a
 * click (or Enter on a focused edge) selects one, and Delete then deletes it through the
 * canvas's onDelete; the flow's edges replace them when the flow changes, keeping what is
 * selected.
 */
export function useCanvasEdges(
  graph: ReturnType<typeof canvasGraph>,
  readOnly: boolean,
): [CanvasFlowEdge[], (changes: EdgeChange<CanvasFlowEdge>[]) => void] {
  const drawnEdges = useMemo(
    () =>
      graph.edges.map((edge): CanvasFlowEdge => {
        const name = `edge from ${edge.source}${edge.label ? ` (${edge.label})` : ''} to ${edge.target}`;
        return {
          id: edge.id,
          type: 'flow',
          data: { removable: !readOnly, name },
          source: edge.source,
          target: edge.target,
          sourceHandle: edge.sourceHandle,
          ...(edge.label ? { label: edge.label } : {}),
          className: isLoopJump(edge.id) ? 'loop-jump' : undefined,
          // A loop's jump back too: deleting it leaves the loop without a target.
          deletable: !readOnly,
          selectable: !readOnly,
          focusable: !readOnly,
          // Wide enough to hit with a mouse, not only the 1px line.
          interactionWidth: 16,
          ariaLabel: readOnly ? name : `${name}: Enter selects it, then Delete deletes it`,
        };
      }),
    [graph, readOnly],
  );
  const [edges, setEdges] = useState<CanvasFlowEdge[]>(drawnEdges);
  useEffect(() => {
    setEdges((current) => {
      const chosen = new Set(current.filter((edge) => edge.selected).map((edge) => edge.id));
      return drawnEdges.map((edge) => (chosen.has(edge.id) ? { ...edge, selected: true } : edge));
    });
  }, [drawnEdges]);
  const onEdgesChange = useCallback(
    (changes: EdgeChange<CanvasFlowEdge>[]) =>
      // Removals come through onDelete, as one edit of the flow.
      setEdges((current) =>
        applyEdgeChanges(
          changes.filter((c) => c.type !== 'remove'),
          current,
        ),
      ),
    [],
  );

  return [edges, onEdgesChange];
}
