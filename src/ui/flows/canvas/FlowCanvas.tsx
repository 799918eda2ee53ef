// The flow canvas: xyflow (React Flow, the canvas Flowise is built on) through preact/compat, in
// its own chunk (loaded by canvas/index.tsx only when a canvas is shown). It draws the flow the
// editor holds (its nodes, Iteration groups and sticky notes) and hands every edit back as a
// whole new flow (canvas-model.ts); while a node is dragged or resized only the canvas moves it,
// and the flow takes its place (and its group) when the drag ends.

import '@xyflow/react/dist/style.css';
import './canvas.css';
import './svg-tabindex.ts';
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  applyNodeChanges,
  useReactFlow,
  type Connection,
  type NodeChange,
  type NodePositionChange,
} from '@xyflow/react';
import { memo } from 'preact/compat';
import { useCallback, useEffect, useMemo, useRef } from 'preact/hooks';
import type { NodeMarks } from '../flow-graph-model.ts';
import { GROUP_SIZE, NODE_HEIGHT, NODE_WIDTH } from '../flow-layout.ts';
import { NodeBox } from './NodeBox.tsx';
import { IterationGroup } from './IterationGroup.tsx';
import { StickyNote } from './StickyNote.tsx';
import { CanvasToolbar, DRAG_TYPE, NOTE_ITEM } from './CanvasToolbar.tsx';
import { CanvasEdge, useCanvasEdges, type CanvasFlowEdge } from './CanvasEdge.tsx';
import { FocusNode } from './FocusNode.tsx';
import { CanvasActionsContext, type CanvasActions } from './canvas-actions.ts';
import { drawnNodes, type DrawnNode } from './canvas-nodes.ts';
import { useDarkMode } from './use-dark-mode.ts';
import { useDrawnNodes } from './use-drawn-nodes.ts';
import { useCanvasKeys } from './use-canvas-keys.ts';
import {
  addNode,
  canvasGraph,
  connect,
  copyNodes,
  isNodeType,
  pasteNodes,
  removeElements,
  tidy,
  withDrawnPlaces,
  withPositions,
  type Clip,
} from './canvas-model.ts';
import { dropNodes, withSizes, type Drop } from './canvas-groups.ts';
import {
  NOTE_SIZE,
  addNote,
  noteIdOf,
  noteKey,
  placeNotes,
  removeNotes,
  withNoteText,
} from './canvas-notes.ts';
import type { LooseFlow, Point } from './loose-flow.ts';

export interface FlowCanvasProps {
  flow: LooseFlow;
  /** Drawn only: no palette, no edits (a session's run, an example flow). */
  readOnly: boolean;
  /** What to light: the run's current and finished nodes, and the nodes with a problem. */
  marks?: Partial<NodeMarks>;
  selected?: string | undefined;
  onSelect?: (nodeId: string | undefined) => void;
  /** An edit, as the whole new flow; `typing`: a keystroke (those close together are one step). */
  onChange?: (flow: LooseFlow, options?: { typing?: boolean }) => void;
  /** An edit the canvas refused, said to the user (an edge into Start, say). */
  onRefused?: (message: string) => void;
  onUndo?: () => void;
  onRedo?: () => void;
  /** Opens the flow's State keys (Flowise's State node: a table of the flow, not a node). */
  onOpenState?: () => void;
  /** The canvas's accessible name. */
  label: string;
  /** Centre this node (a checkpoint row clicked). */
  focus?: string | undefined;
}

const NODE_TYPES = { box: memo(NodeBox), iteration: memo(IterationGroup), note: memo(StickyNote) };
const EDGE_TYPES = { flow: CanvasEdge };
/**
 * A session's panel and a phone's canvas are narrow: their nodes stay readable there (drag to
 * see the rest; the controls zoom out further).
 */
const FIT_VIEW = {
  editable: { padding: 0.15, maxZoom: 1.2, minZoom: 0.5 },
  readOnly: { padding: 0.15, maxZoom: 1.2, minZoom: 0.6 },
} as const;
/** What Copy took, for Paste (in this page: a node is no text to put on the clipboard). */
let clipboard: Clip | undefined;

