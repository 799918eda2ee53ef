// The canvas's shortcuts: Ctrl (or ⌘) with Z, Shift+Z or Y, C, X, V and A, while the canvas has
// the focus or nothing has (a node deleted took the focus along); never while typing in a field
// (a note's text, a form), where they are the field's.

import { useEffect, useRef } from 'preact/hooks';
import type { RefObject } from 'preact';

export interface CanvasKeyActions {
  undo(): void;
  redo(): void;
  copy(): void;
  cut(): void;
  /** False: nothing to paste (the key is then left to the page). */
  paste(): void | false;
  selectAll(): void;
}

export function useCanvasKeys(
  enabled: boolean,
  canvas: RefObject<HTMLElement | null>,
  actions: CanvasKeyActions,
): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    if (!enabled) return;
    const listener = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      if (isTyping(event.target) || !onCanvas(event.target, canvas.current)) return;
      const act = latest.current;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) act.undo();
      else if ((key === 'z' && event.shiftKey) || key === 'y') act.redo();
      else if (key === 'c') act.copy();
      else if (key === 'x') act.cut();
      else if (key === 'v') {
        if (act.paste() === false) return;
      } else if (key === 'a') act.selectAll();
      else return;
      event.preventDefault();
    };
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, [enabled, canvas]);
}

/** Whether a key pressed on `target` is the canvas's: on it, or on nothing (the page itself). */
function onCanvas(target: EventTarget | null, canvas: HTMLElement | null): boolean {
  const element = target as HTMLElement | null;
  return !element || element === document.body || !!canvas?.contains(element);
}

function isTyping(target: EventTarget | null): boolean {
  const element = target as HTMLElement | null;
  return !!element?.closest?.('input, textarea, select, [contenteditable="true"]');
}
