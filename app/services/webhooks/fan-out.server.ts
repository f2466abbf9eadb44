import { and, asc, eq, gte, inArray, lt, lte, notExists, or, sql } from 'drizzle-orm'
import { type Database, database, onCommit } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { events, jobs, users, webhookDeliveries, webhookEndpoints } from '~/db/schema'
import { commit, insertIf } from '~/db/write.server'
import { eventLogHead, type LoggedEvent, readEventsAfter } from '~/events/log.server'
import { scheduleJob, scheduleJobBy } from '~/jobs/jobs.server'
import { type BackgroundLoop, createBackgroundLoop } from '~/utils/background-loop.server'
import { readComment } from '../comment-views.server'
import { isDomainError } from '../errors'
import type { Actor } from '../session-user'
import { readAudiences } from '../tasks/audience.server'
import { getTask } from '../tasks/reads.server'
import { ruleHolds, storedAudience, type TaskAudience } from '../tasks/rule.server'
import { deliverSoon, RETRY_FOR_MS } from './deliveries.server'
import type { WebhookEventType } from './webhook-schemas'

/**
 * From the event log to messages (docs/decisions/043-standard-webhooks.md): a recurring job reads
 * the events after each active endpoint's cursor, keeps those of the types it asked for about
 * tasks its owner could see at the time of the event and still may — `ruleHolds('see')` over
 * the task's audience then and now (whoMayHear) — and queues one message
 * per event and endpoint. The message's body is rendered now, by the reads the RPC endpoint answers
 * with, as the endpoint's owner would be shown it, and kept: every retry and redelivery sends
 * the same body under the same `webhook-id`. Message rows, cursor and job commit together, each
 * cursor guarded by its old value, so two runs never queue an event twice. The job runs every few
 * seconds, and at once after a commit of this process that logged an event an endpoint has not
 * heard of (fanOutSoon).
 */

export const WEBHOOK_FAN_OUT_JOB = 'webhook-fan-out'
const RUN_EVERY_MS = 5_000
const PAGE_SIZE = 200
/** A body over this sends the subject's id alone (`isTruncated`), never a partial JSON. */
const MAX_BODY_BYTES = 256 * 1024

/** The recurring job, keyed by its type like the due-date reminders' (housekeeping makes sure of it). */
export async function scheduleWebhookFanOut(db: Database, runAt = new Date()) {
  await commit(db, {
    job: scheduleJob(db, { id: WEBHOOK_FAN_OUT_JOB, type: WEBHOOK_FAN_OUT_JOB, payload: {}, runAt }),
  })
}

/**
 * Brings the fan-out forward to now when an active endpoint has not been given the log's newest
 * event and the job is neither due nor running (a run reschedules itself as it ends, and that
 * commit calls this again for what came meanwhile). Queued for now, the job wakes the runners at
 * once (jobs.server.ts). A read when there is nothing to do; true when it brought the job forward.
 */
async function fanOutSoon(db: Database, now = new Date()) {
  const [behind] = await endpointBehind(db).execute({ now: now.getTime() })
  if (!behind) return false
  await commit(db, {
    job: scheduleJobBy(db, { id: WEBHOOK_FAN_OUT_JOB, type: WEBHOOK_FAN_OUT_JOB, payload: {}, runAt: now }),
  })
  return true
}

/** fanOutSoon's read, built once: it follows every commit. */
const endpointBehind = preparedPerDatabase((db) => {
  const isFanOutDueOrRunning = db
    .select({ id: jobs.id })
    .from(jobs)
    .where(
      and(
        eq(jobs.id, WEBHOOK_FAN_OUT_JOB),
        or(
          eq(jobs.status, 'running'),
          and(eq(jobs.status, 'pending'), lte(jobs.runAt, sql.placeholder('now'))),
        ),
      ),
    )
  return db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.status, 'active'),
        lt(webhookEndpoints.cursor, sql`(SELECT max(${events.id}) FROM ${events})`),
        notExists(isFanOutDueOrRunning),
      ),
    )
    .limit(1)
    .prepare()
})

/**
 * One run; the next is scheduled as it ends, failed or not: a failure waits one period, not the
 * runner's backoff.
 */
export async function runWebhookFanOutJob(db: Database, _payload: Record<string, unknown>, now: Date) {
  try {
    return await fanOutEvents(db, now)
  } finally {
    await scheduleWebhookFanOut(db, new Date(now.getTime() + RUN_EVERY_MS))
  }
}

