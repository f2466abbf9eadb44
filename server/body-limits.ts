/**
 * The most bytes a request body may have, by path, refused with 413 before anything reads it.
 * Forms and JSON fit in 64 KiB: the largest field, a 5,000-character comment, is about 60 KiB even
 * as percent-encoded emoji. Endpoints that take more are listed by path prefix.
 */
const DEFAULT_BODY_LIMIT = 64 * 1024
const BODY_LIMITS: ReadonlyArray<readonly [prefix: string, bytes: number]> = [
  ['/api/stripe/webhook', 512 * 1024],
]

export function bodyLimit(pathname: string) {
  return BODY_LIMITS.find(([prefix]) => pathname.startsWith(prefix))?.[1] ?? DEFAULT_BODY_LIMIT
}
