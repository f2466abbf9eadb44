import { fc, test } from '@fast-check/vitest'
import { describe, expect } from 'vitest'
import {
  addDays,
  hourOf,
  isoDate,
  isTimeZone,
  localDateOf,
  mondayOf,
  startOfDay,
  weekdayOf,
} from './calendar'

/**
 * The local calendar the dashboard counts in. The property: whatever the zone and the instant,
 * the instant falls inside the day `localDateOf` names, between `startOfDay` of that day and of
 * the next, and that day lasts 23 to 25 hours.
 */

const ZONES = [
  'UTC',
  'America/New_York',
  'Europe/Berlin',
  'Australia/Lord_Howe', // a half-hour DST shift
  'Asia/Kathmandu', // a +05:45 offset
  'America/Santiago', // DST changes at midnight: some days start at 01:00
  'Pacific/Apia',
]
const HOUR = 3_600_000

describe('calendar', () => {
  test.prop([
    fc.constantFrom(...ZONES),
    fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }),
  ])('an instant lies within the local day it falls on, and days last 23 to 25 hours', (zone, instant) => {
    const day = localDateOf(instant, zone)
    const start = startOfDay(day, zone)
    const next = startOfDay(addDays(day, 1), zone)
    expect(start).toBeLessThanOrEqual(instant)
    expect(instant).toBeLessThan(next)
    expect(next - start).toBeGreaterThanOrEqual(23 * HOUR)
    expect(next - start).toBeLessThanOrEqual(25 * HOUR)
    expect(isoDate(localDateOf(start, zone))).toBe(isoDate(day))
  })

  test.prop([fc.date({ min: new Date('2000-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })])(
    'weeks start on Monday',
    (date) => {
      const day = localDateOf(date.getTime(), 'UTC')
      const monday = mondayOf(day)
      expect(weekdayOf(monday)).toBe(0)
      expect(weekdayOf(day)).toBe((date.getUTCDay() + 6) % 7)
    },
  )

  test.each([
    ['Europe/Berlin', true],
    ['UTC', true],
    ['Mars/Olympus_Mons', false],
    ['', false],
    ['x'.repeat(65), false],
    [undefined, false],
  ])('isTimeZone(%j) is %s', (value, expected) => {
    expect(isTimeZone(value)).toBe(expected)
  })

  test.each([
    // 23:30 UTC is 08:30 the next morning in Tokyo and 15:30 the same afternoon in Los Angeles.
    ['2030-03-04T23:30:00Z', 'Asia/Tokyo', 8],
    ['2030-03-04T23:30:00Z', 'America/Los_Angeles', 15],
    ['2030-03-04T23:30:00Z', 'UTC', 23],
    // The morning clocks went forward in Berlin (02:00 → 03:00): 07:00 UTC reads 09:00.
    ['2030-03-31T07:00:00Z', 'Europe/Berlin', 9],
    ['2030-03-30T07:00:00Z', 'Europe/Berlin', 8],
  ])('hourOf(%s, %s) is %i', (instant, zone, hour) => {
    expect(hourOf(Date.parse(instant), zone)).toBe(hour)
  })
})
