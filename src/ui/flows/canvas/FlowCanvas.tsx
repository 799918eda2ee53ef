// The flow canvas: xyflow (React Flow, the canvas Flowise is built on) through preact/compat, in
// its own chunk (loaded by canvas/index.tsx only when a canvas is shown). It draws the flow the
// editor holds and hands every edit back as a whole new flow (canvas-model.ts); while a node is
// dragged only the canvas moves it, and the flow takes its position when the drag ends.

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
  useUpdateNodeInternals,
  type Connection,
  type NodeChange,
  type OnSelectionChangeParams,
} from '@xyflow/react';
import { memo } from 'preact/compat';
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { nodeState, type NodeMarks } from '../flow-graph-model.ts';
import { NodeBox, runMarks, sameBox, visibleText, type BoxNode } from './NodeBox.tsx';
import { CanvasToolbar, DRAG_TYPE } from './CanvasToolbar.tsx';
import { CanvasEdge, useCanvasEdges, type CanvasFlowEdge } from './CanvasEdge.tsx';
import { FocusNode } from './FocusNode.tsx';
import {
  addNode,
  canvasGraph,
  connect,
  copyNodes,
  isNodeType,
  pasteNodes,
  removeElements,
  tidy,
  withMissingPositions,
  withPositions,
  type Clip,
  type LooseFlow,
  type Point,
} from './canvas-model.ts';

