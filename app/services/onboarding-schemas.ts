import { z } from '~/utils/zod'
import { ONBOARDING_STEPS } from './onboarding-steps'
import { ShareEmailsSchema, splitEmails } from './tasks/task-schemas'

export const OnboardingStepSchema = z.enum(ONBOARDING_STEPS)

export const ShareFirstTaskSchema = z.object({
  taskId: z.string({ error: 'Create a task first' }).min(1, 'Create a task first'),
  sharedWith: z.preprocess(splitEmails, ShareEmailsSchema).default([]),
  isPublic: z.preprocess((value) => value === 'on', z.boolean()).default(false),
})
