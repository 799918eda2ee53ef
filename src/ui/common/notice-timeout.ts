// Notices leave on their own; errors stay. A notice says that something went as asked
// ("Imported “Colors”.", "Forked into …"): what it says is on the page already, so it goes after
// NOTICE_MS, or sooner when the user moves on (another session opened, a run started), as the
// toasts of ChatGPT and Open WebUI do. An error stays until the user dismisses it: it says what
// did not happen, and may take longer to read and act on than any timer allows (WCAG 2.2.1).

import { useEffect } from 'preact/hooks';
import type { Workbench } from '../workbench/workbench.ts';

/** Long enough to read a two-line notice at a slow pace (~25 words). */
export const NOTICE_MS = 8_000;

export function useNoticeTimeout(
  workbench: Workbench,
  notice: string | undefined,
  running: boolean,
): void {
  useEffect(() => {
    if (notice === undefined) return;
    const timer = setTimeout(() => workbench.dismissNotice(notice), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [workbench, notice]);
  useEffect(() => {
    if (running) workbench.dismissNotice();
  }, [workbench, running]);
}
