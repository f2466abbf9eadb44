import type { PlanId, PlanKind } from '~/domain/constants'
import { BILLING_TERMS, findPlan, type TierId } from '~/pricing'

/** "Team" for `tier2`; "Free" for the free plan. */
export function planName(plan: PlanId) {
  return plan === 'free' ? 'Free' : findPlan(Number(plan.slice(4)) as TierId).name
}

/** "Team, yearly". */
export function optionName(plan: PlanId, kind: PlanKind) {
  return `${planName(plan)}, ${BILLING_TERMS[kind].label.toLowerCase()}`
}

/** Dates as the billing pages show them, the same on the server and in the browser. */
export function formatDay(value: Date | string) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(value))
}
