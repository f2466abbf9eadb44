import { eq } from 'drizzle-orm'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox, jobs, notifications, taskShares, users } from '~/db/schema'
import { env } from '~/env.server'
import { createJobRunner } from '~/jobs/jobs.server'
import { createSession } from '~/services/sessions.server'
import { createTask, createUser, shareTask } from '../../tests/helpers/factories'
import { NewCommentSchema } from './comment-schemas'
import type { Author } from './comment-views.server'
import { addComment } from './comments.server'
import { isOnline, MENTION_EMAIL_JOB, ONLINE_WINDOW_MS, runMentionEmailJob } from './mention-emails.server'
import { markNotificationRead } from './notifications.server'
import { getEmailSettings, setEmailSetting } from './profile.server'

/**
 * Mention e-mails on a fake clock: Ada mentions Grace on a task shared with her, and the job
 * runner is driven minute by minute. One e-mail per batch of mentions, after the delay; none for
 * someone online, opted out, or whose mentions were read or are on a task they no longer see.
 */

const db = database()
const MINUTE = 60_000
const T0 = Date.parse('2030-03-01T09:00:00Z')
const DELAY = env().MENTION_EMAIL_DELAY_MINUTES * MINUTE

type UserRow = Awaited<ReturnType<typeof createUser>>
let ada: UserRow
let grace: UserRow
let taskId: string

const actorOf = (user: UserRow): Author => ({
  id: user.id,
  name: user.name,
  email: user.email,
  emailVerified: user.emailVerifiedAt !== null,
  image: user.image,
})

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(T0)
  ada = await createUser(db, { name: 'Ada' })
  grace = await createUser(db, { name: 'Grace' })
  taskId = (await createTask(db, { userId: ada.id, text: 'Plan the offsite' })).id
  await shareTask(db, taskId, [grace.email])
})

afterEach(async () => {
  vi.useRealTimers()
  await db.delete(emailOutbox)
  await db.delete(jobs)
})

/** Moves the clock to `minutes` after T0. */
function at(minutes: number) {
  vi.setSystemTime(T0 + minutes * MINUTE)
}

function mentionGrace(text: string) {
  return addComment(db, actorOf(ada), NewCommentSchema.parse({ taskId, content: `@Grace ${text}` }))
}

/** What the server's runner does on each poll, with the handler the server registers. */
async function runDueJobs() {
  const runner = createJobRunner({ handlers: { [MENTION_EMAIL_JOB]: runMentionEmailJob } })
  await runner.runDue()
}

async function outboxTo(email: string) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.to, email))
}

/** Grace has a page open: her session was used `minutesAgo` minutes before now. */
async function graceSeen(minutesAgo: number) {
  await createSession(db, grace.id, {}, new Date(Date.now() - minutesAgo * MINUTE))
}

describe('batching', () => {
  test('three mentions while away → one e-mail after the delay, listing all three, linking to the inbox', async () => {
    await mentionGrace('the venue?')
    at(2)
    await mentionGrace('the menu?')
    at(4)
    await mentionGrace('the date?')

    at(DELAY / MINUTE - 1)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toEqual([])

    at(DELAY / MINUTE)
    await runDueJobs()
    const sent = await outboxTo(grace.email)
    expect(sent).toHaveLength(1)
    const [email] = sent
    expect(email?.subject).toBe('You were mentioned 3 times on Threadwork')
    expect(email?.text).toContain('Ada on “Plan the offsite”: “@Grace the venue?”')
    expect(email?.text).toContain('Ada on “Plan the offsite”: “@Grace the menu?”')
    expect(email?.text).toContain('Ada on “Plan the offsite”: “@Grace the date?”')
    expect(email?.text).toContain('Open your notifications: http://localhost:3000/notifications')
    expect(email?.text).toContain('http://localhost:3000/settings')
    expect(email?.html).toContain('href="http://localhost:3000/notifications"')

    // Each mention is e-mailed once; they stay unread in the inbox.
    const rows = await db.select().from(notifications).where(eq(notifications.recipientId, grace.id))
    expect(rows.every((row) => row.emailedAt?.getTime() === T0 + DELAY && !row.isRead)).toBe(true)
    at(60)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toHaveLength(1)
  })

  test('a mention after the e-mail starts a new batch, which lists only the new one', async () => {
    await mentionGrace('first')
    at(DELAY / MINUTE)
    await runDueJobs()
    at(DELAY / MINUTE + 1)
    await mentionGrace('second')
    at((2 * DELAY) / MINUTE + 1)
    await runDueJobs()

    const sent = await outboxTo(grace.email)
    expect(sent.map((email) => email.subject)).toEqual([
      'Ada mentioned you on Threadwork',
      'Ada mentioned you on Threadwork',
    ])
    expect(sent[1]?.text).toContain('@Grace second')
    expect(sent[1]?.text).not.toContain('@Grace first')
  })
})