export interface FlowCanvasProps {
  flow: LooseFlow;
  /** Drawn only: no palette, no edits (a session's run, an example flow). */
  readOnly: boolean;
  /** What to light: the run's current and finished nodes, and the nodes with a problem. */
  marks?: Partial<NodeMarks>;
  selected?: string | undefined;
  onSelect?: (nodeId: string | undefined) => void;
  onChange?: (flow: LooseFlow) => void;
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

const NODE_TYPES = { box: memo(NodeBox) };
const EDGE_TYPES = { flow: CanvasEdge };
/** A session's panel is narrow: its nodes stay readable there (drag to see the rest). */
const FIT_VIEW = {
  editable: { padding: 0.15, maxZoom: 1.2 },
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
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(isDark()));
    observer.observe(document.documentElement, {
      attributes: true,
      attributeFilter: ['data-theme'],
    });
    return () => observer.disconnect();
  }, []);

  const boxes = useMemo(
    () =>
      graph.nodes.map((box): BoxNode => {
        const state = nodeState(box.id, runMarks(marks));
        return {
          id: box.id,
          type: 'box',
          position: box.position,
          // Drawn at once at about its size (measured right after): xyflow hides a node it has
          // no size for until it has measured it, a frame or two later.
          initialWidth: 136,
          initialHeight: 40 + 16 * box.outputs.filter((output) => output.label).length,
          data: { box, state, readOnly },
          deletable: !readOnly,
          connectable: !readOnly,
          // Its name starts with what it shows (the id, then the type), then what it does.
          ariaRole: readOnly ? 'img' : 'button',
          ariaLabel: `${visibleText(box, state.title)}${readOnly ? '' : ', edit'}`,
        };
      }),
    [graph, marks, readOnly],
  );
  // The canvas's own copy while the user drags and selects; the flow's when the flow changes
  // (what is selected stays selected).
  const [nodes, setNodes] = useState<BoxNode[]>(boxes);
  const updateNodeInternals = useUpdateNodeInternals();
  const redrawn = useRef<string[]>([]);
  useEffect(() => {
    setNodes((current) => {
      // A node the flow did not change stays the same object: xyflow keeps what it measured of
      // it (its size and handles; it measures again only when the size changes). One that did
      // change keeps its measure too, and is measured again below (its handles may be new).
      const before = new Map(current.map((node) => [node.id, node]));
      const changed: string[] = [];
      const next = boxes.map((box) => {
        const old = before.get(box.id);
        if (!old) return box;
        if (sameBox(old, box)) return old;
        changed.push(box.id);
        return {
          ...box,
          ...(old.selected ? { selected: true } : {}),
          ...(old.measured ? { measured: old.measured } : {}),
        };
      });
      redrawn.current = changed;
      // Nothing new (the flow changed elsewhere): the same array, so nothing draws again.
      if (next.length === current.length && next.every((node, i) => node === current[i]))
        return current;
      return next;
    });
  }, [boxes]);
  useEffect(() => {
    const ids = redrawn.current;
    if (ids.length === 0) return;
    redrawn.current = [];
    // Once the canvas has drawn them (a frame later): their handles are where they are now.
    const frame = requestAnimationFrame(() => updateNodeInternals(ids));
    return () => {
      cancelAnimationFrame(frame);
      redrawn.current = [...ids, ...redrawn.current];
    };
  }, [nodes, updateNodeInternals]);
  // The node whose form is open: chosen on the canvas (and said to the view), or from outside
  // (added from the palette), when it alone is selected. Each side acts only on what the other
  // did not say last, so the two never answer each other in a loop.
  const reported = useRef<string | undefined>(selected);
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

  // The first edit saves where every node is drawn: from then on nothing moves but what the
  // user moves (a node without a position is placed by the automatic layout, which changes as
  // the graph does).
  const change = (next: LooseFlow) =>
    onChange?.(withMissingPositions(next, new Map(nodes.map((node) => [node.id, node.position]))));
  const onNodesChange = useCallback(
    (changes: NodeChange<BoxNode>[]) =>
      // Removals come through onNodesDelete, as one edit of the flow.
      setNodes((current) =>
        applyNodeChanges(
          changes.filter((c) => c.type !== 'remove'),
          current,
        ),
      ),
    [],
  );

  const at = (clientX: number, clientY: number): Point =>
    flowApi.screenToFlowPosition({ x: clientX, y: clientY });
  const centre = (): Point => {
    const rect = wrapper.current?.getBoundingClientRect();
    const point = rect
      ? at(rect.left + rect.width / 2, rect.top + rect.height / 2)
      : { x: 0, y: 0 };
    return { x: point.x - 68, y: point.y - 23 };
  };
  const add = (type: string, position: Point) => {
    if (!isNodeType(type)) return;
    const added = addNode(flow, type, position);
    change(added.flow);
    props.onSelect?.(added.id);
  };
  const selectedIds = () => nodes.filter((node) => node.selected).map((node) => node.id);

  const onKeyDown = (event: KeyboardEvent) => {
    if (readOnly || isTyping(event.target) || !canvasKeys(event.target, wrapper.current)) return;
    const mod = event.ctrlKey || event.metaKey;
    if (!mod) return;
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) props.onUndo?.();
    else if ((key === 'z' && event.shiftKey) || key === 'y') props.onRedo?.();
    else if (key === 'c') clipboard = copyNodes(flow, selectedIds()) ?? clipboard;
    else if (key === 'x') {
      const ids = selectedIds();
      clipboard = copyNodes(flow, ids) ?? clipboard;
      if (ids.length > 0) change(removeElements(flow, ids));
    } else if (key === 'v' && clipboard) {
      pastes.current += 1;
      const step = 40 * pastes.current;
      const pasted = pasteNodes(flow, clipboard, { x: step, y: step });
      change(pasted.flow);
    } else if (key === 'a') {
      setNodes((current) => current.map((node) => ({ ...node, selected: true })));
    } else return;
    event.preventDefault();
  };

  // Shortcuts while the canvas has the focus, or nothing has (a deleted node took it along).
  const keys = useRef(onKeyDown);
  keys.current = onKeyDown;
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

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
          if (type) {
            const point = at(event.clientX, event.clientY);
            add(type, { x: point.x - 68, y: point.y - 23 });
          }
        }}
      >
        <ReactFlow<BoxNode, CanvasFlowEdge>
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onNodeDragStop={(_, __, dragged) =>
            change(withPositions(flow, new Map(dragged.map((node) => [node.id, node.position]))))
          }
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
          onDelete={({ nodes: gone, edges: cut }) =>
            change(
              removeElements(
                flow,
                gone.map((node) => node.id),
                cut.map((edge) => edge.id),
              ),
            )
          }
          onSelectionChange={({ nodes: chosen }: OnSelectionChangeParams) => {
            const id = chosen.length === 1 ? chosen[0]!.id : undefined;
            if (id === undefined || id === reported.current) return;
            reported.current = id;
            props.onSelect?.(id);
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
              ariaLabel="Minimap of the flow"
              style={{ width: 150, height: 100 }}
            />
          )}
          <FocusNode id={props.focus} />
        </ReactFlow>
      </div>
    </div>
  );
}

function isDark(): boolean {
  return document.documentElement.dataset.theme === 'dark';
}

/** Whether a key pressed on `target` is the canvas's: on it, or on nothing (the page itself). */
function canvasKeys(target: EventTarget | null, canvas: HTMLElement | null): boolean {
  const element = target as HTMLElement | null;
  return !element || element === document.body || !!canvas?.contains(element);
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest?.('input, textarea, select, [contenteditable="true"]');
}
