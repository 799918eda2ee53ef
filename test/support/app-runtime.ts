// The app's runtime (what the worker exposes) over a fresh database, for tests in Node.

import { AppRuntime } from '../../workers/app-runtime.ts';
import { inProcessLocks } from '../../workers/session-locks.ts';
import { freshDbName } from './helpers.ts';

/** A runtime with its own database, locks in this process, no broadcasts and instant demos. */
export function appRuntime(): AppRuntime {
  return new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => {},
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}
