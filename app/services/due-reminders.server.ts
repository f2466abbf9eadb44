import { and, eq, exists, gte, inArray, isNotNull, lte, ne, notExists, sql } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import { dueReminders, tasks, users } from '~/db/schema'
import { commit, commitAfterReading } from '~/db/write.server'
import { emailStatement } from '~/email/outbox.server'
import { dueReminderMessage } from '~/email/templates.server'
import { env } from '~/env.server'
import { scheduleJob } from '~/jobs/jobs.server'
import {
  addDays,
  DEFAULT_TIME_ZONE,
  hourOf,
  isoDate,
  isTimeZone,
  localDateOf,
  todayIn,
} from '~/utils/calendar'
import { ruleSql, viewerValues } from './tasks/rule.server'

/**
 * Due-date reminders (docs/product-rules.md §1):
 * - on the day a task is due, from 08:00 in the recipient's time zone (the one their browser last
 *   reported, UTC while unknown), one e-mail per person listing what is due that day and not
 *   Completed; a task made due today later that day goes out at the next run, in an e-mail of its own;
 * - to the task's assignee, or its owner when it has none, only to a verified address, only while
 *   "E-mail me on the day a task is due" is on (the default), and only for a task they may see;
 * - never twice for a task and its day: each run claims (task, day) in `due_reminders` in the
 *   commit that queues the e-mail, and mails only the rows it claimed, so runs that overlap (two
 *   workers, two instances, a restart mid-run) send each reminder once between them.
 *
 * A job of the jobs queue runs it every minute: each run first schedules the next, so a failed
 * run is followed by the next minute's rather than the queue's backoff.
 */

export const DUE_REMINDERS_JOB = 'due-reminders'
/** The hour of the recipient's day from which the day's reminders go out. */
const REMINDER_HOUR = 8
const RUN_EVERY_MS = 60_000

/**
 * The one recurring job, keyed by its type: scheduling it again keeps a waiting run's time, so
 * every instance may ask, at boot and hourly (housekeeping.server.ts): a first boot that could not
 * reach the database, or a job row lost, costs at most an hour.
 */
export async function scheduleDueReminders(db: Database, runAt = new Date()) {
  await commit(db, {
    job: scheduleJob(db, { id: DUE_REMINDERS_JOB, type: DUE_REMINDERS_JOB, payload: {}, runAt }),
  })
}

/** The job runner's entry (app/services/job-handlers.server.ts), on the runner's clock. */
export async function runDueRemindersJob(db: Database, _payload: Record<string, unknown>, now: Date) {
  await scheduleDueReminders(db, new Date(now.getTime() + RUN_EVERY_MS))
  return sendDueReminders(db, now)
}

/** Whom a task's reminder goes to: its assignee, else its owner. */
const recipientOf = sql<string>`coalesce(${tasks.assigneeId}, ${tasks.userId})`

type Due = { recipientId: string; email: string; dueDate: string; taskIds: string[] }

/**
 * Who has reminders due now, and for which tasks. At any instant the world's calendars span
 * three dates (UTC−12 to UTC+14), so the statement reads an index range of those three days;
 * whose today it is, and whether their 08:00 has passed, is worked out per person from their zone.
 */
