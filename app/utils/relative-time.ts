const MINUTE = 60_000

/**
 * How long ago a comment was written (docs/product-rules.md §3): 'Just now', 'Nm ago', 'Nh ago', then the
 * local date. A time ahead of this clock (the server's and the browser's disagree) is 'Just now'.
 */
export function formatRelativeTime(iso: string, now: number = Date.now()): string {
  const minutes = Math.floor((now - Date.parse(iso)) / MINUTE)
  if (minutes < 1) return 'Just now'
  if (minutes < 60) return `${minutes}m ago`
  if (minutes < 1440) return `${Math.floor(minutes / 60)}h ago`
  return new Date(iso).toLocaleDateString()
}
