const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' })

/**
 * A date as people read it ('November 22, 2026'), the same on the server and in every browser
 * (UTC). One formatter for the process: building one per call cost more than formatting.
 */
export function formatLongDate(iso: string) {
  return longDate.format(new Date(iso))
}
