// The service worker (vite-plugin-pwa's injectManifest: this file, with the build's list of
// files put in for `self.__WB_MANIFEST`). It keeps every file of the app in the cache, so the app
// opens offline from the first visit on, and it makes the page cross-origin isolated on a host
// that sets no headers: every response it serves carries Cross-Origin-Opener-Policy and
// Cross-Origin-Embedder-Policy, as `vite preview` sends them (vite.config.ts), so that a local
// model may run on several threads (src/models/local/local-threads.ts).
//
// What must stay true:
// - the headers are the ones of ISOLATION_HEADERS in vite.config.ts (`require-corp`, not
//   `credentialless`: the app loads nothing cross-origin without CORS, the CSP allows no image or
//   frame from another origin, and Safari knows only `require-corp`);
// - a new version waits until the page says SKIP_WAITING (its Update button, UpdatePrompt.tsx);
// - the page reloads itself once when the worker first takes over (src/ui/isolation.ts): the
//   first visit is served by the network, without the headers.

/// <reference lib="webworker" />

import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { addPlugins } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope;

const ISOLATION_HEADERS: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** The response with the isolation headers added (a cached response's headers are read-only). */
function isolated(response: Response): Response {
  // An opaque or error response has no headers to change, and is not the app's own file.
  if (response.type === 'opaque' || response.type === 'error' || response.status === 0)
    return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

// Every file served from the cache (the page, its scripts and workers, the wasm) gets the headers:
// a worker's own response decides whether the worker is isolated.
addPlugins([{ handlerWillRespond: async ({ response }) => isolated(response) }]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any other address in the app opens the app. The page's own addresses are fragments of `/`
// (`/#/session/<id>/…`, src/ui/address.ts), which never reach this worker but as `/`, served from
// the precache above, offline too; this route is for any path typed or linked by hand.
registerRoute(new NavigationRoute(createHandlerBoundToURL('/index.html')));

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
