import { env } from '~/env.server'

/** Longer targets fall back: no page of ours needs one, and proxies refuse huge Location headers. */
const MAX_TARGET_LENGTH = 2048

/**
 * Where a redirect taken from user input may go: a path on this site, or null. This is the only
 * place that decides it; every `redirect`, `redirectTo` and `callbackURL` parameter goes through
 * here.
 *
 * The target is read the way a browser reads a URL (the WHATWG parser drops leading and trailing
 * spaces and control characters and every tab and newline, and reads `\` as `/`), resolved
 * against BASE_URL, and kept only if it lands on the same origin. A path (`/…`) or an absolute
 * URL of this site qualifies; a relative reference (`docs`, `?x`) does not, as a browser would
 * resolve it against whichever page it is on.
 *
 * What comes back is the parsed path, query and fragment: ASCII only (the parser
 * percent-encodes the rest), so a Location header can always carry it. A path the parser
 * normalizes to two leading slashes (`/.//evil.example`, `/a/..//evil.example`) is refused,
 * because a browser reading it back from a Location header would take `evil.example` for a host.
 */
export function localPath(target: unknown): string | null {
  if (typeof target !== 'string' || target.length > MAX_TARGET_LENGTH) return null
  const spelled = asBrowserReadsIt(target)
  const isRooted = spelled.startsWith('/') || spelled.startsWith('\\')
  if (!isRooted && !/^[a-z][a-z\d+.-]*:/i.test(spelled)) return null
  const base = new URL(env().BASE_URL)
  const url = URL.parse(spelled, base)
  if (!url || url.origin !== base.origin || url.pathname.startsWith('//')) return null
  return url.pathname + url.search + url.hash
}

/** A redirect target from user input, or `fallback` when it is not a path on this site. */
export function safeRedirect(target: unknown, fallback = '/') {
  return localPath(target) ?? fallback
}

/** The WHATWG URL parser's first steps: trim C0 controls and spaces, drop tabs and newlines. */
function asBrowserReadsIt(target: string) {
  let start = 0
  let end = target.length
  while (start < end && target.charCodeAt(start) <= 0x20) start += 1
  while (end > start && target.charCodeAt(end - 1) <= 0x20) end -= 1
  return target.slice(start, end).replace(/[\t\n\r]/g, '')
}
