// Sticky notes on the canvas (the flow's `notes`): drawn where they are saved (or under the
// nodes), added, typed in, moved, resized and deleted, each an edit of the flow that leaves the
// rest of it (and its other notes) as it was.

import { describe, expect, it } from 'vitest';
import { canvasGraph, withDrawnPlaces } from '../../../src/ui/flows/canvas/canvas-model.ts';
import {
  addNote,
  noteIdOf,
  noteKey,
  placeNotes,
  removeNotes,
  withNoteText,
} from '../../../src/ui/flows/canvas/canvas-notes.ts';
import type { LooseFlow } from '../../../src/ui/flows/canvas/loose-flow.ts';

const flow = (notes?: unknown[]): LooseFlow => ({
  name: 'noted',
  nodes: [
    { id: 'start', type: 'start', position: { x: 0, y: 0 } },
    { id: 'end', type: 'end', position: { x: 200, y: 60 } },
  ],
  edges: [{ from: 'start', to: 'end' }],
  ...(notes ? { notes } : {}),
});

describe('what the canvas draws of notes', () => {
  it('draws each note at its place and size, with an id no node can have', () => {
    const [note] = canvasGraph(
      flow([{ id: 'n1', text: 'Why', position: { x: 5, y: 6 }, size: { width: 150, height: 90 } }]),
    ).notes;
    expect(note).toEqual({
      id: 'n1',
      key: 'note:n1',
      text: 'Why',
      position: { x: 5, y: 6 },
      size: { width: 150, height: 90 },
    });
    expect(noteIdOf(noteKey('n1'))).toBe('n1');
    expect(noteIdOf('start')).toBeUndefined();
  });

  it('draws a note with no place under the nodes, side by side, and what it cannot read as empty', () => {
    const notes = canvasGraph(
      flow([{ id: 'a', text: 'one' }, { id: 'b', text: 3 }, { id: 'a', text: 'again' }, null]),
    ).notes;
    expect(notes.map((note) => [note.id, note.text])).toEqual([
      ['a', 'one'],
      ['b', ''],
    ]);
    expect(notes[0]!.position.y).toBeGreaterThan(60 + 46);
    expect(notes[1]!.position.x).toBeGreaterThan(notes[0]!.position.x + 150);
    expect(notes[0]!.size).toEqual({ width: 200, height: 120 });
  });
});

describe('the notes’ edits', () => {
  it('adds an empty note with a free id where it was dropped', () => {
    const first = addNote(flow(), { x: 10.4, y: 20.6 });
    expect(first.id).toBe('note_1');
    expect(first.flow.notes).toEqual([{ id: 'note_1', text: '', position: { x: 10, y: 21 } }]);
    expect(addNote(first.flow, { x: 0, y: 0 }).id).toBe('note_2');
  });

  it('sets a note’s text, moves and resizes it, leaving the other notes as they were', () => {
    const other = { id: 'b', text: 'keep', extra: true };
    const start = flow([{ id: 'a', text: '' }, other]);
    const typed = withNoteText(start, 'a', 'Check the **items**');
    const moved = placeNotes(typed, new Map([['a', { position: { x: 1.2, y: 2.7 } }]]));
    const resized = placeNotes(
      moved,
      new Map([['a', { position: { x: 0, y: 0 }, size: { width: 240.4, height: 99.6 } }]]),
    );
    expect(resized.notes).toEqual([
      {
        id: 'a',
        text: 'Check the **items**',
        position: { x: 0, y: 0 },
        size: { width: 240, height: 100 },
      },
      other,
    ]);
    expect(resized.nodes).toEqual(start.nodes);
  });

  it('deletes notes, and `notes` with the last', () => {
    const start = flow([
      { id: 'a', text: 'x' },
      { id: 'b', text: 'y' },
    ]);
    expect(removeNotes(start, ['a']).notes).toEqual([{ id: 'b', text: 'y' }]);
    expect(removeNotes(start, ['a', 'b'])).not.toHaveProperty('notes');
  });

  it('saves where a note with no place is drawn at the first edit', () => {
    const start = flow([{ id: 'a', text: 'x' }]);
    const drawn = canvasGraph(start).notes[0]!;
    expect(withDrawnPlaces(start, start).notes).toEqual([
      { id: 'a', text: 'x', position: drawn.position },
    ]);
  });
});