/** The webhook type of a logged event, or null for one webhooks do not carry (reactions, chats). */
function webhookTypeOf(event: Pick<LoggedEvent, 'topic' | 'type' | 'payload'>): WebhookEventType | null {
  if (event.topic === 'tasks') {
    const types: Record<string, WebhookEventType> = {
      'task-created': 'task.created',
      'task-updated': 'task.updated',
      'task-status-changed': 'task.status_changed',
      'task-deleted': 'task.deleted',
    }
    return types[event.type] ?? null
  }
  if (event.topic !== 'comments') return null
  // An assignment is logged as a mention without a comment (tasks/assignment.server.ts).
  if (event.type === 'mention') return event.payload.commentId ? 'mention' : 'assignment'
  const types: Record<string, WebhookEventType> = {
    'comment-added': 'comment.added',
    'comment-updated': 'comment.updated',
    'comment-deleted': 'comment.deleted',
  }
  return types[event.type] ?? null
}

type Endpoint = { id: string; events: string[]; cursor: number; owner: Actor }

/** Fans out every event logged so far; answers how many messages it queued. */
async function fanOutEvents(db: Database, now = new Date()) {
  const endpoints: Endpoint[] = (
    await db
      .select({
        id: webhookEndpoints.id,
        events: webhookEndpoints.events,
        cursor: webhookEndpoints.cursor,
        ownerId: users.id,
        email: users.email,
        emailVerifiedAt: users.emailVerifiedAt,
      })
      .from(webhookEndpoints)
      .innerJoin(users, eq(users.id, webhookEndpoints.userId))
      .where(eq(webhookEndpoints.status, 'active'))
  ).map(({ ownerId, email, emailVerifiedAt, ...endpoint }) => ({
    ...endpoint,
    owner: { id: ownerId, email, emailVerified: emailVerifiedAt !== null },
  }))
  if (endpoints.length === 0) return 0
  const head = await eventLogHead(db)
  let after = Math.min(...endpoints.map((endpoint) => endpoint.cursor))
  let queued = 0
  while (after < head) {
    const page = await readEventsAfter(db, { after, until: head, limit: PAGE_SIZE })
    const last = page.at(-1)?.id ?? head
    queued += await fanOutPage(db, endpoints, page, last, now)
    for (const endpoint of endpoints) endpoint.cursor = Math.max(endpoint.cursor, last)
    after = last
  }
  return queued
}

async function fanOutPage(db: Database, endpoints: Endpoint[], page: LoggedEvent[], last: number, now: Date) {
  const taskIds = [...new Set(page.flatMap((event) => event.taskId ?? []))]
  const audiences = await readAudiences(db, taskIds)
  const mayHear = whoMayHear(audiences, await audienceChanges(db, page, taskIds))
  const times = await eventTimes(db, page)
  const messages: (typeof webhookDeliveries.$inferInsert)[] = []
  const render = renderer(db, audiences)
  for (const endpoint of endpoints) {
    for (const event of page) {
      if (event.id <= endpoint.cursor) continue
      const type = webhookTypeOf(event)
      if (!type || !endpoint.events.includes(type)) continue
      if (!mayHear(event, endpoint.owner)) continue
      if ((type === 'mention' || type === 'assignment') && event.payload.recipientId !== endpoint.owner.id)
        continue
      const data = await render(type, event, endpoint.owner)
      if (data === null) continue
      messages.push({
        id: `msg_${event.id}_${endpoint.id}`,
        endpointId: endpoint.id,
        eventId: event.id,
        type,
        body: messageBody(type, times.get(event.id) ?? now, data),
        status: 'pending',
        attempts: 0,
        nextAttemptAt: now,
        retryUntil: new Date(now.getTime() + RETRY_FOR_MS),
        createdAt: now,
      })
    }
  }
  const stillAt = (endpoint: Endpoint) =>
    and(eq(webhookEndpoints.id, endpoint.id), eq(webhookEndpoints.cursor, endpoint.cursor))
  const endpointStillAt = (endpoint: Endpoint) =>
    sql`EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${stillAt(endpoint)})`
  const byId = new Map(endpoints.map((endpoint) => [endpoint.id, endpoint]))
  const receiving = [...new Set(messages.map((message) => message.endpointId))]
  await commit(db, {
    messages: messages.map((message) =>
      insertIf(
        db,
        webhookDeliveries,
        message,
        endpointStillAt(byId.get(message.endpointId) as Endpoint),
      ).onConflictDoNothing(),
    ),
    jobs: receiving.flatMap((endpointId) => deliverSoon(db, endpointId, now)),
    cursors: endpoints
      .filter((endpoint) => endpoint.cursor < last)
      .map((endpoint) => db.update(webhookEndpoints).set({ cursor: last }).where(stillAt(endpoint))),
  })
  return messages.length
}

