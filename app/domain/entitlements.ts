/**
 * What each plan unlocks, in one place. Services enforce these numbers (the AI chat's daily
 * messages, for one); pages only display them. A paid plan counts while its access lasts:
 * lifetime plans have no end, yearly ones end at `accessUntil`.
 */
import type { PlanId } from './constants'

export interface Entitlements {
  /** Messages a person may send to the AI chat per day (UTC). */
  aiMessagesPerDay: number
  /** People one of their tasks may be shared with (every plan stays within the 50 of task-schemas). */
  peoplePerSharedTask: number
  /**
   * People in one team workspace they own, its pending invitations counted: the owner's plan
   * decides for everyone in it. `null` is no limit.
   */
  membersPerWorkspace: number | null
}

const ENTITLEMENTS: Record<PlanId, Entitlements> = {
  free: { aiMessagesPerDay: 20, peoplePerSharedTask: 10, membersPerWorkspace: 3 },
  tier1: { aiMessagesPerDay: 100, peoplePerSharedTask: 50, membersPerWorkspace: 10 },
  tier2: { aiMessagesPerDay: 300, peoplePerSharedTask: 50, membersPerWorkspace: 50 },
  tier3: { aiMessagesPerDay: 1000, peoplePerSharedTask: 50, membersPerWorkspace: null },
}

/** What a person reads when a task would be shared with more people than their plan allows. */
export function sharingLimitMessage(limit: number) {
  return `Your plan shares a task with at most ${limit} people. A paid plan shares with up to 50.`
}

/** A plan's workspace size as the pricing and billing pages list it. */
export function workspaceSizeFeature(limit: number | null) {
  return `${limit === null ? 'Unlimited people' : `Up to ${limit} people`} in each team workspace`
}

/** Why an invitation is refused once a workspace holds as many people as its owner's plan allows. */
export function workspaceLimitMessage(planName: string, limit: number) {
  return `The ${planName} plan allows ${limit} people in a workspace (pending invitations count). Revoke a pending invitation, or the workspace’s owner can move to a larger plan.`
}

export interface PlanHolder {
  plan: PlanId
  accessUntil: Date | string | null
}

/** The plan a person holds right now: a yearly plan whose access has ended is the free plan. */
export function activePlan(person: PlanHolder, now = new Date()): PlanId {
  if (person.plan === 'free') return 'free'
  if (person.accessUntil === null) return person.plan
  return new Date(person.accessUntil).getTime() > now.getTime() ? person.plan : 'free'
}

export function entitlementsFor(person: PlanHolder, now = new Date()): Entitlements {
  return ENTITLEMENTS[activePlan(person, now)]
}
