// How many threads a local model runs on, for the worker that loads it and the page that says
// so: one computation, so Settings cannot claim what the model does not do.

export interface LocalThreads {
  threads: number;
  /** Why: the sentence Settings → Providers shows. */
  reason: string;
}

/**
 * Threads need memory they share (SharedArrayBuffer), which browsers allow only on a
 * cross-origin isolated page: one served with Cross-Origin-Opener-Policy: same-origin and
 * Cross-Origin-Embedder-Policy: require-corp. Then half the cores (at least two: the page and
 * other work keep the rest); else one.
 */
export function localThreads(crossOriginIsolated: boolean, cores: number): LocalThreads {
  if (!crossOriginIsolated) {
    return {
      threads: 1,
      reason:
        'Runs single-threaded: this page is not cross-origin isolated (its server sends no ' +
        'Cross-Origin-Opener-Policy and Cross-Origin-Embedder-Policy headers), and threads ' +
        'need that to share memory.',
    };
  }
  const threads = Math.max(2, Math.floor(cores / 2));
  return {
    threads,
    reason: `Runs multi-threaded (${threads} threads): this page is cross-origin isolated, so the model’s threads can share memory.`,
  };
}
