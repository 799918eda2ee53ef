// Where a search hit opens: its session, and for a message its turn, brought onto the active
// path when it is on a rewound branch (History's own Switch to this branch, with its Undo),
// selected in History and scrolled to. Part of the dialog's lazily loaded chunk.

import type { SearchHit } from '../../../workers/protocol.ts';
import type { Workbench } from '../workbench/workbench.ts';

/** "Show earlier turns" asked at most, to reach an old turn (50 turns each). */
const EARLIER_STEPS = 40;

const onPath = (workbench: Workbench, invocationId: string) =>
  workbench.snapshot.current?.activePath.some((turn) => turn.invocationId === invocationId) ??
  false;

export async function openHit(
  workbench: Workbench,
  sessionId: string,
  hit: SearchHit,
): Promise<void> {
  if (workbench.snapshot.current?.summary.id !== sessionId) await workbench.open(sessionId);
  const { invocationId } = hit;
  if (workbench.snapshot.current?.summary.id !== sessionId || !invocationId) return;
  // The index may be a moment behind a rewind made since: the opening says what is active now.
  if (!hit.active && !onPath(workbench, invocationId)) {
    await workbench.switchToBranch(invocationId);
  }
  for (let step = 0; step < EARLIER_STEPS && !onPath(workbench, invocationId); step++) {
    const current = workbench.snapshot.current;
    if (!current || current.pathComplete) break;
    await workbench.showEarlierTurns();
  }
  workbench.selectTurn(invocationId);
}

/** Brings the selected turn's row in History into view, and the focus onto it. */
export function showSelectedTurn(): void {
  const row = document.querySelector<HTMLElement>('.history .turn button[aria-pressed="true"]');
  if (!row) return;
  row.scrollIntoView({ block: 'center' });
  row.focus({ preventScroll: true });
}
