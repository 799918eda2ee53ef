// Services whose appends fail on purpose, for the tests of what a run does when its store fails:
// the in-memory service throwing a full disk's DOMException, and IndexedDB rolling back a real
// transaction the way Chromium rolled back appends (commit 04add63).

import 'fake-indexeddb/auto';
import {
  StorageFullError,
  InMemoryArtifactService,
  InMemorySessionService,
  type AppendEventRequest,
  type Event,
} from '../../src/index.ts';
import { freshDbName } from './helpers.ts';
import { openIndexedDb, type Services } from './service-kinds.ts';

/** Makes one append fail: the `nth` from now (1 is the next one; 0 disarms). */
export interface AppendFaults {
  failAppend(nth: number): void;
  /** Whether the armed failure happened (a run may end before it gets there). */
  readonly tripped: boolean;
}

export interface FailingKind {
  name: string;
  open(): { services: Services; faults: AppendFaults };
  /** The name of the error a failed append rejects with. */
  errorName: string;
}

class Countdown implements AppendFaults {
  private left = 0;
  tripped = false;

  failAppend(nth: number): void {
    this.left = nth;
    this.tripped = false;
  }

  /** Whether this append is the one to fail. */
  next(): boolean {
    if (this.left === 0 || --this.left > 0) return false;
    this.tripped = true;
    return true;
  }
}

class FailingInMemorySessionService extends InMemorySessionService {
  readonly faults = new Countdown();

  override async appendEvent(request: AppendEventRequest): Promise<Event> {
    if (!request.event.partial && this.faults.next()) {
      // What IndexedDbSessionService throws when the browser's storage is full.
      throw new StorageFullError({
        cause: new DOMException('The quota has been exceeded.', 'QuotaExceededError'),
      });
    }
    return super.appendEvent(request);
  }
}

export const failingInMemory: FailingKind = {
  name: 'in-memory, full disk',
  errorName: 'StorageFullError',
  open() {
    const sessionService = new FailingInMemorySessionService();
    const services: Services = {
      sessionService,
      artifactService: new InMemoryArtifactService(),
      restart: async () => services,
      close: async () => undefined,
    };
    return { services, faults: sessionService.faults };
  },
};

/**
 * IndexedDB transactions that commit early (`tx.commit()`: appends, and only appends) abort
 * instead of committing when armed, with no error of their own: IndexedDB then reports the
 * transaction and each of its requests as an `AbortError`, as Chromium did. Global while
 * installed: install in `beforeAll`, uninstall in `afterAll`.
 */
export class CommitRollbacks extends Countdown {
  private original: IDBTransaction['commit'] | undefined;

  install(): void {
    const original = IDBTransaction.prototype.commit;
    this.original = original;
    const next = () => this.next();
    IDBTransaction.prototype.commit = function (this: IDBTransaction) {
      if (next()) this.abort();
      else original.call(this);
    };
  }

  uninstall(): void {
    if (this.original) IDBTransaction.prototype.commit = this.original;
  }
}

export function failingIndexedDb(rollbacks: CommitRollbacks): FailingKind {
  return {
    name: 'IndexedDB, rolled back',
    errorName: 'StorageError',
    open: () => ({ services: openIndexedDb(freshDbName()), faults: rollbacks }),
  };
}
