// Keeps a scrolled list pinned to its end while it grows, as chat apps do: only when the reader
// is already at the end (scrolling up to read stops it), and at most once a frame, so that a
// stream of chunks does not force a layout per chunk.
//
// Nothing here reads the list's geometry (scrollHeight, scrollTop, offsets): each such read
// forces a synchronous layout of the whole list, which a long conversation makes cost seconds.
// - Whether the end is in view comes from an IntersectionObserver watching a sentinel after the
//   list's last item; the browser works it out with the frame's own layout.
// - Only the reader leaves the end: the end going out of view counts as the reader scrolling away
//   only after they asked to move up the list (wheel or keys up, a finger dragging down, a press
//   on the scrollbar). Without that, the list grew under the reader (new content, or messages
//   laid out as they come into view under `content-visibility`) and is pinned again.
// - A change is followed if the reader is at the end: checked right after the DOM changed (a
//   layout effect), and pinned in the next animation frame, once however many changes came in
//   that frame (unless the reader moved up meanwhile), by setting the scroll offset past the
//   end, which the browser clamps. Not `sentinel.scrollIntoView()`: that also scrolls every
//   scrolling ancestor, the whole page on a narrow screen.

import type { RefObject } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** How close to the end (px) still counts as "at the end". */
const SLACK = 48;

/** The reader's ways of moving a list, and the keys among them that move it up. */
const INPUTS = ['wheel', 'keydown', 'touchstart', 'touchmove', 'pointerdown'] as const;
const UP_KEYS = /^(ArrowUp|PageUp|Home)$/;

/** Past any real scroll height: the browser clamps a scroll offset to the end. */
const END = Number.MAX_SAFE_INTEGER;

export interface StickToBottom<T extends HTMLElement> {
  /** The scrolling element. */
  scroller: RefObject<T | null>;
  /** An empty element after the list's last item, inside the scroller. */
  end: RefObject<HTMLDivElement | null>;
  /** The reader scrolled up, away from the end: the list no longer follows (Jump to latest). */
  away: boolean;
  /** Scrolls to the end, and follows the list again. */
  jump: () => void;
}

/**
 * Whenever `change` or `force` changes, the scroller is scrolled to its end in the next frame if
 * the reader was at the end; a new truthy `force` (the user just sent a message) scrolls to the
 * end wherever the reader was.
 */
export function useStickToBottom<T extends HTMLElement>(
  change: unknown[],
  force: unknown,
): StickToBottom<T> {
  const scroller = useRef<T>(null);
  const end = useRef<HTMLDivElement>(null);
  const atEnd = useRef(true);
  /** The reader asked to move up the list, and the end has not left the view since. */
  const moved = useRef(false);
  const frame = useRef<number | undefined>(undefined);
  const [away, setAway] = useState(false);

  const pin = () => {
    if (frame.current !== undefined) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = undefined;
      const node = scroller.current;
      // Asked for before the reader moved up, or before the end left the view for it.
      if (node && atEnd.current && !moved.current) node.scrollTop = END;
    });
  };

  useEffect(() => {
    const root = scroller.current;
    const sentinel = end.current;
    if (!root || !sentinel) return;
    const observer = new IntersectionObserver(
      (entries) => {
        // A report of the end in view may predate the reader's move up: it leaves `moved` set,
        // for the report of the end leaving the view.
        const inView = entries.at(-1)?.isIntersecting ?? atEnd.current;
        if (inView) {
          atEnd.current = true;
          setAway(false);
        } else if (moved.current) {
          atEnd.current = false;
          moved.current = false;
          setAway(true);
        } else if (atEnd.current) pin();
      },
      { root, rootMargin: `0px 0px ${SLACK}px 0px` },
    );
    observer.observe(sentinel);
    let touchY = 0;
    const movesUp = (event: Event): boolean => {
      switch (event.type) {
        case 'wheel':
          return (event as WheelEvent).deltaY < 0;
        case 'keydown':
          return UP_KEYS.test((event as KeyboardEvent).key);
        case 'touchstart':
        case 'touchmove': {
          // (Not `instanceof TouchEvent`: some desktop browsers do not define it.)
          const y = (event as TouchEvent).touches[0]?.clientY ?? touchY;
          const down = event.type === 'touchmove' && y > touchY;
          touchY = y;
          return down;
        }
        default:
          // A press on the scroller itself, not on an item in it: on its scrollbar.
          return event.target === root;
      }
    };
    const onInput = (event: Event) => {
      if (movesUp(event)) moved.current = true;
    };
    for (const type of INPUTS) root.addEventListener(type, onInput, { passive: true });
    return () => {
      observer.disconnect();
      for (const type of INPUTS) root.removeEventListener(type, onInput);
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
      frame.current = undefined;
    };
  }, []);

  const follow = () => {
    atEnd.current = true;
    moved.current = false;
    setAway(false);
  };
  useLayoutEffect(() => {
    if (force) follow();
  }, [force]);

  useLayoutEffect(() => {
    if (atEnd.current) pin();
  }, [...change, force]);

  const jump = () => {
    follow();
    const node = scroller.current;
    if (node) node.scrollTop = END;
  };

  return { scroller, end, away, jump };
}
