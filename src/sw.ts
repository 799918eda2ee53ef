// The service worker (vite-plugin-pwa's injectManifest: this file, with the build's list of
// files put in for `self.__WB_MANIFEST`). It keeps every file of the app in the cache, so the app
// opens offline from the first visit on, and it gives what it serves the app's security headers
// on a host that sets none (src/security-headers.ts, as `vite preview` sends them): the policy,
// Trusted Types on pages, and cross-origin isolation (Cross-Origin-Opener-Policy and
// Cross-Origin-Embedder-Policy), so that a local model may run on several threads
// (src/models/local/local-threads.ts).
//
// What must stay true:
// - the headers are the ones of src/security-headers.ts, which `vite preview` sends too;
// - a new version waits until the page says SKIP_WAITING (its Update button, UpdatePrompt.tsx);
// - the page reloads itself once when the worker first takes over (src/ui/shell/isolation.ts): the
//   first visit is served by the network, without the headers.

/// <reference lib="webworker" />

import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { addPlugins } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { DOCUMENT_HEADERS, FILE_ADDRESS, SECURITY_HEADERS } from './security-headers.ts';

declare const self: ServiceWorkerGlobalScope;

/**
 * The response with the app's security headers added (a cached response's headers are
 * read-only); a page's with Trusted Types.
 */
function secured(request: Request, response: Response): Response {
  // An opaque or error response has no headers to change, and is not the app's own file.
  if (response.type === 'opaque' || response.type === 'error' || response.status === 0)
    return response;
  const headers = new Headers(response.headers);
  const page = request.mode === 'navigate' || request.destination === 'document';
  for (const [name, value] of Object.entries(page ? DOCUMENT_HEADERS : SECURITY_HEADERS))
    headers.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

// Every file served from the cache (the page, its scripts and workers, the wasm) gets the headers:
// a worker's own response decides whether the worker is isolated.
addPlugins([{ handlerWillRespond: async ({ request, response }) => secured(request, response) }]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any other address in the app opens the app. The page's own addresses are fragments of `/`
// (`/#/session/<id>/…`, src/ui/shell/address.ts), which never reach this worker but as `/`, served
// from the precache above, offline too; this route is for any path typed or linked by hand. An
// address that names a file the app does not have (`/robots.txt` once) goes to the host, which
// answers 404.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), {
    denylist: [FILE_ADDRESS],
  }),
);

self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
