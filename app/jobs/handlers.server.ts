import { kickOutbox } from '~/email/worker.server'
import { MENTION_EMAIL_JOB, runMentionEmailJob } from '~/services/mention-emails.server'
import type { JobHandler } from './jobs.server'

/** What each type of job does. A job that queued e-mail wakes the outbox, so it goes out now. */
export const jobHandlers: Record<string, JobHandler> = {
  [MENTION_EMAIL_JOB]: async (db, payload, now) => {
    if ((await runMentionEmailJob(db, payload, now)) > 0) kickOutbox()
  },
}
