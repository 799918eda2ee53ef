// A disk that fills up at a chosen write, for the tests of what a run does then: the in-memory
// services through a wrapper that throws what IndexedDbSessionService throws for a full disk,
// and fake-indexeddb made to refuse a real transaction as Chromium does when the quota is
// exceeded (at commit, the transaction aborted with a QuotaExceededError, nothing written).

import 'fake-indexeddb/auto';
import { StorageFullError } from '../../src/index.ts';
import type { WriteFault } from './dying-services.ts';

/** Counts writes down to the one that fails (and, if lasting, every one after it); 0 disarms. */
class Countdown {
  private left = 0;
  private lasting = false;
  private full = false;
  /** Whether the armed write came (a run may end before it). */
  tripped = false;

  /** The nth write from now fails; with `lasting`, so does every later one until disarmed. */
  failWrite(nth: number, { lasting = false } = {}): void {
    this.left = nth;
    this.lasting = lasting;
    this.full = false;
    this.tripped = false;
  }

  protected next(): boolean {
    if (this.full) return true;
    if (this.left === 0 || --this.left > 0) return false;
    this.tripped = true;
    this.full = this.lasting;
    return true;
  }
}

/** For withWriteFault: the nth write from now throws StorageFullError, and only it. */
export class FullDiskOnce extends Countdown implements WriteFault {
  beforeWrite(): void {
    if (!this.next()) return;
    throw new StorageFullError({
      cause: new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
    });
  }
}

/** fake-indexeddb's transaction internals this relies on (it has no quota of its own). */
interface FakeTransaction extends IDBTransaction {
  _abort(errorName: string): void;
}

/**
 * The nth readwrite transaction from now (any store: events, runs, artifacts) runs its requests
 * and then, instead of completing, aborts with a QuotaExceededError: its writes are rolled back,
 * as Chromium does at commit when the origin is over its quota. Global while installed: install
 * in `beforeAll`, uninstall in `afterAll`.
 */
export class IndexedDbQuota extends Countdown {
  private original: IDBDatabase['transaction'] | undefined;

  install(): void {
    const original = IDBDatabase.prototype.transaction;
    this.original = original;
    const next = () => this.next();
    IDBDatabase.prototype.transaction = function (
      this: IDBDatabase,
      ...args: Parameters<IDBDatabase['transaction']>
    ) {
      const tx = original.apply(this, args) as FakeTransaction;
      if (args[1] === 'readwrite' && next()) {
        const dispatch = tx.dispatchEvent.bind(tx);
        tx.dispatchEvent = (event: Event) => {
          if (event.type !== 'complete') return dispatch(event);
          tx._abort('QuotaExceededError');
          return true;
        };
      }
      return tx;
    } as IDBDatabase['transaction'];
  }

  uninstall(): void {
    if (this.original) IDBDatabase.prototype.transaction = this.original;
  }
}
