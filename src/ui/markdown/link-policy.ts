// Which URLs in a model's answer may become links. A model's text is untrusted (it can be
// prompt-injected), so only three schemes are links; everything else stays plain text.
//
// What must stay true:
// - the scheme is judged as written, before any URL parser forgives what browsers forgive
//   (leading spaces or control characters, tabs or newlines inside the scheme): `java\tscript:`
//   and ` javascript:` fail here even though a browser would run them;
// - relative URLs are not links (they would resolve against the app's own origin);
// - the whole URL must still parse as a URL of that scheme (no `http:` with nowhere to go).

const SCHEMES = ['http:', 'https:', 'mailto:'] as const;

/** Printable ASCII only: markdown-it percent-encodes the rest of a destination before we see it. */
const PRINTABLE = /^[\x21-\x7e]+$/;

export function isSafeLink(href: unknown): href is string {
  if (typeof href !== 'string' || !PRINTABLE.test(href)) return false;
  const written = /^([a-z][a-z0-9+.-]*:)/i.exec(href)?.[1]?.toLowerCase();
  if (!written || !(SCHEMES as readonly string[]).includes(written)) return false;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false; // not a URL at all: shown as the text it is
  }
  if (url.protocol !== written) return false;
  return url.protocol === 'mailto:' ? url.pathname.length > 0 : url.hostname.length > 0;
}