export default function FlowCanvas(props: FlowCanvasProps) {
  return (
    <ReactFlowProvider>
      <Canvas {...props} />
    </ReactFlowProvider>
  );
}

function Canvas(props: FlowCanvasProps) {
  const { flow, readOnly, marks, selected, onChange } = props;
  const graph = useMemo(() => canvasGraph(flow), [flow]);
  const flowApi = useReactFlow();
  const wrapper = useRef<HTMLDivElement>(null);
  const pastes = useRef(0);
  const dark = useDarkMode();
  const drawn = useMemo(() => drawnNodes(graph, marks, readOnly), [graph, marks, readOnly]);
  // The canvas's own copy while the user drags and selects; the flow's when the flow changes.
  const [nodes, setNodes] = useDrawnNodes(drawn, selected);
  // The node whose form is open: chosen on the canvas (and said to the view), or from outside
  // (added from the palette), when it alone is selected. The canvas says what the user chose
  // (xyflow's select changes: a click, Enter on a node, a box drawn round nodes), never what it
  // was told to select, and each side acts only on what the other did not say last: the two
  // never answer each other in a loop.
  const reported = useRef<string | undefined>(selected);
  const latest = useRef(nodes);
  latest.current = nodes;
  const onSelect = useRef(props.onSelect);
  onSelect.current = props.onSelect;
  useEffect(() => {
    if (selected === reported.current) return;
    reported.current = selected;
    if (selected === undefined) return;
    setNodes((current) => current.map((node) => ({ ...node, selected: node.id === selected })));
  }, [selected]);

  const [edges, onEdgesChange] = useCanvasEdges(graph, readOnly);
  // A canvas drawn while hidden (a phone's Flow pane not chosen yet) had no size to fit the
  // flow to: it fits once it is shown.
  useEffect(() => {
    const pane = wrapper.current;
    if (!pane || typeof ResizeObserver === 'undefined') return;
    let hidden = pane.clientWidth === 0;
    const observer = new ResizeObserver(() => {
      const now = pane.clientWidth === 0;
      if (hidden && !now) void flowApi.fitView(FIT_VIEW[readOnly ? 'readOnly' : 'editable']);
      hidden = now;
    });
    observer.observe(pane);
    return () => observer.disconnect();
  }, [flowApi, readOnly]);

  // The first edit saves where everything is drawn: from then on nothing moves but what the
  // user moves (a node without a position is placed by the automatic layout, which changes as
  // the graph does).
  const change = (next: LooseFlow, options?: { typing?: boolean }) =>
    onChange?.(withDrawnPlaces(next, flow), options);
  // Whether a drag is under way (its moves say `dragging`; its end comes through onNodeDragStop).
  const dragging = useRef(false);
  const onNodesChange = useCallback((changes: NodeChange<DrawnNode>[]) => {
    // Removals come through onDelete, as one edit of the flow.
    const kept = changes.filter((c) => c.type !== 'remove');
    setNodes((current) => applyNodeChanges(kept, current));
    // A move that is no drag's is the arrow keys' (on a selected node): saved as it happens, the
    // key presses close together one step of Undo.
    const moves = kept.filter(
      (c): c is NodePositionChange => c.type === 'position' && c.dragging !== undefined,
    );
    if (moves.some((c) => c.dragging)) dragging.current = true;
    else if (moves.length > 0 && dragging.current) dragging.current = false;
    else if (moves.length > 0) {
      const at = new Map(latest.current.map((node) => [node.id, node]));
      movedByKeys.current(
        moves.flatMap((c) => {
          const node = at.get(c.id);
          return node && c.position ? [{ ...node, position: c.position }] : [];
        }),
      );
    }
    if (!kept.some((c) => c.type === 'select')) return;
    // A note has no form: choosing one opens none.
    const chosen = applyNodeChanges(kept, latest.current).filter((node) => node.selected);
    const id = chosen.length === 1 && chosen[0]!.type !== 'note' ? chosen[0]!.id : undefined;
    if (id === undefined || id === reported.current) return;
    reported.current = id;
    onSelect.current?.(id);
  }, []);

  const at = (clientX: number, clientY: number): Point =>
    flowApi.screenToFlowPosition({ x: clientX, y: clientY });
  const centre = (): Point => {
    const rect = wrapper.current?.getBoundingClientRect();
    return rect ? at(rect.left + rect.width / 2, rect.top + rect.height / 2) : { x: 0, y: 0 };
  };
  /** A new node or note with its middle at `middle`. */
  const add = (type: string, middle: Point) => {
    if (type === NOTE_ITEM.type) {
      const added = addNote(flow, topLeft(middle, NOTE_SIZE));
      change(added.flow);
      typeInto.current = added.id;
      return;
    }
    if (!isNodeType(type)) return;
    const size = type === 'iteration' ? GROUP_SIZE : { width: NODE_WIDTH, height: NODE_HEIGHT };
    const added = addNode(flow, type, topLeft(middle, size));
    change(added.flow);
    if (added.refused) props.onRefused?.(added.refused);
    props.onSelect?.(added.id);
  };
  // A note just added takes the keyboard, to be typed in (once the canvas has drawn it).
  const typeInto = useRef<string | undefined>(undefined);
  useEffect(() => {
    const id = typeInto.current;
    const box = id && wrapper.current?.querySelector(`[data-id="${CSS.escape(noteKey(id))}"]`);
    if (!box) return;
    typeInto.current = undefined;
    box.querySelector('textarea')?.focus();
  }, [nodes]);

  // What the nodes drawn ask: a note typed in, a group or a note resized.
  const actions = useRef<CanvasActions>(undefined!);
  actions.current = {
    noteText: (id, text) => change(withNoteText(flow, id, text), { typing: true }),
    resized: (key, box) => {
      const note = noteIdOf(key);
      if (note !== undefined) {
        change(placeNotes(flow, new Map([[note, { position: box, size: box }]])));
        return;
      }
      // A group resized by its top or left side moved: the canvas kept its children where they
      // were, which is now elsewhere relative to it.
      const children = flowApi
        .getNodes()
        .filter((node) => node.parentId === key)
        .map((node) => [node.id, node.position] as const);
      const moves = new Map<string, Point>([[key, box], ...children]);
      change(withSizes(withPositions(flow, moves), new Map([[key, box]])));
    },
  };
  const canvasActions = useMemo<CanvasActions>(
    () => ({
      noteText: (id, text) => actions.current.noteText(id, text),
      resized: (key, box) => actions.current.resized(key, box),
    }),
    [],
  );
  /**
   * Nodes and notes moved (a drag ended, or arrow keys pressed on them): where they are now,
   * each node in the group it was left over, or out of any.
   */
  const moved = (
    nodes: readonly Pick<DrawnNode, 'id' | 'position' | 'measured'>[],
    options?: { typing?: boolean },
  ) => {
    const notes = new Map<string, { position: Point }>();
    const drops: Drop[] = [];
    for (const node of nodes) {
      const note = noteIdOf(node.id);
      if (note !== undefined) notes.set(note, { position: node.position });
      else drops.push({ id: node.id, position: node.position, ...measured(node) });
    }
    const dropped = dropNodes(placeNotes(flow, notes), drops);
    change(dropped.flow, options);
    if (dropped.refused) props.onRefused?.(dropped.refused);
  };
  const movedByKeys = useRef(moved);
  movedByKeys.current = (nodes) => moved(nodes, { typing: true });

  /** The nodes selected (not the notes: they are not copied). */
  const selectedIds = () =>
    nodes.filter((node) => node.selected && node.type !== 'note').map((node) => node.id);

  // Ctrl (or ⌘) with Z, Shift+Z or Y, C, X, V, A: Undo, Redo, Copy, Cut, Paste, select all.
  useCanvasKeys(!readOnly, wrapper, {
    undo: () => props.onUndo?.(),
    redo: () => props.onRedo?.(),
    copy: () => (clipboard = copyNodes(flow, selectedIds()) ?? clipboard),
    cut: () => {
      const ids = selectedIds();
      clipboard = copyNodes(flow, ids) ?? clipboard;
      if (ids.length > 0) change(removeElements(flow, ids));
    },
    paste: () => {
      if (!clipboard) return false;
      pastes.current += 1;
      const step = 40 * pastes.current;
      change(pasteNodes(flow, clipboard, { x: step, y: step }).flow);
    },
    selectAll: () => setNodes((current) => current.map((node) => ({ ...node, selected: true }))),
  });

  return (
    <div class={`flow-canvas${readOnly ? ' read-only' : ''}`}>
      {!readOnly && (
        <CanvasToolbar
          onAdd={(type) => add(type, centre())}
          onOpenState={props.onOpenState}
          onUndo={props.onUndo}
          onRedo={props.onRedo}
          onTidy={() => {
            change(tidy(flow));
            requestAnimationFrame(() => void flowApi.fitView({ duration: 200 }));
          }}
        />
      )}
      <div
        class="canvas-pane"
        ref={wrapper}
        role="group"
        aria-label={props.label}
        onDragOver={(event) => {
          if (readOnly) return;
          event.preventDefault();
          if (event.dataTransfer) event.dataTransfer.dropEffect = 'move';
        }}
        onDrop={(event) => {
          if (readOnly) return;
          event.preventDefault();
          const type = event.dataTransfer?.getData(DRAG_TYPE);
          if (type) add(type, at(event.clientX, event.clientY));
        }}
      >
        <CanvasActionsContext.Provider value={canvasActions}>
          <ReactFlow<DrawnNode, CanvasFlowEdge>
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            edgeTypes={EDGE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onNodeDragStop={(_, __, dragged) => {
              dragging.current = false;
              moved(dragged);
            }}
            onConnect={(connection: Connection) => {
              const next = connect(
                flow,
                connection.source,
                connection.sourceHandle,
                connection.target,
              );
              if ('refused' in next) props.onRefused?.(next.refused);
              else change(next.flow);
            }}
            onDelete={({ nodes: gone, edges: cut }) => {
              const notes = gone.flatMap((node) => noteIdOf(node.id) ?? []);
              const ids = gone.filter((node) => node.type !== 'note').map((node) => node.id);
              const cuts = cut.map((edge) => edge.id);
              change(removeElements(removeNotes(flow, notes), ids, cuts));
            }}
            onPaneClick={() => {
              reported.current = undefined;
              props.onSelect?.(undefined);
            }}
            nodesDraggable={!readOnly}
            nodesConnectable={!readOnly}
            nodesFocusable={!readOnly}
            edgesFocusable={!readOnly}
            elementsSelectable={!readOnly}
            deleteKeyCode={readOnly ? null : ['Delete', 'Backspace']}
            // The wheel scrolls the page, as elsewhere on it; Ctrl+wheel (or a pinch) zooms.
            zoomOnScroll={false}
            preventScrolling={false}
            colorMode={dark ? 'dark' : 'light'}
            fitView
            fitViewOptions={FIT_VIEW[readOnly ? 'readOnly' : 'editable']}
            minZoom={0.1}
            proOptions={{ hideAttribution: true }}
            ariaLabelConfig={{
              'node.a11yDescription.default':
                'Press Enter to select this node, then the arrow keys to move it, Delete to delete it.',
            }}
          >
            <Background />
            <Controls showInteractive={false} />
            {!readOnly && (
              <MiniMap
                pannable
                zoomable
                nodeClassName={(node) => node.type ?? ''}
                ariaLabel="Minimap of the flow"
                style={{ width: 150, height: 100 }}
              />
            )}
            <FocusNode id={props.focus} />
          </ReactFlow>
        </CanvasActionsContext.Provider>
      </div>
    </div>
  );
}

/** Where a box of `size` goes to have its middle at `middle`. */
const topLeft = (middle: Point, size: { width: number; height: number }): Point => ({
  x: middle.x - size.width / 2,
  y: middle.y - size.height / 2,
});

/** A node's size as the canvas measured it, when it has. */
function measured(node: Pick<DrawnNode, 'measured'>): { size?: { width: number; height: number } } {
  const { width, height } = node.measured ?? {};
  return width && height ? { size: { width, height } } : {};
}
