// What the things drawn on the canvas (a note typed in, a group or a note resized) ask of the
// canvas, which turns each into an edit of the flow. A context, as xyflow draws them itself.

import { createContext } from 'preact';
import type { Size } from '../flow-groups.ts';
import type { Point } from './loose-flow.ts';

export interface CanvasActions {
  /** A note's text as typed (each keystroke; keystrokes close together are one step of Undo). */
  noteText(id: string, text: string): void;
  /** A group or a note (by its canvas id) resized: where its top left now is, and its size. */
  resized(key: string, box: Point & Size): void;
}

export const CanvasActionsContext = createContext<CanvasActions | undefined>(undefined);
