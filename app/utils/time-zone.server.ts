import { DEFAULT_TIME_ZONE, isTimeZone, TIME_ZONE_COOKIE } from './calendar'
import { readCookie } from './cookies.server'

/** The zone the browser reported (see `timeZoneBootScript`); UTC until it has, or when the cookie is not a zone. */
export function timeZoneFrom(headers: Headers) {
  const zone = readCookie(headers.get('Cookie'), TIME_ZONE_COOKIE)
  return isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE
}
