// The page's security policy, in one place: `vite preview` sends it (vite.config.ts), the built
// index.html carries the part a meta tag can say, and the service worker (src/sw.ts) puts it on
// every response it serves, so a static host that sends no headers gets the same policy after the
// first visit. Plain data: this module is imported by the Vite config (Node) and by the service
// worker alike.

/** The Content-Security-Policy with `connect-src` as given. */
const policyConnectingTo = (connect: string) =>
  [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self'",
    "img-src 'self' blob: data:",
    "font-src 'self'",
    `connect-src ${connect}`,
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "frame-src 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');

/**
 * The Content-Security-Policy of the app's files, the runtime worker's script among them. Scripts
 * only from the app itself (and WebAssembly compiled by it, for a local model): no inline script,
 * no eval, no plugin. The runtime worker may connect to any https or http server, because the
 * servers are the user's to choose at run time (model providers, MCP and ADK servers, a local
 * Ollama on another machine); docs/architecture.md says why this is not narrowed to the servers
 * the user added. Images from the app, blob: (artifacts, attachments) and data: URLs.
 */
export const CONTENT_SECURITY_POLICY = policyConnectingTo("'self' https: http: wss: ws: blob:");

/**
 * The policy of the app's pages, which connect to nothing but the app itself: every request to a
 * server is the runtime worker's, under its own script's policy (a dedicated worker started from
 * a URL does not inherit its page's). A script injected into the page could send nothing out.
 */
export const PAGE_CONTENT_SECURITY_POLICY = policyConnectingTo("'self' blob:");

/**
 * Trusted Types (src/ui/shell/trusted-types.ts), for documents only: a worker's policy comes from
 * its own script's response, and the workers (the runtime, wllama's, the service worker) touch no
 * DOM but do start workers from URLs, which Trusted Types would refuse without a policy of their
 * own.
 */
export const TRUSTED_TYPES_POLICY =
  "require-trusted-types-for 'script'; trusted-types default trellis-markdown";

/**
 * Cross-origin isolation: with these two headers the page may share memory between threads
 * (SharedArrayBuffer), which a local model needs to run on more than one core. `require-corp`
 * blocks only cross-origin resources loaded without CORS (no-cors images, scripts, frames); the
 * app loads none: its own files are same-origin, and what it fetches from model providers, MCP
 * and ADK servers goes through CORS, as it must already, and the CSP allows no image or frame
 * from another origin. (Not `credentialless`: it would allow what the app does not need, and
 * Safari does not know it.)
 */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * Powerful features the app does not use, off for it and for anything it could be made to embed.
 * The microphone joins the list's exceptions the day dictation exists; every name here is one
 * Chromium knows (an unknown one is logged as an error on every page load).
 */
export const PERMISSIONS_POLICY = [
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'display-capture=()',
].join(', ');

/** What every response of the app carries: its files, its workers' scripts, its pages. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  ...ISOLATION_HEADERS,
  // A header may say what a meta tag cannot: that no other site may frame the app.
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'Permissions-Policy': PERMISSIONS_POLICY,
  // Another site may not load the app's files as its own images, scripts or media.
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** The policy a page's meta tag says (a meta tag cannot say `frame-ancestors`). */
export const PAGE_META_POLICY = `${PAGE_CONTENT_SECURITY_POLICY}; ${TRUSTED_TYPES_POLICY}`;

/**
 * What a page (an HTML document) of the app carries: the above, with the page's policy: no
 * connections out, and Trusted Types.
 */
export const DOCUMENT_HEADERS: Readonly<Record<string, string>> = {
  ...SECURITY_HEADERS,
  'Content-Security-Policy': `${PAGE_META_POLICY}; frame-ancestors 'none'`,
};

/** A path (and query) whose path ends in a file's extension (`/robots.txt`, `/a.js?v=2`). */
export const FILE_ADDRESS = /^[^?#]*\.[A-Za-z0-9]{1,12}(?:[?#]|$)/;

/**
 * Whether a path names a file (its last part has an extension: `/robots.txt`, `/x/app.js`)
 * rather than a place in the app (`/`, `/s/abc`): a file that does not exist is a 404, never the
 * app's page.
 */
export const looksLikeFile = (pathname: string) => FILE_ADDRESS.test(pathname);
