// An Iteration node as the canvas draws it (Flowise V2's Iteration): a box that holds the nodes
// it runs once per item, resized by its edges and corners once selected, its name on top, its
// input on the left and its output on the right as any node's.

import { Handle, NodeResizer, Position, type NodeProps } from '@xyflow/react';
import { useContext } from 'preact/hooks';
import { shortText } from '../flow-graph-model.ts';
import { GROUP_MIN_SIZE } from '../flow-layout.ts';
import { CanvasActionsContext } from './canvas-actions.ts';
import { OUT_HANDLE } from './canvas-model.ts';
import type { GroupNode } from './canvas-nodes.ts';

export function IterationGroup({ id, data, selected }: NodeProps<GroupNode>) {
  const { box, state, readOnly } = data;
  const actions = useContext(CanvasActionsContext);
  return (
    <div
      class={`canvas-group type-${box.type} ${state.classes}`}
      title={`${box.label} (${box.type})${state.title ? `: ${state.title}` : ''}`}
    >
      {!readOnly && (
        <NodeResizer
          isVisible={!!selected}
          minWidth={GROUP_MIN_SIZE.width}
          minHeight={GROUP_MIN_SIZE.height}
          onResizeEnd={(_, box) => actions?.resized(id, box)}
        />
      )}
      {box.input && <Handle type="target" position={Position.Left} />}
      <div class="group-head">
        <span class="node-id">{shortText(box.label, 32)}</span>{' '}
        <span class="node-type">
          {box.type}
          {state.title ? ` · ${state.title}` : ''}
        </span>
      </div>
      <Handle type="source" position={Position.Right} id={OUT_HANDLE} />
    </div>
  );
}
