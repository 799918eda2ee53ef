// One run or rewind per session at a time, across tabs: a Web Lock per session. In Node (tests)
// an in-process stand-in with the same contract.

import { SessionBusyError } from '../../src/index.ts';

export interface SessionLocks {
  /** Runs `work` holding the session's lock; SessionBusyError if someone else holds it. */
  withLock<T>(sessionId: string, work: () => Promise<T>): Promise<T>;
  /** The sessions whose lock is held now, by any tab. */
  held(): Promise<Set<string>>;
}

const PREFIX = 'trellis:session:';

export function webLocks(locks: LockManager): SessionLocks {
  return {
    async withLock(sessionId, work) {
      const done = await locks.request(
        `${PREFIX}${sessionId}`,
        { ifAvailable: true },
        async (lock) => {
          if (!lock) return { busy: true as const };
          return { busy: false as const, value: await work() };
        },
      );
      if (done.busy) throw new SessionBusyError(sessionId);
      return done.value;
    },
    async held() {
      const { held = [] } = await locks.query();
      return new Set(
        held.flatMap((lock) =>
          lock.name?.startsWith(PREFIX) ? [lock.name.slice(PREFIX.length)] : [],
        ),
      );
    },
  };
}

export function inProcessLocks(): SessionLocks {
  const taken = new Set<string>();
  return {
    async withLock(sessionId, work) {
      if (taken.has(sessionId)) throw new SessionBusyError(sessionId);
      taken.add(sessionId);
      try {
        return await work();
      } finally {
        taken.delete(sessionId);
      }
    },
    async held() {
      return new Set(taken);
    },
  };
}