/**
 * The events, from the page's first on, that changed who may see one of its tasks (a share, an
 * unshare, publishing, hiding, deleting), each with the audience the task had before it
 * (`payload.audience`) — oldest first.
 */
async function audienceChanges(db: Database, page: LoggedEvent[], taskIds: string[]) {
  const first = page[0]?.id
  if (first === undefined || taskIds.length === 0) return []
  return db
    .select({
      id: events.id,
      taskId: events.taskId,
      before: sql<string>`json_extract(${events.payload}, '$.audience')`,
    })
    .from(events)
    .where(
      and(
        inArray(events.taskId, taskIds),
        gte(events.id, first),
        sql`json_extract(${events.payload}, '$.audience') IS NOT NULL`,
      ),
    )
    .orderBy(asc(events.id))
}

/**
 * Whether a person may hear of an event: they could see its task when it happened — the audience
 * recorded by the first later change of who may see it, else the audience now — and they still
 * may now, since the message shows the task or comment as it is now. A task shared after an
 * event does not tell the new sharee of it, whatever the fan-out's delay; one unshared or deleted
 * since tells nobody more than its deletion (whose audience its event recorded).
 */
function whoMayHear(
  current: Map<string, TaskAudience>,
  changes: { id: number; taskId: string | null; before: string }[],
) {
  const sees = (audience: TaskAudience | undefined, owner: Actor) =>
    audience !== undefined && ruleHolds('see', audience, owner)
  return (event: LoggedEvent, owner: Actor) => {
    if (event.type === 'task-deleted') return sees(storedAudience(event.payload.audience), owner)
    if (!event.taskId) return false
    const now = current.get(event.taskId)
    const later = changes.find((change) => change.taskId === event.taskId && change.id > event.id)
    return sees(later ? storedAudience(JSON.parse(later.before)) : now, owner) && sees(now, owner)
  }
}

async function eventTimes(db: Database, page: LoggedEvent[]) {
  const rows = await db
    .select({ id: events.id, createdAt: events.createdAt })
    .from(events)
    .where(
      inArray(
        events.id,
        page.map((event) => event.id),
      ),
    )
  return new Map(rows.map((row) => [row.id, row.createdAt]))
}

/**
 * The `data` of a message: the task or the comment as the RPC endpoint answers it to the endpoint's
 * owner (`task.getTask`, the comments of `comments.getComments`); only a deleted subject, which no
 * read can show any more, is named by its ids. Every one carries its task's `workspaceId` (a
 * task's view has it already), so a receiver can tell its workspaces apart. Null when the subject
 * is gone before the event was fanned out: a later event says what became of it.
 */
function renderer(db: Database, audiences: Map<string, TaskAudience>) {
  return async (type: WebhookEventType, event: LoggedEvent, owner: Actor): Promise<unknown> => {
    const taskId = event.taskId as string
    const commentId = event.payload.commentId as string | undefined
    const workspaceId = audiences.get(taskId)?.workspaceId
    try {
      if (type === 'task.deleted') {
        return { id: taskId, workspaceId: storedAudience(event.payload.audience)?.workspaceId }
      }
      if (type.startsWith('task.') || type === 'assignment') return (await getTask(db, owner, taskId)).task
      const comment = await readComment(db, commentId as string)
      return { ...comment, workspaceId }
    } catch (error) {
      if (!isDomainError(error)) throw error
      return type === 'comment.deleted' ? { id: commentId, taskId, workspaceId, isDeleted: true } : null
    }
  }
}

/** The JSON body Standard Webhooks describes: the type, when it happened, and the subject. */
export function messageBody(type: string, at: Date, data: unknown) {
  const body = JSON.stringify({ type, timestamp: at.toISOString(), data })
  if (Buffer.byteLength(body) <= MAX_BODY_BYTES) return body
  const { id, taskId } = data as { id?: string; taskId?: string }
  return JSON.stringify({ type, timestamp: at.toISOString(), data: { id, taskId, isTruncated: true } })
}

// ── The process's wake-up ───────────────────────────────────────────────────

let wake: BackgroundLoop | undefined
let stopListening: (() => void) | undefined

/**
 * Runs fanOutSoon after every commit of this process (the server starts it at boot), one at a
 * time. The process that logged an event is the one to notice it: a sibling worker's commits
 * wake their own process's check, and another machine's are found by the job's period.
 */
export function startWebhookFanOutWake(db = database()) {
  wake ??= createBackgroundLoop({
    pass: () => fanOutSoon(db),
    name: 'Bringing the webhook fan-out forward',
  })
  stopListening ??= onCommit(wake.kick)
  wake.start()
}

export async function stopWebhookFanOutWake() {
  stopListening?.()
  stopListening = undefined
  const loop = wake
  wake = undefined
  await loop?.stop()
}
