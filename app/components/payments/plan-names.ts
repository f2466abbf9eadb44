import type { PlanId, PlanKind } from '~/domain/constants'
import { BILLING_TERMS, planName } from '~/pricing'

/** "Team, yearly". */
export function optionName(plan: PlanId, kind: PlanKind) {
  return `${planName(plan)}, ${BILLING_TERMS[kind].label.toLowerCase()}`
}

/** Dates as the billing pages show them, the same on the server and in the browser. */
export function formatDay(value: Date | string) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(value))
}
