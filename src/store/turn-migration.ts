// The upgrade to schema 6: every session stored before it gets its turn summary (the tip in its
// record, each invocation's turn bookkeeping in its checkpoint), computed by replaying its log
// through the same bookkeeping appends use. Nothing else changes: no event, state or artifact.

import type { UpgradeTx } from './database.ts';
import { sessionRange } from './database.ts';
import { replayTurns } from './turn-log.ts';

/**
 * Runs inside the upgrade's transaction: it awaits only that transaction's requests (and the
 * replay, which awaits nothing else), so the transaction stays open until it is done.
 */
export async function summarizeExistingSessions(tx: UpgradeTx): Promise<void> {
  const sessions = tx.objectStore('sessions');
  const events = tx.objectStore('events');
  const checkpoints = tx.objectStore('checkpoints');
  for (const record of await sessions.getAll()) {
    const range = sessionRange(record.appName, record.userId, record.id);
    const log = (await events.getAll(range)).map((stored) => stored.event);
    const { tip, turns } = await replayTurns(log);
    const writes: Promise<unknown>[] = [sessions.put({ ...record, tip })];
    for (const checkpoint of await checkpoints.getAll(range)) {
      const stored = turns.get(checkpoint.invocationId);
      if (stored) writes.push(checkpoints.put({ ...checkpoint, ...stored.turn }));
    }
    await Promise.all(writes);
  }
}
