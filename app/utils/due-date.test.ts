import { describe, expect, test } from 'vitest'
import { todayIn } from './calendar'
import { describeDue, dueWindowDays, isDueWithin } from './due-date'

describe('a due date as the viewer reads it', () => {
  test('later this year: the weekday, month and day', () => {
    expect(describeDue('2026-12-03', 'Not Started', '2026-11-26')).toEqual({
      state: 'later',
      label: 'Due Thu, Dec 3',
    })
  })
  test('another year names it', () => {
    expect(describeDue('2027-01-05', 'Not Started', '2026-11-26').label).toBe('Due Tue, Jan 5, 2027')
  })
  test('today, whatever its status', () => {
    expect(describeDue('2026-11-26', 'In Progress', '2026-11-26').label).toBe('Due today')
  })
  test('passed and not completed is overdue; passed and completed is only its date', () => {
    expect(describeDue('2026-11-25', 'In Progress', '2026-11-26')).toEqual({
      state: 'overdue',
      label: 'Overdue',
    })
    expect(describeDue('2026-11-25', 'Completed', '2026-11-26').label).toBe('Due Wed, Nov 25')
  })
  test('a task due today in Tokyo is not yet due in Los Angeles', () => {
    // 2026-11-26 03:00 UTC: already the 26th in Tokyo, still the 25th in Los Angeles.
    const now = Date.UTC(2026, 10, 26, 3)
    expect(describeDue('2026-11-26', 'Not Started', todayIn('Asia/Tokyo', now)).label).toBe('Due today')
    expect(describeDue('2026-11-26', 'Not Started', todayIn('America/Los_Angeles', now)).label).toBe(
      'Due Thu, Nov 26',
    )
    expect(describeDue('2026-11-25', 'Not Started', todayIn('Asia/Tokyo', now)).label).toBe('Overdue')
    expect(describeDue('2026-11-25', 'Not Started', todayIn('America/Los_Angeles', now)).label).toBe(
      'Due today',
    )
  })
})

describe('the due windows', () => {
  test('this week is from today through Sunday, across a month and a year', () => {
    expect(dueWindowDays('week', '2026-11-26')).toEqual({ from: '2026-11-26', before: '2026-11-30' })
    expect(dueWindowDays('week', '2026-11-23')).toEqual({ from: '2026-11-23', before: '2026-11-30' })
    expect(dueWindowDays('week', '2026-11-29')).toEqual({ from: '2026-11-29', before: '2026-11-30' })
    expect(dueWindowDays('week', '2027-01-01')).toEqual({ from: '2027-01-01', before: '2027-01-04' })
  })
  test('today is one day, across a year; overdue is every day before today', () => {
    expect(dueWindowDays('today', '2026-12-31')).toEqual({ from: '2026-12-31', before: '2027-01-01' })
    expect(dueWindowDays('overdue', '2026-11-26')).toEqual({ from: null, before: '2026-11-26' })
  })
  test('a Completed or undated task is in no window; a passed day is overdue, not this week', () => {
    const today = '2026-11-26'
    expect(isDueWithin('overdue', { dueDate: '2026-11-25', status: 'In Progress' }, today)).toBe(true)
    expect(isDueWithin('week', { dueDate: '2026-11-25', status: 'In Progress' }, today)).toBe(false)
    expect(isDueWithin('overdue', { dueDate: '2026-11-25', status: 'Completed' }, today)).toBe(false)
    expect(isDueWithin('today', { dueDate: null, status: 'Not Started' }, today)).toBe(false)
    expect(isDueWithin('week', { dueDate: '2026-11-29', status: 'Not Started' }, today)).toBe(true)
    expect(isDueWithin('week', { dueDate: '2026-11-30', status: 'Not Started' }, today)).toBe(false)
  })
})
