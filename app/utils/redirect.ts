/** Stands in for this site's origin: only where a target lands matters, not which host we are. */
const SITE = 'http://site.invalid'

/**
 * A redirect target taken from user input, kept only when it is a path on this site:
 * `//evil.example`, `/\evil.example`, `/<tab>/evil.example` and absolute URLs fall back, so there
 * is no open redirect. The target is resolved the way a browser's URL parser would (which drops
 * tabs and newlines and reads `\` as `/`) instead of guessing at its spelling.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (typeof target !== 'string' || !target.startsWith('/') || !URL.canParse(target, SITE)) return fallback
  const url = new URL(target, SITE)
  if (url.origin !== SITE) return fallback
  // The parsed form: no raw newlines or spaces that would break a Location header.
  return url.pathname + url.search + url.hash
}
