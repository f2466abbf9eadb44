import { describe, expect, it } from 'vitest'
import { activePlan, entitlementsFor } from './entitlements'

const now = new Date('2026-06-01T12:00:00Z')

describe('activePlan', () => {
  it('keeps a lifetime plan forever and a yearly one until its access ends', () => {
    expect(activePlan({ plan: 'tier2', accessUntil: null }, now)).toBe('tier2')
    expect(activePlan({ plan: 'tier1', accessUntil: '2026-06-02T00:00:00Z' }, now)).toBe('tier1')
    expect(activePlan({ plan: 'tier1', accessUntil: new Date('2026-06-01T12:00:00Z') }, now)).toBe('free')
    expect(activePlan({ plan: 'tier3', accessUntil: '2025-01-01T00:00:00Z' }, now)).toBe('free')
  })
})

describe('entitlementsFor', () => {
  it('gives every paid tier more AI messages than the one below it', () => {
    const perDay = (['free', 'tier1', 'tier2', 'tier3'] as const).map(
      (plan) => entitlementsFor({ plan, accessUntil: null }, now).aiMessagesPerDay,
    )
    expect(perDay).toEqual([...perDay].sort((a, b) => a - b))
    expect(new Set(perDay).size).toBe(4)
  })

  it('falls back to the free allowance once a yearly plan has lapsed', () => {
    const lapsed = entitlementsFor({ plan: 'tier3', accessUntil: '2026-05-01T00:00:00Z' }, now)
    expect(lapsed).toEqual(entitlementsFor({ plan: 'free', accessUntil: null }, now))
  })
})

describe('people per shared task', () => {
  it('is 10 on the free plan and 50 on every paid one', () => {
    const limits = (['free', 'tier1', 'tier2', 'tier3'] as const).map(
      (plan) => entitlementsFor({ plan, accessUntil: null }, now).peoplePerSharedTask,
    )
    expect(limits).toEqual([10, 50, 50, 50])
  })
})
