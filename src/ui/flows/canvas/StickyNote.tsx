// A sticky note on the canvas (the flow's `notes`, Flowise's Sticky Note): paper with its text,
// typed in place; moved by its top strip or its edge, resized once selected. No handles: nothing
// connects to a note.

import { NodeResizer, type NodeProps } from '@xyflow/react';
import { useContext, useState } from 'preact/hooks';
import { CanvasActionsContext } from './canvas-actions.ts';
import { NOTE_MIN_SIZE } from './canvas-notes.ts';
import type { NoteNode } from './canvas-nodes.ts';

export function StickyNote({ id, data, selected }: NodeProps<NoteNode>) {
  const { note, readOnly } = data;
  const actions = useContext(CanvasActionsContext);
  // What is typed shows as typed while the note has the focus: the flow's text comes back
  // through the canvas a frame or two later, and would undo a keystroke typed meanwhile.
  const [typed, setTyped] = useState<string | undefined>(undefined);
  return (
    <div class="canvas-note">
      {!readOnly && (
        <NodeResizer
          isVisible={!!selected}
          minWidth={NOTE_MIN_SIZE.width}
          minHeight={NOTE_MIN_SIZE.height}
          onResizeEnd={(_, box) => actions?.resized(id, box)}
        />
      )}
      <div class="note-grip" aria-hidden="true" />
      {readOnly ? (
        <p class="note-text">{note.text}</p>
      ) : (
        // nodrag, nowheel: typing, selecting text and scrolling it are the text's, not the canvas's.
        <textarea
          class="note-text nodrag nowheel"
          aria-label={`Text of the note ${note.id}`}
          placeholder="Type a note…"
          spellcheck
          value={typed ?? note.text}
          onInput={(event) => {
            setTyped(event.currentTarget.value);
            actions?.noteText(note.id, event.currentTarget.value);
          }}
          onBlur={() => setTyped(undefined)}
        />
      )}
    </div>
  );
}
