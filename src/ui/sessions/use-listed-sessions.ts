import { useEffect, useMemo } from 'preact/hooks';
import type { PendingDeletes } from '../common/pending-deletes.ts';
import { useSnapshot } from '../workbench/use-snapshot.ts';
import type { Workbench, WorkbenchState } from '../workbench/workbench.ts';

/**
 * The sessions the list shows: not those deleted and waiting for their Undo. The open session,
 * deleted (here or in another tab), gives way to another.
 */
export function useListedSessions(
  pending: PendingDeletes,
  workbench: Workbench,
  { ready, sessions, current }: WorkbenchState,
) {
  useSnapshot(pending);
  const hidden = pending.hidden('session');
  const currentId = current?.summary.id;
  useEffect(() => {
    if (ready && currentId && hidden.has(currentId)) void workbench.openOther(hidden);
  }, [ready, currentId, hidden]);
  return useMemo(
    () => (hidden.size ? sessions.filter((session) => !hidden.has(session.id)) : sessions),
    [sessions, hidden],
  );
}
