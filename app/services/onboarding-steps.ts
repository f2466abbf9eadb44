/** The steps of first-run guidance, in order; client-safe, so the page can list them. */
export const ONBOARDING_STEPS = ['profile', 'task', 'share', 'explore'] as const
export type OnboardingStep = (typeof ONBOARDING_STEPS)[number]

/** The step after `step`, or null after the last. */
export function nextStep(step: OnboardingStep): OnboardingStep | null {
  return ONBOARDING_STEPS[ONBOARDING_STEPS.indexOf(step) + 1] ?? null
}

/** Where a new account lands after signing up (with a password or a provider). */
export const ONBOARDING_PATH = '/onboarding'
