// The canvas's toolbar: the palette of node types and the sticky note (drag one onto the canvas,
// or press it to add it in the middle), the flow's State keys, Undo, Redo and Tidy up.

import { PALETTE } from './canvas-model.ts';

/** The drag's data: the node type dragged from the palette (or `note`). */
export const DRAG_TYPE = 'application/x-trellis-node';

/** The palette's last item: a note, not a node (Flowise's Sticky Note). */
export const NOTE_ITEM = {
  type: 'note',
  label: 'Sticky Note',
  hint: 'A note beside the graph; it does not run',
} as const;

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
        {[...PALETTE, NOTE_ITEM].map((item) => (
          // Not a <button>: Chromium starts no drag from one. Enter or Space adds it too.
          <div
            key={item.type}
            class={`palette-item palette-${item.type}`}
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
