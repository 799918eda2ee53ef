// The page's one way to the runtime worker (squoosh's pattern: one small bridge owns the worker;
// the page imports only the worker's type).

import { proxy, wrap, type Remote } from 'comlink';
import type { RuntimeApi } from '../../../workers/runtime.ts';
import { BROADCAST_CHANNEL, type RuntimeBroadcast } from '../../../workers/protocol.ts';
import type { Event } from '../../core/event.ts';

/** The runtime worker as the page holds it, and how the page hears every tab's changes. */
export interface RuntimeClient {
  runtime: Remote<RuntimeApi>;
  /** Wraps a callback so that the worker can call it (Comlink's proxy). */
  callback: (listener: (event: Event) => void) => (event: Event) => void;
  /** Listens to what every tab's worker says it changed; returns the unsubscribe. */
  onBroadcast: (listener: (message: RuntimeBroadcast) => void) => () => void;
}

/** Starts the worker and connects to it and to the other tabs' broadcasts. */
export function connectRuntime(): RuntimeClient {
  const worker = new Worker(new URL('../../../workers/runtime.ts', import.meta.url), {
    type: 'module',
    name: 'runtime',
  });
  const runtime = wrap<RuntimeApi>(worker);
  return {
    runtime,
    callback: (listener) => proxy(listener),
    onBroadcast: (listener) => {
      const channel = new BroadcastChannel(BROADCAST_CHANNEL);
      channel.onmessage = (message: MessageEvent<RuntimeBroadcast>) => listener(message.data);
      return () => channel.close();
    },
  };
}
