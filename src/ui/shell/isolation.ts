// Cross-origin isolation on a static host that sets no headers (the coi-serviceworker technique):
// the service worker (src/sw.ts) adds COOP and COEP to every file it serves, but the very first
// visit comes from the network, before the worker exists. So once the worker is active, a page
// that is still not isolated reloads itself, once: the reload comes from the worker, isolated.
//
// What must stay true:
// - at most one such reload per tab (sessionStorage): a browser that does not isolate even with
//   the headers (or a worker that fails) must not reload forever;
// - nothing happens where isolation is already there (`vite preview`, `vite dev`, a host that
//   sends the headers) or impossible (no service worker, no `crossOriginIsolated`).

/** The tab's mark that it reloaded once already (sessionStorage). */
export const RELOADED = 'trellis-isolation-reload';

export function reloadOnceForIsolation(): void {
  if (typeof crossOriginIsolated !== 'boolean' || crossOriginIsolated) return;
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
  if (sessionStorage.getItem(RELOADED)) return;
  void navigator.serviceWorker.ready.then(() => {
    if (sessionStorage.getItem(RELOADED)) return;
    sessionStorage.setItem(RELOADED, String(Date.now()));
    location.reload();
  });
}
