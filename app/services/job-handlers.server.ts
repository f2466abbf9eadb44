import type { JobHandler } from '~/jobs/jobs.server'
import { DUE_REMINDERS_JOB, runDueRemindersJob } from './due-reminders.server'
import { MENTION_EMAIL_JOB, runMentionEmailJob } from './mention-emails.server'
import {
  REPOSITORY_INVITATION_JOB,
  runRepositoryInvitationJob,
} from './payments/repository-invitations.server'
import { WEBHOOK_DELIVERIES_JOB, webhookDeliveriesHandler } from './webhooks/deliveries.server'
import { runWebhookFanOutJob, WEBHOOK_FAN_OUT_JOB } from './webhooks/fan-out.server'
import { WORKSPACE_DELETION_JOB, workspaceDeletionHandler } from './workspaces/deletion.server'

/**
 * What each type of job does. The runner (app/jobs) knows nothing of the domain; the server hands
 * it this table at boot, and wakes the outbox after each finished job (server/app.ts).
 */
export const jobHandlers: Record<string, JobHandler> = {
  [MENTION_EMAIL_JOB]: runMentionEmailJob,
  [DUE_REMINDERS_JOB]: runDueRemindersJob,
  [REPOSITORY_INVITATION_JOB]: runRepositoryInvitationJob,
  [WEBHOOK_FAN_OUT_JOB]: runWebhookFanOutJob,
  [WEBHOOK_DELIVERIES_JOB]: webhookDeliveriesHandler(),
  [WORKSPACE_DELETION_JOB]: workspaceDeletionHandler(),
}
