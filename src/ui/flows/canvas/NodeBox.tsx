// A node of the flow canvas as xyflow draws it: its box (name, type, where a run is at it, one
// output handle per rule or scenario), and what the canvas needs to know of it.

import { Handle, Position, type Node, type NodeProps } from '@xyflow/react';
import { nodeState, shortText, type NodeMarks } from '../flow-graph-model.ts';
import type { CanvasNode } from './canvas-model.ts';

export type BoxData = { box: CanvasNode; state: ReturnType<typeof nodeState>; readOnly: boolean };
export type BoxNode = Node<BoxData, 'box'>;

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

/** What a node's box shows, in order: its name starts with it (what is seen is what is said). */
export function visibleText(box: CanvasNode, title: string | undefined): string {
  const outputs = box.outputs.filter((o) => o.label).map((o) => shortText(o.label, 16));
  return [shortText(box.label, 24), `${box.type}${title ? ` · ${title}` : ''}`, ...outputs].join(
    ' ',
  );
}

/** Whether a node drawn before shows what `next` shows (then the old object is kept). */
export function sameBox(old: BoxNode, next: BoxNode): boolean {
  const a = old.data;
  const b = next.data;
  return (
    a.readOnly === b.readOnly &&
    a.state.classes === b.state.classes &&
    a.state.title === b.state.title &&
    old.ariaLabel === next.ariaLabel &&
    JSON.stringify(a.box) === JSON.stringify(b.box)
  );
}

export function runMarks(marks: Partial<NodeMarks> | undefined): NodeMarks {
  return {
    current: marks?.current ?? [],
    visited: marks?.visited ?? [],
    running: marks?.running ?? false,
    waiting: marks?.waiting ?? false,
    problems: marks?.problems ?? [],
  };
}
