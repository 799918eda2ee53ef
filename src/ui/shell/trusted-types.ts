// Trusted Types: with `require-trusted-types-for 'script'` in the page's Content-Security-Policy,
// the DOM's injection sinks (innerHTML, a script's src, a worker's or the service worker's script
// URL) take only values a named policy made, and the CSP's `trusted-types` list names every
// policy that may exist (vite.config.ts). Two do:
// - `default`, which the browser asks when a library hands a sink a plain string. It vouches for
//   script URLs of the app's own origin (the runtime worker, the service worker) and for nothing
//   else: no HTML, no script. A string of HTML given to innerHTML is refused with a TypeError.
// - `trellis-markdown` (src/ui/markdown/sanitize.ts), which DOMPurify alone uses to parse a
//   model's Markdown into an inert document before it sanitises it.
// Browsers without Trusted Types skip all of this; the rest of the CSP still holds there.

/** The policy factory, where the browser has one (Chromium; not Firefox or older Safari). */
export interface PolicyFactory {
  createPolicy<T extends object>(name: string, rules: T): T & { readonly name: string };
}

export function policyFactory(): PolicyFactory | undefined {
  return (globalThis as { trustedTypes?: PolicyFactory }).trustedTypes;
}

/** The page's `default` policy, installed before anything starts a worker or registers one. */
export function installDefaultPolicy(): void {
  policyFactory()?.createPolicy('default', {
    createScriptURL: (input: string) => sameOriginScript(input, location.href),
  });
}

/** `input` if it names a script of the page's own origin; `null` (the sink refuses it) if not. */
export function sameOriginScript(input: string, base: string): string | null {
  try {
    return new URL(input, base).origin === new URL(base).origin ? input : null;
  } catch {
    return null; // not a URL at all
  }
}
