import { expect } from 'vitest'
import { env } from '~/env.server'

/**
 * Redirect targets that try to leave the site, one per known bypass family, each as the client
 * would send it (a form field or a decoded query parameter). Every route that takes a return
 * address is tested with all of them.
 */
export const OFF_SITE_TARGETS: [label: string, target: string][] = [
  ['a protocol-relative URL', '//evil.example'],
  ['three slashes', '///evil.example'],
  ['a backslash read as a slash', '/\\evil.example'],
  ['backslashes only', '\\\\evil.example'],
  ['a tab between the slashes', '/\t/evil.example'],
  ['a carriage return between the slashes', '/\r/evil.example'],
  ['a line feed between the slashes', '/\n/evil.example'],
  ['a dot segment before the second slash', '/.//evil.example'],
  ['a dot segment before a backslash', '/./\\evil.example'],
  ['a dot-dot segment that leaves two slashes', '/a/..//evil.example'],
  ['an encoded dot-dot segment', '/a/%2e%2e//evil.example'],
  ['an absolute URL elsewhere', 'https://evil.example/phish'],
  ['a mixed-case scheme elsewhere', 'HtTpS://evil.example'],
  ['a scheme with no slashes', 'https:evil.example'],
  ['a scheme with a backslash', 'http:/\\evil.example'],
  ['javascript:', 'javascript:alert(1)'],
  ['mixed-case javascript:', 'JaVaScRiPt:alert(1)'],
  ['javascript: behind padding', ' \tjavascript:alert(1)'],
  ['data:', 'data:text/html,<script>alert(1)</script>'],
  ['whitespace before the slashes', '  //evil.example'],
  ['a control character before the slashes', '\u0000//evil.example'],
  ['unicode slashes with no path before them', '\uFF0F\uFF0Fevil.example'],
  ['a relative path', 'evil.example'],
  ['a very long path', `/${'a'.repeat(5000)}`],
]

/**
 * Odd spellings that stay on the site: a route must not answer them with a 500 (a raw CR, LF or
 * non-ASCII character cannot go into a Location header), and wherever it sends the browser must
 * be on the site.
 */
export const ODD_LOCAL_TARGETS: [label: string, target: string][] = [
  ['a percent-encoded slash', '/%2F/evil.example'],
  ['a percent-encoded backslash', '/%5C/evil.example'],
  ['a fullwidth slash', '/\uFF0F/evil.example'],
  ['a division slash', '/\u2215evil.example'],
  ['a header injection', '/docs\r\nSet-Cookie: session=stolen'],
  ['non-ASCII text', '/docs/caf\u00e9'],
]

/** Asserts that a browser following `location` from any page of this site stays on it. */
export function expectOnSite(location: string | null | undefined) {
  expect(location).toEqual(expect.any(String))
  const site = new URL(env().BASE_URL)
  const landing = new URL(location as string, new URL('/some/page', site))
  expect(landing.origin, `${JSON.stringify(location)} leaves the site`).toBe(site.origin)
  // A Location header could carry it: ASCII only, no CR or LF.
  expect(() => new Headers({ Location: location as string })).not.toThrow()
}