async function remindersDue(db: Database, now: Date): Promise<Due[]> {
  const utcToday = localDateOf(now.getTime(), DEFAULT_TIME_ZONE)
  const rows = await db
    .select({
      taskId: tasks.id,
      dueDate: sql<string>`${tasks.dueDate}`,
      recipientId: users.id,
      email: users.email,
      timeZone: users.timeZone,
    })
    .from(tasks)
    .innerJoin(users, eq(users.id, recipientOf))
    .where(
      and(
        gte(tasks.dueDate, isoDate(addDays(utcToday, -1))),
        lte(tasks.dueDate, isoDate(addDays(utcToday, 1))),
        ne(tasks.status, 'Completed'),
        eq(users.emailOnDue, true),
        isNotNull(users.emailVerifiedAt),
        // Not reminded of for this date yet.
        notExists(
          db
            .select({ taskId: dueReminders.taskId })
            .from(dueReminders)
            .where(and(eq(dueReminders.taskId, tasks.id), eq(dueReminders.dueDate, tasks.dueDate))),
        ),
      ),
    )
  const byRecipient = new Map<string, Due>()
  const isDueNowIn = new Map<string, string | null>()
  for (const row of rows) {
    const zone = isTimeZone(row.timeZone) ? row.timeZone : DEFAULT_TIME_ZONE
    let today = isDueNowIn.get(zone)
    if (today === undefined) {
      today = hourOf(now.getTime(), zone) >= REMINDER_HOUR ? todayIn(zone, now.getTime()) : null
      isDueNowIn.set(zone, today)
    }
    if (row.dueDate !== today) continue
    const due = byRecipient.get(row.recipientId)
    if (due) due.taskIds.push(row.taskId)
    else byRecipient.set(row.recipientId, { ...row, taskIds: [row.taskId] })
  }
  return [...byRecipient.values()]
}

/**
 * Claims one person's reminders and queues their e-mail, in one commit. The claim re-checks
 * everything as it is now (still due that day, not Completed, theirs, visible to them, reminders
 * on) and skips what another run claimed first; the e-mail lists only what this claim got, which
 * is why it is rendered inside the commit (`commitAfterReading`). Returns how many tasks it named.
 */
async function remind(db: Database, due: Due, now: Date): Promise<number> {
  const person = { id: due.recipientId, email: due.email, emailVerified: true }
  return commitAfterReading(db, async (tx) => {
    const claimed = await tx
      .insert(dueReminders)
      .select(
        tx
          .select({
            taskId: tasks.id,
            dueDate: sql<string>`${tasks.dueDate}`.as('due_date'),
            recipientId: sql<string>`${due.recipientId}`.as('recipient_id'),
            createdAt: sql<Date>`${now.getTime()}`.as('created_at'),
          })
          .from(tasks)
          .where(
            and(
              inArray(tasks.id, due.taskIds),
              eq(tasks.dueDate, due.dueDate),
              ne(tasks.status, 'Completed'),
              eq(recipientOf, due.recipientId),
              ruleSql('see', viewerValues(person)),
              exists(
                tx
                  .select({ id: users.id })
                  .from(users)
                  .where(
                    and(
                      eq(users.id, due.recipientId),
                      eq(users.email, due.email),
                      eq(users.emailOnDue, true),
                      isNotNull(users.emailVerifiedAt),
                    ),
                  ),
              ),
            ),
          ),
      )
      .onConflictDoNothing()
      .returning({ taskId: dueReminders.taskId })
    if (claimed.length === 0) return 0
    const named = await tx
      .select({ id: tasks.id, text: tasks.text })
      .from(tasks)
      .where(
        inArray(
          tasks.id,
          claimed.map((row) => row.taskId),
        ),
      )
      .orderBy(tasks.createdAt, tasks.id)
    const base = env().BASE_URL
    await emailStatement(
      tx,
      dueReminderMessage(
        due.email,
        named.map((task) => ({ text: task.text, url: `${base}/task?task=${encodeURIComponent(task.id)}` })),
        longDay(due.dueDate),
        { tasks: `${base}/task`, settings: `${base}/settings` },
      ),
    )
    return named.length
  })
}

const dayFormat = new Intl.DateTimeFormat('en-US', {
  weekday: 'long',
  month: 'long',
  day: 'numeric',
  timeZone: 'UTC',
})

/** "Thursday, December 3" for `2026-12-03`. */
function longDay(isoDay: string) {
  return dayFormat.format(new Date(`${isoDay}T00:00:00Z`))
}

/**
 * One run: every reminder due now, one e-mail per person. Answers how many e-mails it queued and
 * how many tasks they named (0 and 0 when another run got there first).
 */
export async function sendDueReminders(db: Database, now = new Date()) {
  const sent = { emails: 0, tasks: 0 }
  for (const due of await remindersDue(db, now)) {
    const named = await remind(db, due, now)
    if (named > 0) {
      sent.emails += 1
      sent.tasks += named
    }
  }
  return sent
}
