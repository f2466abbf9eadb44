/**
 * A click the app may take over as a client-side navigation: the main button with no modifier,
 * not already handled. Anything else (a new tab, a new window, a download) stays the browser's,
 * as `<Link>` leaves it. For plain `<a>` elements that share one `navigate()` instead of each
 * being a `<Link>` (decision 031).
 */
export function isPlainLeftClick(
  event: Pick<MouseEvent, 'button' | 'metaKey' | 'altKey' | 'ctrlKey' | 'shiftKey' | 'defaultPrevented'>,
) {
  return (
    !event.defaultPrevented &&
    event.button === 0 &&
    !event.metaKey &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.shiftKey
  )
}
