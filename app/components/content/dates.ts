/** A date as people read it ('November 22, 2026'), the same on server and client. */
export function formatLongDate(iso: string) {
  return new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' })
}
