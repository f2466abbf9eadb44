import { expect, test } from 'vitest'
import { formatRelativeTime } from './relative-time'

const now = Date.parse('2025-06-15T12:00:00.000Z')
const ago = (milliseconds: number) => new Date(now - milliseconds).toISOString()
const SECOND = 1000
const MINUTE = 60 * SECOND

test.each([
  ['this instant', 0, 'Just now'],
  ['59 s', 59 * SECOND, 'Just now'],
  ['60 s', 60 * SECOND, '1m ago'],
  ['59 min 59 s', 59 * MINUTE + 59 * SECOND, '59m ago'],
  ['59 min', 59 * MINUTE, '59m ago'],
  ['60 min', 60 * MINUTE, '1h ago'],
  ['119 min', 119 * MINUTE, '1h ago'],
  ['120 min', 120 * MINUTE, '2h ago'],
  ['1439 min', 1439 * MINUTE, '23h ago'],
  ['a minute ahead (clock skew)', -MINUTE, 'Just now'],
  ['an hour ahead (clock skew)', -60 * MINUTE, 'Just now'],
])('%s ago is %j', (_, milliseconds, expected) => {
  expect(formatRelativeTime(ago(milliseconds), now)).toBe(expected)
})

test('from 1440 min on, the local date', () => {
  for (const minutes of [1440, 3 * 1440, 400 * 1440]) {
    const iso = ago(minutes * MINUTE)
    expect(formatRelativeTime(iso, now)).toBe(new Date(iso).toLocaleDateString())
  }
  expect(formatRelativeTime(ago(1440 * MINUTE), now)).not.toMatch(/ago|now/)
})

test('now defaults to the current time', () => {
  expect(formatRelativeTime(new Date().toISOString())).toBe('Just now')
  expect(formatRelativeTime(new Date(Date.now() - 5 * MINUTE).toISOString())).toBe('5m ago')
})
