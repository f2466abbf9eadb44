const shortDates = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** "Mar 9" for `2026-03-09`: a date the server already placed in the person's zone. */
export function shortDate(isoDate: string | undefined) {
  if (!isoDate) return ''
  const [year = 1970, month = 1, day = 1] = isoDate.split('-').map(Number)
  return shortDates.format(new Date(Date.UTC(year, month - 1, day)))
}

/** "under an hour", "3.5 h", "2 days": a duration in the unit a person would say it in. */
export function formatHours(hours: number) {
  if (hours < 1) return 'under an hour'
  if (hours < 48) return `${hours} h`
  return `${Math.round(hours / 24)} days`
}

export function plural(count: number, one: string, many = `${one}s`) {
  return `${count} ${count === 1 ? one : many}`
}