describe('no e-mail', () => {
  test('when the person is online at the mention: their open page shows it', async () => {
    await graceSeen(1)
    expect(await isOnline(db, grace.id)).toBe(true)
    await mentionGrace('are you there?')
    expect(await db.select().from(jobs)).toEqual([])
    at(DELAY / MINUTE)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toEqual([])
  })

  test('when the person came back online before the e-mail was due', async () => {
    await mentionGrace('are you there?')
    at(DELAY / MINUTE - 2)
    await graceSeen(0)
    at(DELAY / MINUTE)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toEqual([])
  })

  test('online means seen within the window: a session used longer ago is away', async () => {
    await graceSeen(ONLINE_WINDOW_MS / MINUTE + 1)
    expect(await isOnline(db, grace.id)).toBe(false)
    await mentionGrace('still away?')
    at(DELAY / MINUTE + 10)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toHaveLength(1)
  })

  test('after opting out, before the mention or while it waits', async () => {
    await setEmailSetting(db, grace.id, 'emailOnMention', false)
    expect((await getEmailSettings(db, grace.id)).emailOnMention).toBe(false)
    await mentionGrace('one')
    expect(await db.select().from(jobs)).toEqual([])

    await setEmailSetting(db, grace.id, 'emailOnMention', true)
    await mentionGrace('two')
    await setEmailSetting(db, grace.id, 'emailOnMention', false)
    at(DELAY / MINUTE)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toEqual([])
  })

  test('for mentions read before it was due; only the unread ones are listed', async () => {
    const { comment: first } = await mentionGrace('read already')
    await mentionGrace('still unread')
    const [read] = await db.select().from(notifications).where(eq(notifications.commentId, first.id))
    await markNotificationRead(db, { id: grace.id, email: grace.email, emailVerified: true }, read?.id ?? '')
    at(DELAY / MINUTE)
    await runDueJobs()

    const [email] = await outboxTo(grace.email)
    expect(email?.subject).toBe('Ada mentioned you on Threadwork')
    expect(email?.text).toContain('still unread')
    expect(email?.text).not.toContain('read already')
  })

  test('when every mention was read', async () => {
    await mentionGrace('read soon')
    await db.update(notifications).set({ isRead: true }).where(eq(notifications.recipientId, grace.id))
    at(DELAY / MINUTE)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toEqual([])
  })

  test('for a task the person can no longer see', async () => {
    await mentionGrace('secret plans')
    await db.delete(taskShares).where(eq(taskShares.taskId, taskId))
    at(DELAY / MINUTE)
    await runDueJobs()
    expect(await outboxTo(grace.email)).toEqual([])
  })

  test('to an address nobody verified', async () => {
    await db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, ada.id))
    // Grace mentions the owner, whose address is unverified.
    await addComment(db, actorOf(grace), NewCommentSchema.parse({ taskId, content: '@Ada done' }))
    at(DELAY / MINUTE)
    await runDueJobs()
    expect(await outboxTo(ada.email)).toEqual([])
  })
})

test('the setting is on for everyone until they turn it off', async () => {
  expect((await getEmailSettings(db, grace.id)).emailOnMention).toBe(true)
})
