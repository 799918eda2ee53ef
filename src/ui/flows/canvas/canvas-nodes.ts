// What the canvas hands xyflow for each thing it draws: a node's box, an Iteration group (a box
// its children are drawn in, by xyflow's `parentId`), a sticky note; with what each says to a
// screen reader, and whether one drawn before can be kept (xyflow then keeps what it measured).

import type { Node } from '@xyflow/react';
import { nodeState, shortText, type NodeMarks, type NodeState } from '../flow-graph-model.ts';
import { NODE_WIDTH } from '../flow-layout.ts';
import type { canvasGraph, CanvasNode } from './canvas-model.ts';
import type { CanvasNote } from './canvas-notes.ts';

export type BoxData = { box: CanvasNode; state: NodeState; readOnly: boolean };
export type NoteData = { note: CanvasNote; readOnly: boolean };
export type BoxNode = Node<BoxData, 'box'>;
export type GroupNode = Node<BoxData, 'iteration'>;
export type NoteNode = Node<NoteData, 'note'>;
export type DrawnNode = BoxNode | GroupNode | NoteNode;

/** The canvas's nodes: notes first (under the rest), then groups, then the nodes they hold. */
export function drawnNodes(
  graph: ReturnType<typeof canvasGraph>,
  marks: Partial<NodeMarks> | undefined,
  readOnly: boolean,
): DrawnNode[] {
  const notes = graph.notes.map((note): NoteNode => ({
    id: note.key,
    type: 'note',
    position: note.position,
    width: note.size.width,
    height: note.size.height,
    data: { note, readOnly },
    deletable: !readOnly,
    connectable: false,
    ariaRole: readOnly ? 'img' : 'group',
    ariaLabel: `Sticky note: ${shortText(note.text.trim() || 'empty', 80)}`,
  }));
  const boxes = graph.nodes.map((box): BoxNode | GroupNode => {
    const state = nodeState(box.id, runMarks(marks));
    const common = {
      id: box.id,
      position: box.position,
      data: { box, state, readOnly },
      deletable: !readOnly,
      connectable: !readOnly,
      // Its name starts with what it shows (the id, then the type), then what it does.
      ariaRole: readOnly ? ('img' as const) : ('button' as const),
      ariaLabel: `${visibleText(box, state.title)}${readOnly ? '' : ', edit'}`,
      ...(box.parent ? { parentId: box.parent } : {}),
    };
    if (box.size)
      return { ...common, type: 'iteration', width: box.size.width, height: box.size.height };
    return {
      ...common,
      type: 'box',
      // Drawn at once at about its size (measured right after): xyflow hides a node it has
      // no size for until it has measured it, a frame or two later.
      initialWidth: NODE_WIDTH,
      initialHeight: 40 + 16 * box.outputs.filter((output) => output.label).length,
    };
  });
  return [...notes, ...boxes];
}

/** What a node's box shows, in order: its name starts with it (what is seen is what is said). */
export function visibleText(box: CanvasNode, title: string | undefined): string {
  const outputs = box.outputs.filter((o) => o.label).map((o) => shortText(o.label, 16));
  return [shortText(box.label, 24), `${box.type}${title ? ` · ${title}` : ''}`, ...outputs].join(
    ' ',
  );
}

/** Whether a node drawn before shows what `next` shows (then the old object is kept). */
export function sameNode(old: DrawnNode, next: DrawnNode): boolean {
  return (
    old.type === next.type &&
    old.ariaLabel === next.ariaLabel &&
    old.parentId === next.parentId &&
    old.width === next.width &&
    old.height === next.height &&
    JSON.stringify(old.data) === JSON.stringify(next.data)
  );
}

export function runMarks(marks: Partial<NodeMarks> | undefined): NodeMarks {
  return {
    current: marks?.current ?? [],
    visited: marks?.visited ?? [],
    running: marks?.running ?? false,
    waiting: marks?.waiting ?? false,
    problems: marks?.problems ?? [],
    noted: marks?.noted ?? [],
  };
}
