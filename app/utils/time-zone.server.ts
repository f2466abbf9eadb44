import { DEFAULT_TIME_ZONE, isTimeZone, TIME_ZONE_COOKIE, todayIn } from './calendar'
import { readCookie } from './cookies.server'

/** The zone the browser reported (see `timeZoneBootScript`); UTC until it has, or when the cookie is not a zone. */
export function timeZoneFrom(headers: Headers) {
  const zone = readCookie(headers.get('Cookie'), TIME_ZONE_COOKIE)
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE
}

/** Today in the zone the browser reported, `YYYY-MM-DD`: what the views of due dates compare with. */
export function todayFor(headers: Headers) {
  return todayIn(timeZoneFrom(headers))
}
