/** A host no one can own (RFC 6761): what `next` is resolved against to tell our paths from elsewhere. */
const BASE = 'http://doable.invalid';

/** Longer than any path Doable makes (the OAuth authorize URL with its fields is well under). */
const MAX_NEXT_LENGTH = 4000;

/**
 * Where to go after logging in or signing up: only a path on this site, whatever the text
 * says. `next` is resolved with the WHATWG URL parser, the one browsers use, so everything a
 * browser forgives is forgiven the same way before the origin is compared: tabs, CR and LF
 * anywhere, leading and trailing whitespace and control characters, backslashes read as
 * slashes (`/\t/evil.example`, `/\evil.example`, `\\evil.example`, ` //evil.example` all name
 * another host, so all fall back). What comes back is the parser's own serialisation: ASCII
 * only (anything else percent-encoded), so it is always a valid Location header, and never
 * starting with `//`. A percent-encoded slash (`/%2F/evil.example`) stays encoded: a browser
 * reads it as one path segment on this site.
 */
export function safeNext(next: string | undefined, fallback: string): string {
  if (!next || next.length > MAX_NEXT_LENGTH) return fallback;
  let url: URL;
  try {
    url = new URL(next, `${BASE}/`);
  } catch {
    return fallback;
  }
  if (url.origin !== BASE) return fallback;
  const path = `${url.pathname}${url.search}${url.hash}`;
  // The parser keeps `//` inside a path (`http://doable.invalid//evil.example` has the path
  // `//evil.example`), which, sent alone, a browser would read as another host.
  if (!path.startsWith('/') || path.startsWith('//')) return fallback;
  return path;
}
