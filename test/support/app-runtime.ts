// The app's runtime (what the worker exposes) over a fresh database, for tests in Node.

import type { Remote } from 'comlink';
import { AppRuntime } from '../../workers/app.ts';
import type { ProviderInput, RuntimeBroadcast } from '../../workers/protocol.ts';
import type { RuntimeApi } from '../../workers/runtime.ts';
import { inProcessLocks } from '../../workers/runs/session-locks.ts';
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

/** The same, on `dbName` if given, with real models' retries off and what it broadcasts kept. */
export function recordingRuntime(dbName = freshDbName()) {
  const broadcasts: RuntimeBroadcast[] = [];
  const runtime = new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: (message) => broadcasts.push(message),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
    modelHttp: { maxRetries: 0 },
  });
  return { runtime, broadcasts, dbName };
}

/**
 * The runtime in this process standing in for the worker: each call of the page's API goes to
 * where `workers/runtime.ts` sends it, `AppRuntime` itself or its `runs` or `rewinds` room.
 */
export function inProcessApi(runtime: AppRuntime): Remote<RuntimeApi> {
  const targets: object[] = [runtime, runtime.runs, runtime.rewinds];
  return new Proxy(
    {},
    {
      get: (_, name) => {
        const target = targets.find(
          (candidate) => typeof (candidate as Record<PropertyKey, unknown>)[name] === 'function',
        ) as Record<PropertyKey, (...args: unknown[]) => unknown> | undefined;
        if (!target) throw new Error(`The runtime has no ${String(name)}`);
        return (...args: unknown[]) => target[name]!(...args);
      },
    },
  ) as Remote<RuntimeApi>;
}

/** A provider of the fixture model server at `url` (test/support/model-server.ts), as saved. */
export function fixtureProvider(
  url: string,
  overrides: Partial<ProviderInput> = {},
): ProviderInput {
  return {
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl: `${url}/v1`,
    defaultModel: 'fixture-text',
    ...overrides,
  };
}
