/**
 * What each plan unlocks, in one place. Services enforce these numbers (the AI chat's daily
 * messages, for one); pages only display them. A paid plan counts while its access lasts:
 * lifetime plans have no end, yearly ones end at `accessUntil`.
 */
import type { PlanId } from './constants'

export interface Entitlements {
  /** Messages a person may send to the AI chat per day (UTC). */
  aiMessagesPerDay: number
}

const ENTITLEMENTS: Record<PlanId, Entitlements> = {
  free: { aiMessagesPerDay: 20 },
  tier1: { aiMessagesPerDay: 100 },
  tier2: { aiMessagesPerDay: 300 },
  tier3: { aiMessagesPerDay: 1000 },
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
