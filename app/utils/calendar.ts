/**
 * Days and weeks as a person lives them: in their own time zone, weeks starting on Monday. A day
 * is not always 24 hours (a DST change makes one 23 or 25), so every boundary is computed from the
 * local calendar date, never by adding milliseconds.
 */

export const DEFAULT_TIME_ZONE = 'UTC'

/** A time zone the runtime knows (an IANA name such as `Europe/Berlin`); anything else is not. */
export function isTimeZone(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value })
    return true
  } catch {
    return false
  }
}

/** A calendar date, with months from 1. Arithmetic on it goes through `Date.UTC`, which normalises overflow. */
export type LocalDate = { year: number; month: number; day: number }

const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterFor(timeZone: string) {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}

/** The wall-clock reading of an instant in a zone, as if that reading were UTC. */
function wallClock(instant: number, timeZone: string) {
  const parts: Record<string, number> = {}
  for (const part of formatterFor(timeZone).formatToParts(new Date(instant))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value)
  }
  return Date.UTC(
    parts.year ?? 1970,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  )
}

/** The date an instant falls on in a zone. */
export function localDateOf(instant: number, timeZone: string): LocalDate {
  const wall = new Date(wallClock(instant, timeZone))
  return { year: wall.getUTCFullYear(), month: wall.getUTCMonth() + 1, day: wall.getUTCDate() }
}

/** The hour (0–23) an instant reads on a clock in a zone: 8 from 08:00 to 08:59 there, DST or not. */
export function hourOf(instant: number, timeZone: string) {
  return new Date(wallClock(instant, timeZone)).getUTCHours()
}

/** The date `days` days after `date` (before, when negative). */
export function addDays(date: LocalDate, days: number): LocalDate {
  const shifted = new Date(Date.UTC(date.year, date.month - 1, date.day + days))
  return { year: shifted.getUTCFullYear(), month: shifted.getUTCMonth() + 1, day: shifted.getUTCDate() }
}

/** 0 for Monday through 6 for Sunday. */
export function weekdayOf(date: LocalDate) {
  return (new Date(Date.UTC(date.year, date.month - 1, date.day)).getUTCDay() + 6) % 7
}

/** The Monday of the week `date` is in. */
export function mondayOf(date: LocalDate): LocalDate {
  return addDays(date, -weekdayOf(date))
}

/** `YYYY-MM-DD`, the form dates travel in. */
export function isoDate(date: LocalDate) {
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${date.year}-${pad(date.month)}-${pad(date.day)}`
}

/**
 * The instant a local date begins in a zone. The zone's offset is read at the guess and read
 * again at the answer, which settles it on either side of a DST change; where midnight does not
 * exist (a change at 00:00), the day begins at the first instant that does.
 */
export function startOfDay(date: LocalDate, timeZone: string) {
  const midnightAsUtc = Date.UTC(date.year, date.month - 1, date.day)
  const firstGuess = midnightAsUtc - (wallClock(midnightAsUtc, timeZone) - midnightAsUtc)
  const offset = wallClock(firstGuess, timeZone) - firstGuess
  const instant = midnightAsUtc - offset
  return localDateOf(instant, timeZone).day === date.day ? instant : firstGuess
}

/** The cookie through which the browser tells the server its time zone. */
export const TIME_ZONE_COOKIE = 'tz'

/**
 * Runs before first paint on every page: stores the browser's zone for the server's next render,
 * so "this week" ends on the person's own Sunday night. Until it has run once, the zone is UTC.
 */
export const timeZoneBootScript = `(()=>{try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(z)document.cookie='${TIME_ZONE_COOKIE}='+encodeURIComponent(z)+';path=/;max-age=31536000;samesite=lax'}catch(e){}})()`

/** Today's date in a zone, `YYYY-MM-DD`: what a due date is compared with. */
export function todayIn(timeZone: string, now = Date.now()) {
  return isoDate(localDateOf(now, timeZone))
}
