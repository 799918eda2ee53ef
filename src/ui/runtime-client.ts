// The page's one way to the runtime worker. The page imports only the worker's type.

import { proxy, wrap, type Remote } from 'comlink';
import type { RuntimeApi } from '../../workers/runtime.ts';

let runtime: Remote<RuntimeApi> | undefined;

/** The runtime worker, started on first use. */
export function getRuntime(): Remote<RuntimeApi> {
  runtime ??= wrap<RuntimeApi>(
    new Worker(new URL('../../workers/runtime.ts', import.meta.url), {
      type: 'module',
      name: 'runtime',
    }),
  );
  return runtime;
}

export { proxy };
