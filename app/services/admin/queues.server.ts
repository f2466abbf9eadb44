import { and, asc, count, desc, eq, min } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { emailOutbox, jobs, users, webhookEndpoints } from '~/db/schema'
import { commit, type Step, wroteJustBefore } from '~/db/write.server'
import { NotFound } from '../errors'
import { type AdminActor, auditStep } from './audit.server'

/**
 * The jobs queue and the e-mail outbox as an operator needs them: how much waits, and the items
 * that gave up, with their error, to run again or drop. A job's payload and an e-mail's subject
 * and body are never shown: they may quote a task or a comment.
 */

const ITEM_NOT_FOUND = 'That item is no longer failed: it was retried or discarded.'
const FAILED_PAGE_SIZE = 100

export async function getQueues(db: Database) {
  const [jobsWaiting, emailsWaiting, failedJobs, failedEmails, pausedEndpoints] = await Promise.all([
    db
      .select({ count: count(), oldest: min(jobs.runAt) })
      .from(jobs)
      .where(eq(jobs.status, 'pending')),
    db
      .select({ count: count(), oldest: min(emailOutbox.createdAt) })
      .from(emailOutbox)
      .where(eq(emailOutbox.status, 'pending')),
    db
      .select({
        id: jobs.id,
        type: jobs.type,
        attempts: jobs.attempts,
        lastError: jobs.lastError,
        updatedAt: jobs.updatedAt,
      })
      .from(jobs)
      .where(eq(jobs.status, 'failed'))
      .orderBy(desc(jobs.updatedAt))
      .limit(FAILED_PAGE_SIZE),
    db
      .select({
        id: emailOutbox.id,
        to: emailOutbox.to,
        attempts: emailOutbox.attempts,
        lastError: emailOutbox.lastError,
        createdAt: emailOutbox.createdAt,
      })
      .from(emailOutbox)
      .where(eq(emailOutbox.status, 'failed'))
      .orderBy(asc(emailOutbox.createdAt))
      .limit(FAILED_PAGE_SIZE),
    // Paused by a day of failed deliveries (`pausedReason`) or by their owner; only the owner resumes.
    db
      .select({
        id: webhookEndpoints.id,
        url: webhookEndpoints.url,
        reason: webhookEndpoints.pausedReason,
        ownerId: users.id,
        ownerEmail: users.email,
        createdAt: webhookEndpoints.createdAt,
      })
      .from(webhookEndpoints)
      .innerJoin(users, eq(users.id, webhookEndpoints.userId))
      .where(eq(webhookEndpoints.status, 'paused'))
      .orderBy(desc(webhookEndpoints.createdAt))
      .limit(FAILED_PAGE_SIZE),
  ])
  return {
    jobsWaiting: jobsWaiting[0] ?? { count: 0, oldest: null },
    emailsWaiting: emailsWaiting[0] ?? { count: 0, oldest: null },
    failedJobs,
    failedEmails,
    // The address without its query: a receiver's URL may carry a secret there.
    pausedEndpoints: pausedEndpoints.map((endpoint) => ({
      ...endpoint,
      url: endpoint.url.split('?')[0] ?? '',
    })),
  }
}

/** Runs an item's commit and its audit row, both only while the item is still failed. */
async function onFailedItem(db: Database, steps: { change: Step; audit: Step }) {
  const { change } = await commit(db, steps)
  if (change.rowsAffected === 0) throw new NotFound(ITEM_NOT_FOUND)
}

const failedJob = (id: string) => and(eq(jobs.id, id), eq(jobs.status, 'failed'))
const failedEmail = (id: string) => and(eq(emailOutbox.id, id), eq(emailOutbox.status, 'failed'))

export function retryJob(db: Database, admin: AdminActor, id: string, now = new Date()) {
  return onFailedItem(db, {
    change: db
      .update(jobs)
      .set({ status: 'pending', attempts: 0, runAt: now, lockedUntil: null, lastError: null, updatedAt: now })
      .where(failedJob(id)),
    audit: auditStep(db, admin, 'retry-job', { target: id }, wroteJustBefore),
  })
}

export function discardJob(db: Database, admin: AdminActor, id: string) {
  return onFailedItem(db, {
    change: db.delete(jobs).where(failedJob(id)),
    audit: auditStep(db, admin, 'discard-job', { target: id }, wroteJustBefore),
  })
}

export function retryEmail(db: Database, admin: AdminActor, id: string, now = new Date()) {
  return onFailedItem(db, {
    change: db
      .update(emailOutbox)
      .set({ status: 'pending', attempts: 0, nextAttemptAt: now, lastError: null })
      .where(failedEmail(id)),
    audit: auditStep(db, admin, 'retry-email', { target: id }, wroteJustBefore),
  })
}

export function discardEmail(db: Database, admin: AdminActor, id: string) {
  return onFailedItem(db, {
    change: db.delete(emailOutbox).where(failedEmail(id)),
    audit: auditStep(db, admin, 'discard-email', { target: id }, wroteJustBefore),
  })
}
