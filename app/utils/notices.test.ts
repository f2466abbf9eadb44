import { expect, test } from 'vitest'
import { countNotices } from './notices'

test('mentions are counted as mentions; once an assignment is among them, as notifications', () => {
  expect(countNotices([{ type: 'mention' }])).toBe('1 mention')
  expect(countNotices([{ type: 'mention' }, {}])).toBe('2 mentions')
  expect(countNotices([{ type: 'assignment' }])).toBe('1 notification')
  expect(countNotices([{ type: 'mention' }, { type: 'assignment' }])).toBe('2 notifications')
  expect(countNotices([{ type: 'mention' }, { type: 'assignment' }], 5)).toBe('5 notifications')
})
