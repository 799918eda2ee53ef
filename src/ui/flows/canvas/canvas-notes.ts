// Sticky notes on the canvas (the flow's `notes`, Flowise's Sticky Note): text beside the graph,
// moved and resized as nodes are, never connected and never run. On the canvas a note's id is
// its own with a prefix no node id can have, so notes and nodes never meet.

import { sizeOf, type Size } from '../flow-groups.ts';
import { NODE_HEIGHT } from '../flow-layout.ts';
import type { Geometry } from './canvas-groups.ts';
import { pointOf, rounded, type LooseFlow, type Point } from './loose-flow.ts';

/** A note drawn at its saved size, or this one. */
export const NOTE_SIZE: Size = { width: 200, height: 120 };
export const NOTE_MIN_SIZE: Size = { width: 100, height: 60 };
/** What starts a note's id on the canvas (a node id is an identifier: no `:` in it). */
const PREFIX = 'note:';

export interface CanvasNote {
  id: string;
  /** Its id on the canvas. */
  key: string;
  text: string;
  position: Point;
  size: Size;
}

type LooseNote = Record<string, unknown> & { id: string };

export const noteKey = (id: string) => `${PREFIX}${id}`;
/** The note's id, for a canvas id that is a note's; else undefined. */
export const noteIdOf = (key: string) =>
  key.startsWith(PREFIX) ? key.slice(PREFIX.length) : undefined;

/**
 * The notes as drawn: each at its saved place and size; one with no place under the nodes (as
 * drawn in `geometry`), side by side. A duplicated id is drawn once.
 */
export function notesOf(flow: LooseFlow, geometry: Geometry): CanvasNote[] {
  const notes = looseNotes(flow);
  let below: Point | undefined;
  const placeBelow = () => {
    if (below) return below;
    let left = Infinity;
    let bottom = -Infinity;
    for (const [id, at] of geometry.positions) {
      if (geometry.parents.has(id)) continue;
      left = Math.min(left, at.x);
      bottom = Math.max(bottom, at.y + (geometry.sizes.get(id)?.height ?? NODE_HEIGHT));
    }
    return (below = Number.isFinite(left) ? { x: left, y: bottom + 40 } : { x: 0, y: 0 });
  };
  const seen = new Set<string>();
  const drawn: CanvasNote[] = [];
  let unplaced = 0;
  for (const note of notes) {
    if (seen.has(note.id)) continue;
    seen.add(note.id);
    const size = sizeOf(note.size) ?? NOTE_SIZE;
    let position = pointOf(note.position);
    if (!position) {
      const start = placeBelow();
      position = { x: start.x + unplaced++ * (NOTE_SIZE.width + 20), y: start.y };
    }
    drawn.push({
      id: note.id,
      key: noteKey(note.id),
      text: typeof note.text === 'string' ? note.text : '',
      position,
      size,
    });
  }
  return drawn;
}

/** A new, empty note with its top left at `position`; and its id. */
export function addNote(flow: LooseFlow, position: Point): { flow: LooseFlow; id: string } {
  const taken = new Set(looseNotes(flow).map((note) => note.id));
  let n = 1;
  while (taken.has(`note_${n}`)) n++;
  const id = `note_${n}`;
  const note = { id, text: '', position: rounded(position) };
  return { flow: { ...flow, notes: [...looseNotes(flow, true), note] }, id };
}

/** The flow with a note's text set. */
export function withNoteText(flow: LooseFlow, id: string, text: string): LooseFlow {
  return editNotes(flow, (note) => (note.id === id ? { ...note, text } : note));
}

/** The flow with notes moved (and, when given, resized). */
export function placeNotes(
  flow: LooseFlow,
  places: ReadonlyMap<string, { position: Point; size?: Size }>,
): LooseFlow {
  if (places.size === 0) return flow;
  return editNotes(flow, (note) => {
    const place = places.get(note.id);
    if (!place) return note;
    const { position, size } = place;
    return {
      ...note,
      position: rounded(position),
      ...(size ? { size: { width: Math.round(size.width), height: Math.round(size.height) } } : {}),
    };
  });
}

/** The flow without these notes (`notes` itself gone with the last). */
export function removeNotes(flow: LooseFlow, ids: Iterable<string>): LooseFlow {
  const gone = new Set(ids);
  if (gone.size === 0) return flow;
  return editNotes(flow, (note) => (gone.has(note.id) ? undefined : note));
}

/** The flow with the notes that have no place given the ones they are drawn at. */
export function withMissingNotePlaces(flow: LooseFlow, drawn: readonly CanvasNote[]): LooseFlow {
  const missing = looseNotes(flow).filter((note) => !pointOf(note.position));
  if (missing.length === 0) return flow;
  const at = new Map(drawn.map((note) => [note.id, note.position]));
  return editNotes(flow, (note) =>
    pointOf(note.position) || !at.has(note.id)
      ? note
      : { ...note, position: rounded(at.get(note.id)!) },
  );
}

function editNotes(flow: LooseFlow, edit: (note: LooseNote) => LooseNote | undefined): LooseFlow {
  const all = looseNotes(flow, true);
  const notes = all.flatMap((note) =>
    note && typeof note === 'object' && typeof note.id === 'string' ? (edit(note) ?? []) : [note],
  );
  const next: LooseFlow = { ...flow, notes };
  if (notes.length === 0) delete next.notes;
  return next;
}

/** The flow's notes that have an id (all of its entries when `all`, to write them back). */
function looseNotes(flow: LooseFlow, all = false): LooseNote[] {
  const notes = Array.isArray(flow.notes) ? (flow.notes as LooseNote[]) : [];
  return all
    ? notes
    : notes.filter((note) => !!note && typeof note === 'object' && typeof note.id === 'string');
}
