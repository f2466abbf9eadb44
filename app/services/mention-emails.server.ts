import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { notifications, sessions, users } from '~/db/schema'
import { commitAfterReading } from '~/db/write.server'
import { emailStatement } from '~/email/outbox.server'
import { mentionEmailMessage } from '~/email/templates.server'
import { env } from '~/env.server'
import { INBOX_PATH } from '~/inbox'
import { prepareJob } from '~/jobs/jobs.server'
import { z } from '~/utils/zod'
import { listMentionsToEmail } from './notifications.server'

/**
 * Mention e-mails, for people who are away when they are mentioned:
 * - "online" means one of their sessions was used in the last ONLINE_WINDOW_MS — any signed-in
 *   page or request, and the mentions poller every few seconds while a page is open (a session's
 *   `lastSeenAt` is written at most once a minute, see session.server.ts);
 * - a mention of someone away schedules one e-mail for MENTION_EMAIL_DELAY_MINUTES later; mentions
 *   arriving meanwhile join it, so a busy thread sends one e-mail, not one per comment;
 * - when it is due, the e-mail lists their unread mentions not e-mailed before, on tasks they may
 *   still see; none if they came back online meanwhile, read them all, or turned e-mails off;
 * - only to a verified address, and only while "E-mail me when I'm mentioned" is on (the default).
 */

export const ONLINE_WINDOW_MS = 5 * 60_000
export const MENTION_EMAIL_JOB = 'mention-email'

const MentionEmailPayload = z.object({ recipientId: z.string().min(1) })

/** True when one of the user's live sessions was used within the online window. */
function isOnlineSql(userId: typeof users.id, now: Date) {
  return sql`EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.userId} = ${userId} AND ${sessions.lastSeenAt} >= ${now.getTime() - ONLINE_WINDOW_MS} AND ${sessions.expiresAt} > ${now.getTime()})`
}

export async function isOnline(db: Executor, userId: string, now = new Date()) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isOnlineSql(users.id, now)))
  return row !== undefined
}

/**
 * The e-mail job of one person a mention names, as a statement of the batch that creates the
 * mention, its SQL built once: one job per person (keyed by their id), so mentions batch into it.
 * It is scheduled only when `onlyIf` holds and, as the batch reaches it, the person is away and
 * wants the e-mail; one who comes back later finds nothing sent (see the job below).
 */
export function prepareMentionEmailJob(onlyIf: SQL) {
  const recipientId = sql.placeholder('recipientId')
  const isAwayAndWantsIt = sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${recipientId} AND ${users.emailOnMention} = 1 AND ${users.emailVerifiedAt} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${sessions} WHERE ${sessions.userId} = ${recipientId} AND ${sessions.lastSeenAt} >= ${sql.placeholder('onlineSince')} AND ${sessions.expiresAt} > ${sql.placeholder('now')}))`
  const step = prepareJob(sql`${onlyIf} AND ${isAwayAndWantsIt}`)
  return (recipient: string, values: Record<string, unknown>, now = Date.now()) =>
    step(
      {
        id: `${MENTION_EMAIL_JOB}:${recipient}`,
        type: MENTION_EMAIL_JOB,
        payload: { recipientId: recipient },
        runAt: new Date(now + env().MENTION_EMAIL_DELAY_MINUTES * 60_000),
      },
      { ...values, recipientId: recipient, onlineSince: now - ONLINE_WINDOW_MS },
      now,
    )
}

/**
 * The job: queues the e-mail of one person's missed mentions and marks them e-mailed, in one
 * commit (so a mention is e-mailed once, and a mention committed meanwhile either makes this
 * e-mail or schedules the next). The e-mail is rendered from the mentions read inside that commit,
 * so it is one of the few writes through `commitAfterReading`. Returns how many mentions it covered; 0 means no e-mail.
 */
async function sendMentionEmail(db: Database, recipientId: string, now = new Date()): Promise<number> {
  return commitAfterReading(db, async (tx) => {
    const [recipient] = await tx.select().from(users).where(eq(users.id, recipientId)).limit(1)
    if (!recipient?.emailOnMention || !recipient.emailVerifiedAt) return 0
    if (await isOnline(tx, recipient.id, now)) return 0
    const missed = await listMentionsToEmail(tx, {
      id: recipient.id,
      email: recipient.email,
      emailVerified: true,
    })
    if (missed.length === 0) return 0
    const base = env().BASE_URL
    await emailStatement(
      tx,
      mentionEmailMessage(recipient.email, missed, {
        inbox: `${base}${INBOX_PATH}`,
        settings: `${base}/settings`,
      }),
    )
    await tx
      .update(notifications)
      .set({ emailedAt: now })
      .where(
        inArray(
          notifications.id,
          missed.map((mention) => mention.id),
        ),
      )
    return missed.length
  })
}

/** The job runner's entry: the payload as scheduled above. */
export async function runMentionEmailJob(db: Database, payload: Record<string, unknown>, now: Date) {
  const { recipientId } = MentionEmailPayload.parse(payload)
  return sendMentionEmail(db, recipientId, now)
}
