// A rewind is all or nothing: make one of its writes fail, and the log, the state and the
// artifacts are exactly as before.

import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseAgent,
  InMemoryArtifactService,
  InvocationContext,
  Runner,
  createEvent,
  type Event,
} from '../../../src/index.ts';
import { rejectionOf } from '../../support/helpers.ts';
import {
  inMemoryKind,
  indexedDbKind,
  type ServiceKind,
  type Services,
} from '../../support/service-kinds.ts';

const appName = 'app';
const userId = 'ada';

class IdleAgent extends BaseAgent {
  protected override async *runAsyncImpl(_: InvocationContext): AsyncGenerator<Event, void> {}
}

/**
 * A session where rewinding before invocation2 restores three files and two keys, and rewinding
 * to just after its event (`invocation2-event`) restores three files and one key.
 */
async function fixture(kind: ServiceKind) {
  const services = kind.open();
  const runner = new Runner({ appName, agent: new IdleAgent({ name: 'agent' }), ...services });
  const session = await services.sessionService.createSession({ appName, userId, sessionId: 's' });
  const key = { appName, userId, sessionId: 's' };
  const write = async (
    invocationId: string,
    stateDelta: Record<string, unknown>,
    files: string[],
  ) => {
    const artifactDelta: Record<string, number> = {};
    for (const filename of files) {
      artifactDelta[filename] = await services.artifactService.saveArtifact({
        ...key,
        filename,
        artifact: { text: `${filename} in ${invocationId}` },
      });
    }
    await services.sessionService.appendEvent({
      session,
      event: createEvent({
        id: `${invocationId}-event`,
        invocationId,
        author: 'agent',
        actions: { stateDelta, artifactDelta },
      }),
    });
  };
  await write('invocation1', { a: 1 }, ['f1', 'f2']);
  await write('invocation2', { a: 2, b: 2 }, ['f1', 'f2', 'f3']);
  await write('invocation3', { a: 3 }, ['f1', 'f2', 'f3']);
  return { services, runner, key };
}

/** The two kinds of rewind, and what the session holds once each has succeeded. */
const TARGETS = [
  {
    name: 'before invocation2',
    target: { rewindBeforeInvocationId: 'invocation2' },
    state: { a: 1 },
    files: ['f1', 'f2'],
  },
  {
    name: 'after invocation2-event',
    target: { rewindAfterEventId: 'invocation2-event' },
    state: { a: 2, b: 2 },
    files: ['f1', 'f2', 'f3'],
  },
] as const;
const targetsByKind = TARGETS.flatMap((t) => [
  { ...t, store: 'artifacts', n: 2, what: 'the second restored artifact version' },
  { ...t, store: 'events', n: 1, what: 'the marker event, after every artifact version' },
]);

/** Everything a rewind could change. */
async function snapshot(
  services: Services,
  key: { appName: string; userId: string; sessionId: string },
) {
  const session = await services.sessionService.getSession(key);
  const files: Record<string, unknown> = {};
  for (const filename of ['f1', 'f2', 'f3']) {
    const versions = await services.artifactService.listVersions({ ...key, filename });
    files[filename] = await Promise.all(
      versions.map((version) =>
        services.artifactService.loadArtifact({ ...key, filename, version }),
      ),
    );
  }
  const checkpoints = await Promise.all(
    session!.events.map((e) =>
      services.sessionService.getInvocationCheckpoint({ ...key, invocationId: e.invocationId }),
    ),
  );
  return {
    session,
    files,
    keys: await services.artifactService.listArtifactKeys(key),
    checkpoints,
  };
}

let restore: (() => void) | undefined;
let services: Services | undefined;
afterEach(async () => {
  restore?.();
  restore = undefined;
  await services?.close();
});

/** Makes the n-th call of `object[method]` throw `error` (calls before it go through). */
function failOnCall<T extends object>(
  object: T,
  method: keyof T & string,
  n: number,
  error: () => Error,
) {
  const original = object[method] as (...args: unknown[]) => unknown;
  let calls = 0;
  (object as Record<string, unknown>)[method] = function (this: unknown, ...args: unknown[]) {
    if (++calls === n) throw error();
    return original.apply(this, args);
  };
  restore = () => {
    (object as Record<string, unknown>)[method] = original;
  };
}

describe('rewind atomicity (IndexedDB)', () => {
  const quotaError = () => new DOMException('The quota has been exceeded.', 'QuotaExceededError');

  it.each(targetsByKind)(
    'undoes everything when writing $what fails (rewind $name)',
    async ({ target, store, n, state, files }) => {
      const ctx = await fixture(indexedDbKind);
      services = ctx.services;
      const before = await snapshot(ctx.services, ctx.key);
      const proto = globalThis.IDBObjectStore.prototype;
      const original = proto.add;
      let calls = 0;
      proto.add = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['add']>) {
        if (this.name === store && ++calls === n) throw quotaError();
        return original.apply(this, args);
      };
      restore = () => {
        proto.add = original;
      };

      const error = await rejectionOf(
        ctx.runner.rewindAsync({ userId, sessionId: 's', ...target }),
      );
      expect(error.name).toBe('StorageFullError');
      restore();
      restore = undefined;
      expect(await snapshot(ctx.services, ctx.key)).toEqual(before);

      // The same service works afterwards, and the rewind then succeeds in full.
      await ctx.runner.rewindAsync({ userId, sessionId: 's', ...target });
      expect((await ctx.services.sessionService.getSession(ctx.key))!.state).toEqual(state);
      expect(await ctx.services.artifactService.listArtifactKeys(ctx.key)).toEqual(files);
    },
  );

  it('refuses artifacts kept in another database, before writing anything', async () => {
    const ctx = await fixture(indexedDbKind);
    services = ctx.services;
    const elsewhere = indexedDbKind.open();
    const runner = new Runner({
      appName,
      agent: new IdleAgent({ name: 'agent' }),
      sessionService: ctx.services.sessionService,
      artifactService: elsewhere.artifactService,
    });
    const before = await snapshot(ctx.services, ctx.key);
    const error = await rejectionOf(
      runner.rewindAsync({ userId, sessionId: 's', rewindBeforeInvocationId: 'invocation2' }),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toMatch(/same atomic write/);
    expect(await snapshot(ctx.services, ctx.key)).toEqual(before);
    await elsewhere.close();
  });
});

describe('rewind atomicity (in memory)', () => {
  it.each(TARGETS)(
    'undoes the restored versions when a later artifact write fails (rewind $name)',
    async ({ target }) => {
      const ctx = await fixture(inMemoryKind);
      services = ctx.services;
      const before = await snapshot(ctx.services, ctx.key);
      failOnCall(
        ctx.services.artifactService as InMemoryArtifactService,
        'saveVersion',
        3,
        () => new Error('disk on fire'),
      );
      const error = await rejectionOf(
        ctx.runner.rewindAsync({ userId, sessionId: 's', ...target }),
      );
      expect(error.message).toBe('disk on fire');
      expect(await snapshot(ctx.services, ctx.key)).toEqual(before);
    },
  );
});
