// The canvas's toolbar: the palette of node types (drag one onto the canvas, or press it to add
// it in the middle), the flow's State keys, Undo, Redo and Tidy up.

import { PALETTE } from './canvas-model.ts';

/** The drag's data: the node type dragged from the palette. */
export const DRAG_TYPE = 'application/x-trellis-node';

interface Props {
  onAdd: (type: string) => void;
  onOpenState?: (() => void) | undefined;
  onUndo?: (() => void) | undefined;
  onRedo?: (() => void) | undefined;
  onTidy: () => void;
}

export function CanvasToolbar({ onAdd, onOpenState, onUndo, onRedo, onTidy }: Props) {
  return (
    <div class="canvas-toolbar" role="toolbar" aria-label="Canvas">
      <div class="palette" role="group" aria-label="Add a node">
        {PALETTE.map((item) => (
          // Not a <button>: Chromium starts no drag from one. Enter or Space adds it too.
          <div
            key={item.type}
            class="palette-item"
            role="button"
            tabIndex={0}
            draggable
            title={`${item.hint}. Drag it onto the canvas, or press to add it in the middle.`}
            onDragStart={(event) => {
              event.dataTransfer?.setData(DRAG_TYPE, item.type);
              if (event.dataTransfer) event.dataTransfer.effectAllowed = 'move';
            }}
            onClick={() => onAdd(item.type)}
            onKeyDown={(event) => {
              if (event.key !== 'Enter' && event.key !== ' ') return;
              event.preventDefault();
              onAdd(item.type);
            }}
          >
            {item.label}
          </div>
        ))}
      </div>
      <div class="canvas-actions">
        {onOpenState && (
          <button
            type="button"
            title="The flow’s state keys (Flowise’s State node): Replace or Append, and defaults"
            onClick={onOpenState}
          >
            State
          </button>
        )}
        <button type="button" disabled={!onUndo} onClick={() => onUndo?.()}>
          Undo
        </button>
        <button type="button" disabled={!onRedo} onClick={() => onRedo?.()}>
          Redo
        </button>
        <button type="button" onClick={onTidy}>
          Tidy up
        </button>
      </div>
    </div>
  );
}
