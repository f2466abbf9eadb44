/**
 * A redirect target taken from user input, kept only when it is a path on this site:
 * `//evil.example`, `/\evil.example` and absolute URLs fall back, so there is no open redirect.
 */
export function safeRedirect(target: FormDataEntryValue | string | null | undefined, fallback = '/') {
  if (
    typeof target !== 'string' ||
    !target.startsWith('/') ||
    target.startsWith('//') ||
    target.startsWith('/\\')
  ) {
    return fallback
  }
  return target
}
