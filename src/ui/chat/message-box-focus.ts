// The message box (or, for a flow that starts from a form, its first field) is where the user
// starts: it has the focus when the page is ready, and again
// after each session opened (from the list, Back or Forward, a new session, a fork, an import)
// and when the chat comes back from another view, as in ChatGPT. Not on a touch screen, where a
// focused box opens the on-screen keyboard over half of the page, and never away from
// something the user is in the middle of: a field they are typing in, or the Undo of a delete.

import { useEffect, useRef } from 'preact/hooks';

/** The composer's message box, or the first field of a flow's start form in its place. */
export const messageBox = () =>
  document.querySelector<HTMLElement>('.composer textarea, .start-form [data-first-field]');

/** `place`: the session and view the chat shows (undefined while none is ready to type in). */
export function useMessageBoxFocus(place: string | undefined): void {
  const focusedFor = useRef<string | undefined>(undefined);
  useEffect(() => {
    // Undefined between two places (a session opening, a view open): the next one is new.
    if (place === focusedFor.current) return;
    focusedFor.current = place;
    if (place === undefined) return;
    if (matchMedia('(pointer: coarse)').matches) return;
    const active = document.activeElement;
    if (active?.closest('.undo-bar') || (active && isTyping(active) && active !== messageBox()))
      return;
    messageBox()?.focus();
  }, [place]);
}

function isTyping(element: Element): boolean {
  return (
    element instanceof HTMLTextAreaElement ||
    (element instanceof HTMLInputElement &&
      !['button', 'checkbox', 'radio', 'file'].includes(element.type)) ||
    (element instanceof HTMLElement && element.isContentEditable)
  );
}
