// Keeps a scrolled list pinned to its end while it grows, as chat apps do: only when the reader
// is already at the end (scrolling up to read stops it), and at most once a frame, so that a
// stream of chunks does not force a layout per chunk.

import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** How close to the end (px) still counts as "at the end". */
const SLACK = 48;

/**
 * Returns the ref for the scrolling element. Whenever `change` or `force` changes, the element is
 * scrolled to its end in the next frame if it was at the end; a new truthy `force` (the user just
 * sent a message) scrolls to the end wherever the reader was.
 */
export function useStickToBottom<T extends HTMLElement>(
  change: unknown[],
  force: unknown,
): RefObject<T | null> {
  const element = useRef<T>(null);
  const atEnd = useRef(true);
  const frame = useRef<number | undefined>(undefined);

  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const onScroll = () => {
      atEnd.current = node.scrollHeight - node.scrollTop - node.clientHeight <= SLACK;
    };
    node.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      node.removeEventListener('scroll', onScroll);
      if (frame.current !== undefined) cancelAnimationFrame(frame.current);
    };
  }, []);

  useEffect(() => {
    if (force) atEnd.current = true;
  }, [force]);

  useEffect(() => {
    if (!atEnd.current || frame.current !== undefined) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = undefined;
      const node = element.current;
      if (node) node.scrollTop = node.scrollHeight;
    });
  }, [...change, force]);

  return element;
}
