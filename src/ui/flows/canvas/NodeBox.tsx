// A node of the flow canvas as xyflow draws it: its box (name, type, where a run is at it, one
// output handle per rule, scenario or answer).

import { Handle, Position, type NodeProps } from '@xyflow/react';
import { shortText } from '../flow-graph-model.ts';
import type { BoxNode } from './canvas-nodes.ts';

/** A node's box: its name and type, where a run is at it, its handles (one per output). */
export function NodeBox({ data }: NodeProps<BoxNode>) {
  const { box, state } = data;
  return (
    <div
      class={`canvas-node type-${box.type} ${state.classes}`}
      title={`${box.label} (${box.type})${state.title ? `: ${state.title}` : ''}`}
    >
      {box.input && <Handle type="target" position={Position.Left} />}
      <span class="node-id">{shortText(box.label, 24)}</span>{' '}
      <span class="node-type">
        {box.type}
        {state.title ? ` · ${state.title}` : ''}
      </span>
      {box.outputs.length > 0 && (
        <ul class="node-outputs">
          {box.outputs.map((output) => (
            <li key={output.id}>
              {output.label && <span class="output-label"> {shortText(output.label, 16)}</span>}
              <Handle type="source" position={Position.Right} id={output.id} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
