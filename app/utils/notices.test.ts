import { expect, test } from 'vitest'
import { noticeNoun } from './notices'

test('mentions are named as mentions; once an assignment is among them, as notifications', () => {
  expect(noticeNoun([{ type: 'mention' }])).toBe('mention')
  expect(noticeNoun([{ type: 'mention' }, {}])).toBe('mentions')
  expect(noticeNoun([{ type: 'assignment' }])).toBe('notification')
  expect(noticeNoun([{ type: 'mention' }, { type: 'assignment' }])).toBe('notifications')
  expect(noticeNoun([{ type: 'assignment' }], 5)).toBe('notifications')
})
