// While a turn waits for its first words, the local models this tab's worker is loading: a model
// loads on an agent's first message, which for a file of gigabytes takes a while, and the chat
// says so (with how far it has got) instead of "Working…". Asked of the worker, not broadcast:
// each tab's worker loads models of its own.

import { useEffect, useState } from 'preact/hooks';
import type { LocalModelLoad } from '../../../workers/protocol.ts';

/**
 * How often the worker is asked, the first time too: a loaded local model has its first words by
 * then, so its turns are never asked about (nothing is added to the way to the first token).
 */
const POLL_MS = 300;

const NONE: LocalModelLoad[] = [];

/** The loads under way while `waiting` (a run, nothing of its answer yet); none otherwise. */
export function useModelLoads(
  ask: () => Promise<LocalModelLoad[]>,
  waiting: boolean,
): LocalModelLoad[] {
  const [loads, setLoads] = useState(NONE);
  useEffect(() => {
    if (!waiting) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const next = await ask().catch(() => NONE);
      if (stopped) return;
      setLoads(next.length > 0 ? next : NONE);
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    timer = setTimeout(() => void poll(), POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
      setLoads(NONE);
    };
  }, [ask, waiting]);
  return waiting ? loads : NONE;
}
