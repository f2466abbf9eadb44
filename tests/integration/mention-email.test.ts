import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox, jobs } from '~/db/schema'
import { smtpTransport } from '~/email/transport.server'
import { createOutboxWorker } from '~/email/worker.server'
import { env } from '~/env.server'
import { createJobRunner } from '~/jobs/jobs.server'
import { loader as inboxLoader } from '~/routes/notifications'
import { jobHandlers } from '~/services/job-handlers.server'
import { createSession } from '~/services/sessions.server'
import { linkIn, type SmtpFixture, startSmtpServer } from '../fixtures/smtp-server'
import { signedInBrowser } from '../helpers/auth'
import { createTask, createUser, shareTask } from '../helpers/factories'
import { callLoader } from '../helpers/route'
import { answerThroughRpcRoute, rpcRequest } from '../helpers/rpc'

/**
 * A mention e-mail from end to end: Ada mentions Grace through the RPC endpoint while Grace is away;
 * the job runner the server starts (with the server's handlers) composes the e-mail once it is
 * due, the outbox worker delivers it to a real SMTP server, and its link opens Grace's inbox.
 */

const db = database()
const DELAY_MS = env().MENTION_EMAIL_DELAY_MINUTES * 60_000
let smtp: SmtpFixture

beforeAll(async () => {
  smtp = await startSmtpServer()
})
afterAll(async () => {
  await smtp.close()
})
beforeEach(async () => {
  smtp.messages.length = 0
  await db.delete(emailOutbox)
  await db.delete(jobs)
})

async function world() {
  const ada = await createUser(db, { name: 'Ada' })
  const grace = await createUser(db, { name: 'Grace' })
  const task = await createTask(db, { userId: ada.id, text: 'Plan the offsite' })
  await shareTask(db, task.id, [grace.email])
  const adas = await signedInBrowser(db, ada.id)
  const mentionGrace = async (content: string) => {
    const response = await answerThroughRpcRoute(
      rpcRequest('comments/addComment', { taskId: task.id, content }, { headers: adas.headers() }),
    )
    expect(response.status).toBe(200)
  }
  return { ada, grace, task, mentionGrace }
}

/** What the server does in the background, once `laterMs` has passed. */
async function runBackgroundWork(laterMs: number) {
  const runner = createJobRunner({ handlers: jobHandlers, now: () => Date.now() + laterMs })
  await runner.runDue()
  const outbox = createOutboxWorker({ transport: smtpTransport(smtp.url, 'Threadwork <no-reply@test>') })
  await outbox.deliverDue()
  await outbox.stop()
}

test('two mentions while away arrive as one e-mail whose link opens the inbox', async () => {
  const { grace, mentionGrace } = await world()
  await mentionGrace('@Grace can you book the venue?')
  await mentionGrace('@Grace and the catering?')

  await runBackgroundWork(DELAY_MS - 60_000)
  expect(smtp.messages).toEqual([])

  await runBackgroundWork(DELAY_MS)
  const email = await smtp.waitForEmail((message) => message.to === grace.email, 2_000)
  expect(email.subject).toBe('You were mentioned 2 times on Threadwork')
  expect(email.text).toContain('Ada on “Plan the offsite”: “@Grace can you book the venue?”')
  expect(email.text).toContain('Ada on “Plan the offsite”: “@Grace and the catering?”')
  expect(smtp.messages).toHaveLength(1)

  const link = linkIn(email, '/notifications')
  expect(link.origin).toBe('http://localhost:3000')
  const graces = await signedInBrowser(db, grace.id)
  const inbox = await callLoader(inboxLoader, {
    url: link.pathname + link.search,
    headers: { Cookie: graces.cookie },
  })
  expect(inbox.data.mentions.map((mention) => mention.excerpt)).toEqual([
    '@Grace and the catering?',
    '@Grace can you book the venue?',
  ])

  // Nothing is e-mailed twice.
  await runBackgroundWork(2 * DELAY_MS)
  expect(smtp.messages).toHaveLength(1)
})

test('someone whose open page polls for mentions is online, and gets no e-mail', async () => {
  const { grace, mentionGrace } = await world()
  // Signed in a while ago; her page's mentions poll (every 3 s) marks her as seen.
  const session = await createSession(db, grace.id, {}, new Date(Date.now() - 30 * 60_000))
  const poll = await answerThroughRpcRoute(
    rpcRequest('comments/getMentionNotifications', undefined, {
      method: 'GET',
      headers: { Cookie: `tw_session=${encodeURIComponent(session.token)}` },
    }),
  )
  expect(poll.status).toBe(200)

  await mentionGrace('@Grace are you there?')
  await runBackgroundWork(DELAY_MS)
  expect(smtp.messages).toEqual([])
})
