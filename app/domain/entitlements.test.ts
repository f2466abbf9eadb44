import { describe, expect, it } from 'vitest'
import { activePlan, entitlementsFor, workspaceLimitMessage, workspaceSizeFeature } from './entitlements'

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

describe('people in a workspace', () => {
  it('is 3 on the free plan, 10 and 50 on tiers 1 and 2, and unlimited on tier 3', () => {
    const limits = (['free', 'tier1', 'tier2', 'tier3'] as const).map(
      (plan) => entitlementsFor({ plan, accessUntil: null }, now).membersPerWorkspace,
    )
    expect(limits).toEqual([3, 10, 50, null])
    expect(limits.map(workspaceSizeFeature)).toEqual([
      'Up to 3 people in each team workspace',
      'Up to 10 people in each team workspace',
      'Up to 50 people in each team workspace',
      'Unlimited people in each team workspace',
    ])
  })

  it('a refusal names the plan and says pending invitations count', () => {
    expect(workspaceLimitMessage('Free', 3)).toBe(
      'The Free plan allows 3 people in a workspace (pending invitations count). Revoke a pending invitation, or the workspace’s owner can move to a larger plan.',
    )
  })
})
