import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { and, eq, like } from 'drizzle-orm'
import { Webhook } from 'standardwebhooks'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest'
import { database, openDatabase } from '~/db/client.server'
import {
  emailOutbox,
  jobs,
  webhookDeliveries,
  webhookEndpoints,
  workspaceMembers,
  workspaces,
} from '~/db/schema'
import { env, resetEnvForTests } from '~/env.server'
import { createJobRunner, type JobHandler } from '~/jobs/jobs.server'
import { Invalid } from '~/services/errors'
import { jobHandlers } from '~/services/job-handlers.server'
import { getTask } from '~/services/tasks/reads.server'
import { createTask, deleteTask, setTaskStatus, updateTask } from '~/services/tasks/writes.server'
import { WEBHOOK_DELIVERIES_JOB, webhookDeliveriesHandler } from '~/services/webhooks/deliveries.server'
import {
  addWebhookEndpoint,
  listWebhookDeliveries,
  pauseWebhookEndpoint,
  redeliver,
  resumeWebhookEndpoint,
  sendTestEvent,
} from '~/services/webhooks/endpoints.server'
import {
  scheduleWebhookFanOut,
  startWebhookFanOutWake,
  stopWebhookFanOutWake,
  WEBHOOK_FAN_OUT_JOB,
} from '~/services/webhooks/fan-out.server'
import type { WebhookEventType } from '~/services/webhooks/webhook-schemas'
import { WEBHOOK_EVENT_TYPES } from '~/services/webhooks/webhook-schemas'
import { createUser } from '../helpers/factories'
import { fields, viewerOf } from '../helpers/task-service'

/**
 * Webhooks end to end, against a plain-http receiver on loopback (WEBHOOKS_ALLOW_PRIVATE=true):
 * changes made through the services reach the receiver through the event log and the jobs queue,
 * every message verifies with the `standardwebhooks` library, retries and redeliveries keep the
 * `webhook-id`, and an endpoint hears only of tasks its owner may see.
 */

const db = database()
const MINUTE = 60_000
const HOUR = 60 * MINUTE

type Received = { id: string; headers: http.IncomingHttpHeaders; body: string }
let received: Received[] = []
/** What the receiver answers next; 200 once the list runs out. */
let answers: number[] = []
let server: http.Server
let receiverUrl = ''

beforeAll(async () => {
  process.env.WEBHOOKS_ALLOW_PRIVATE = 'true'
  resetEnvForTests()
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      received.push({
        id: String(request.headers['webhook-id']),
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      })
      const status = answers.shift() ?? 200
      if (status === 302) response.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' })
      else response.writeHead(status)
      response.end(status < 300 ? 'thanks' : 'receiver is down')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
})

afterAll(async () => {
  delete process.env.WEBHOOKS_ALLOW_PRIVATE
  resetEnvForTests()
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

beforeEach(() => {
  received = []
  answers = []
})

afterEach(async () => {
  await db.delete(webhookEndpoints)
  await db.delete(jobs)
})

/** Runs the queue as the server would, at `at` on its clock: the fan-out, then each endpoint's deliveries. */
async function runQueueAt(at: number, handlers: Record<string, JobHandler> = jobHandlers) {
  // The fan-out reschedules itself a few seconds on; a test's clock may be anywhere.
  await db.delete(jobs).where(eq(jobs.id, WEBHOOK_FAN_OUT_JOB))
  await scheduleWebhookFanOut(db, new Date(at))
  const runner = createJobRunner({ handlers, now: () => at, logError: () => {} })
  // Two passes, as two polls would: a job that already ran in a pass (an endpoint's, before the
  // fan-out queued more for it) waits for the next one.
  await runner.runDue()
  await runner.runDue()
}

async function newEndpoint(
  owner: Awaited<ReturnType<typeof createUser>>,
  events: WebhookEventType[] = WEBHOOK_EVENT_TYPES,
) {
  return addWebhookEndpoint(db, viewerOf(owner), { url: receiverUrl, events })
}

/** A new endpoint that has been sent one message, of a new task named `text`. */
async function oneMessageDelivered(text: string) {
  const owner = await createUser(db)
  const { id: endpointId, secret } = await newEndpoint(owner)
  await createTask(db, viewerOf(owner), fields({ text }))
  await runQueueAt(Date.now())
  const [first] = received
  const [delivery] = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
  return { owner, endpointId, secret, first, delivery }
}

/** Verifies a received message the way a receiver would, with the endpoint's secret. */
function verified(message: Received, secret: string) {
  return new Webhook(secret).verify(message.body, {
    'webhook-id': String(message.headers['webhook-id']),
    'webhook-timestamp': String(message.headers['webhook-timestamp']),
    'webhook-signature': String(message.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> }
}

describe('delivering', () => {
  test('every change reaches the receiver signed, and verifies with standardwebhooks', async () => {
    const owner = await createUser(db)
    const { id: endpointId, secret } = await newEndpoint(owner)
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const task = await createTask(db, viewerOf(owner), fields({ text: 'Ship webhooks' }))
    await setTaskStatus(db, viewerOf(owner), task.id, 'In Progress')

    await runQueueAt(Date.now())

    const bodies = received.map((message) => verified(message, secret))
    expect(bodies.map((body) => body.type)).toEqual(['task.created', 'task.status_changed'])
    // The task as the RPC endpoint's task.getTask answers its owner, not a hand-made list of fields.
    const { task: asTheDoorShowsIt } = await getTask(db, viewerOf(owner), task.id)
    for (const body of bodies) {
      expect(body.data).toEqual(JSON.parse(JSON.stringify(asTheDoorShowsIt)))
      expect(Date.parse(body.timestamp)).not.toBeNaN()
    }
    for (const message of received) {
      expect(message.id).toMatch(new RegExp(`^msg_\\d+_${endpointId}$`))
      expect(message.headers['content-type']).toBe('application/json')
    }
    const { deliveries } = await listWebhookDeliveries(db, viewerOf(owner), endpointId)
    expect(
      deliveries.map((delivery) => [delivery.status, delivery.attempts, delivery.responseStatus]),
    ).toEqual([
      ['succeeded', 1, 200],
      ['succeeded', 1, 200],
    ])
    expect(deliveries[0]?.responseExcerpt).toBe('thanks')
  })

  test('a signature made with another secret does not verify', async () => {
    const owner = await createUser(db)
    await newEndpoint(owner)
    await createTask(db, viewerOf(owner), fields({ text: 'Signed' }))
    await runQueueAt(Date.now())
    const [message] = received
    expect(() => verified(message as Received, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).toThrow()
  })

  test('only the event types the endpoint chose are sent, and only events after it was added', async () => {
    const owner = await createUser(db)
    const before = await createTask(db, viewerOf(owner), fields({ text: 'Before the endpoint' }))
    await newEndpoint(owner, ['task.status_changed'])
    await createTask(db, viewerOf(owner), fields({ text: 'Not asked for' }))
    await setTaskStatus(db, viewerOf(owner), before.id, 'Completed')

    await runQueueAt(Date.now())

    expect(received.map((message) => JSON.parse(message.body).type)).toEqual(['task.status_changed'])
  })

  test('a receiver that fails three times, then succeeds, gets the same webhook-id each time', async () => {
    const owner = await createUser(db)
    const { id: endpointId, secret } = await newEndpoint(owner)
    await createTask(db, viewerOf(owner), fields({ text: 'Retry me' }))
    answers = [500, 503, 500]

    const start = Date.now()
    for (let minutes = 0; minutes <= 10 && received.length < 4; minutes++)
      await runQueueAt(start + minutes * MINUTE)

    expect(received).toHaveLength(4)
    expect(new Set(received.map((message) => message.id)).size).toBe(1)
    for (const message of received) expect(verified(message, secret).type).toBe('task.created')
    const [delivery] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
    expect(delivery).toMatchObject({ status: 'succeeded', attempts: 4, responseStatus: 200 })
    // Retried after 1, 2 and 4 minutes: the last, fourth attempt at minute 7.
    expect(delivery?.lastAttemptAt?.getTime()).toBe(start + 7 * MINUTE)
  })

  test('a redirect is not followed: it is a failure, retried later', async () => {
    const owner = await createUser(db)
    const { id: endpointId } = await newEndpoint(owner)
    await createTask(db, viewerOf(owner), fields({ text: 'Moved' }))
    answers = [302]
    await runQueueAt(Date.now())
    expect(received).toHaveLength(1)
    const [delivery] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 302 })
    expect(delivery?.responseExcerpt).toMatch(/not followed/)
  })

  test('after a day of failures the endpoint is paused and its owner e-mailed', async () => {
    const owner = await createUser(db)
    const { id: endpointId } = await newEndpoint(owner)
    await createTask(db, viewerOf(owner), fields({ text: 'Nobody home' }))
    answers = Array(100).fill(500)

    const start = Date.now()
    for (let hours = 0; hours <= 26; hours++) await runQueueAt(start + hours * HOUR)

    const [endpoint] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpointId))
    expect(endpoint).toMatchObject({ status: 'paused', pausedReason: 'Deliveries failed for a day' })
    const [delivery] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
    expect(delivery?.status).toBe('failed')
    expect(delivery?.lastAttemptAt?.getTime()).toBeGreaterThanOrEqual(start + 24 * HOUR)
    const mail = await db.select().from(emailOutbox).where(eq(emailOutbox.to, owner.email))
    expect(mail.map((email) => email.subject)).toEqual(['A Threadwork webhook endpoint was paused'])
    expect(mail[0]?.text).toContain(`/settings/developer/webhooks/${endpointId}`)
    const attempts = received.length
    await runQueueAt(start + 30 * HOUR)
    expect(received).toHaveLength(attempts)
  })

  test('"Redeliver" sends the same message again, under the same webhook-id', async () => {
    const { owner, endpointId, secret, first, delivery } = await oneMessageDelivered('Again')

    await redeliver(db, viewerOf(owner), endpointId, delivery?.id as string)
    await runQueueAt(Date.now())

    expect(received).toHaveLength(2)
    expect(received[1]?.id).toBe(first?.id)
    expect(verified(received[1] as Received, secret)).toEqual(verified(first as Received, secret))
    const stranger = await createUser(db)
    await expect(redeliver(db, viewerOf(stranger), endpointId, delivery?.id as string)).rejects.toThrow(
      'Delivery not found',
    )
  })

  test('"Send test event" sends a webhook.test message', async () => {
    const owner = await createUser(db)
    const { id: endpointId, secret } = await newEndpoint(owner)
    await sendTestEvent(db, viewerOf(owner), endpointId)
    await runQueueAt(Date.now())
    expect(received.map((message) => verified(message, secret))).toEqual([
      expect.objectContaining({ type: 'webhook.test', data: expect.objectContaining({ endpointId }) }),
    ])
  })

  test('a paused endpoint hears nothing; resumed, it hears what happens from then on', async () => {
    const owner = await createUser(db)
    const { id: endpointId } = await newEndpoint(owner)
    await pauseWebhookEndpoint(db, viewerOf(owner), endpointId)
    await createTask(db, viewerOf(owner), fields({ text: 'While paused' }))
    await runQueueAt(Date.now())
    expect(received).toEqual([])

    await resumeWebhookEndpoint(db, viewerOf(owner), endpointId)
    await createTask(db, viewerOf(owner), fields({ text: 'After resuming' }))
    await runQueueAt(Date.now())
    expect(received.map((message) => JSON.parse(message.body).data.text)).toEqual(['After resuming'])
  })
})

describe('without waiting for a poll', () => {
  /** Far below the runners' minute-long poll, and generous for a busy machine. */
  const WITHIN_MOMENTS = { timeout: 3_000 }
  const isDeliveriesJob = like(jobs.id, `${WEBHOOK_DELIVERIES_JOB}:%`)
  let stopWorkers: (() => Promise<void>) | undefined

  afterEach(async () => {
    await stopWorkers?.()
    stopWorkers = undefined
  })

  /**
   * Two workers as the cluster runs them, on two connections to one database file: each a runner
   * that polls only every minute, and the fan-out's next period a minute away, so only the
   * wake-up after a commit can deliver within the test's timeout. (In one process every runner
   * hears every commit, as server/cluster.ts makes every worker hear its siblings'.) Answers the
   * second worker's connection.
   */
  async function startTwoWorkers() {
    const second = openDatabase({ url: env().DATABASE_URL })
    await db.delete(jobs).where(eq(jobs.id, WEBHOOK_FAN_OUT_JOB))
    await scheduleWebhookFanOut(db, new Date(Date.now() + MINUTE))
    const runners = [db, second].map((each) =>
      createJobRunner({ db: each, handlers: jobHandlers, pollIntervalMs: MINUTE, logError: () => {} }),
    )
    for (const runner of runners) runner.start()
    startWebhookFanOutWake(db)
    stopWorkers = async () => {
      await stopWebhookFanOutWake()
      await Promise.all(runners.map((runner) => runner.stop()))
      second.$client.close()
    }
    // Let the first passes (at start) finish on a queue with nothing due.
    await new Promise((resolve) => setTimeout(resolve, 50))
    return second
  }

  test('a change reaches the receiver within moments, on either worker', async () => {
    const owner = await createUser(db)
    const { secret } = await newEndpoint(owner)
    const second = await startTwoWorkers()

    await createTask(second, viewerOf(owner), fields({ text: 'Tell them now' }))

    await vi.waitFor(() => expect(received).toHaveLength(1), WITHIN_MOMENTS)
    expect(verified(received[0] as Received, secret)).toMatchObject({
      type: 'task.created',
      data: { text: 'Tell them now' },
    })
    // Once: the job queued again while a run had it waited for that run instead of racing it.
    await vi.waitFor(async () => expect(await db.select().from(jobs).where(isDeliveriesJob)).toEqual([]))
    expect(received).toHaveLength(1)
  })

  test('"Redeliver" reaches the receiver within moments', async () => {
    const { owner, endpointId, first, delivery } = await oneMessageDelivered('Again, now')
    const second = await startTwoWorkers()

    await redeliver(second, viewerOf(owner), endpointId, delivery?.id as string)

    await vi.waitFor(() => expect(received).toHaveLength(2), WITHIN_MOMENTS)
    expect(received[1]?.id).toBe(first?.id)
  })
})

describe('who hears of what', () => {
  test('a sharee hears of a task while it is shared with them, and nothing after it is unshared', async () => {
    const owner = await createUser(db)
    const sharee = await createUser(db)
    const stranger = await createUser(db)
    const task = await createTask(
      db,
      viewerOf(owner),
      fields({ text: 'Shared for a while', sharedWith: [sharee.email] }),
    )
    const shareeEndpoint = await newEndpoint(sharee, ['task.updated', 'task.status_changed'])
    await newEndpoint(stranger)

    await setTaskStatus(db, viewerOf(owner), task.id, 'In Progress')
    await runQueueAt(Date.now())
    expect(
      received.map((message) => [message.id.endsWith(shareeEndpoint.id), JSON.parse(message.body).type]),
    ).toEqual([[true, 'task.status_changed']])
    // Shown to the sharee as the RPC endpoint shows it to them: no addresses, only names.
    expect(verified(received[0] as Received, shareeEndpoint.secret).data).toMatchObject({ sharedWith: [] })

    await updateTask(db, viewerOf(owner), task.id, { sharedWith: [] })
    await setTaskStatus(db, viewerOf(owner), task.id, 'Completed')
    await updateTask(db, viewerOf(owner), task.id, { text: 'Private now' })
    await runQueueAt(Date.now())
    expect(received).toHaveLength(1)
  })

  test('a task shared after an event does not tell the new sharee of it, however late the fan-out runs', async () => {
    const owner = await createUser(db)
    const newcomer = await createUser(db)
    const task = await createTask(db, viewerOf(owner), fields({ text: 'Private for now' }))
    const newcomersEndpoint = await newEndpoint(newcomer, ['task.updated', 'task.status_changed'])

    await setTaskStatus(db, viewerOf(owner), task.id, 'In Progress')
    await updateTask(db, viewerOf(owner), task.id, { sharedWith: [newcomer.email] })
    await setTaskStatus(db, viewerOf(owner), task.id, 'Completed')
    await runQueueAt(Date.now())

    // The share itself and what came after it; not the status change made while it was private.
    expect(
      received.map((message) => [message.id.endsWith(newcomersEndpoint.id), JSON.parse(message.body).type]),
    ).toEqual([
      [true, 'task.updated'],
      [true, 'task.status_changed'],
    ])
    expect(verified(received[1] as Received, newcomersEndpoint.secret).data).toMatchObject({
      status: 'Completed',
    })
  })

  test('a member hears of a teammate’s task in their workspace, and nothing once removed from it', async () => {
    const ada = await createUser(db)
    const grace = await createUser(db)
    const stranger = await createUser(db)
    const [team] = await db
      .insert(workspaces)
      .values({ name: 'Team', slug: `team-${Date.now()}` })
      .returning()
    if (!team) throw new Error('no workspace')
    await db.insert(workspaceMembers).values([
      { workspaceId: team.id, userId: ada.id, role: 'owner' },
      { workspaceId: team.id, userId: grace.id, role: 'member' },
    ])
    const gracesEndpoint = await newEndpoint(grace)
    await newEndpoint(stranger)

    const task = await createTask(db, viewerOf(ada), fields({ text: 'Team plan', workspaceId: team.id }))
    const { addComment } = await import('~/services/comments.server')
    const { comment } = await addComment(
      db,
      { ...viewerOf(ada), name: ada.name, image: null },
      { taskId: task.id, content: 'Kick-off on Monday', mentions: [] },
    )
    const gone = await createTask(db, viewerOf(ada), fields({ text: 'Short-lived', workspaceId: team.id }))
    await deleteTask(db, viewerOf(ada), gone.id)
    await runQueueAt(Date.now())
    const heard = received.map((message) => verified(message, gracesEndpoint.secret))
    expect(received.every((message) => message.id.endsWith(gracesEndpoint.id))).toBe(true)
    expect(heard.map((body) => [body.type, body.data.id, body.data.workspaceId])).toEqual([
      ['task.created', task.id, team.id],
      ['comment.added', comment.id, team.id],
      // Gone before the fan-out ran, the task's creation has nothing to show: its deletion says so.
      ['task.deleted', gone.id, team.id],
    ])
    // The task as the RPC endpoint answers Grace, a member.
    expect(heard[0]?.data).toEqual(
      JSON.parse(JSON.stringify((await getTask(db, viewerOf(grace), task.id)).task)),
    )

    await db
      .delete(workspaceMembers)
      .where(and(eq(workspaceMembers.workspaceId, team.id), eq(workspaceMembers.userId, grace.id)))
    await setTaskStatus(db, viewerOf(ada), task.id, 'Completed')
    await updateTask(db, viewerOf(ada), task.id, { text: 'Team plan, done' })
    await runQueueAt(Date.now())
    expect(received).toHaveLength(3)
  })

  test('a mention reaches only the endpoint of the person mentioned', async () => {
    const owner = await createUser(db)
    const other = await createUser(db)
    const task = await createTask(
      db,
      viewerOf(owner),
      fields({ text: 'Mentions', sharedWith: [other.email] }),
    )
    const othersEndpoint = await newEndpoint(other, ['mention', 'comment.added'])
    const ownersEndpoint = await newEndpoint(owner, ['mention'])
    const { addComment } = await import('~/services/comments.server')
    await addComment(
      db,
      { ...viewerOf(owner), name: owner.name, image: null },
      {
        taskId: task.id,
        content: `Look @${other.name}`,
        mentions: [other.id],
      },
    )
    await runQueueAt(Date.now())
    const heard = received.map((message) => [message.id.split('_').at(-1), JSON.parse(message.body).type])
    expect(heard).toEqual(
      expect.arrayContaining([
        [othersEndpoint.id, 'comment.added'],
        [othersEndpoint.id, 'mention'],
      ]),
    )
    expect(heard.some(([id]) => id === ownersEndpoint.id)).toBe(false)
  })
})

describe('private targets not allowed', () => {
  beforeAll(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = 'false'
    resetEnvForTests()
  })
  afterAll(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE = 'true'
    resetEnvForTests()
  })

  test.each([
    'http://127.0.0.1:8080/hooks',
    'https://127.0.0.1/hooks',
    'https://localhost/hooks',
    'https://169.254.169.254/latest/meta-data',
    'https://10.0.0.5/hooks',
    'https://192.168.0.10/hooks',
    'https://[::ffff:127.0.0.1]/hooks',
  ])('adding %s is refused with a clear message', async (url) => {
    expect(env().WEBHOOKS_ALLOW_PRIVATE).toBe(false)
    const owner = await createUser(db)
    const adding = addWebhookEndpoint(db, viewerOf(owner), { url, events: ['task.created'] })
    await expect(adding).rejects.toBeInstanceOf(Invalid)
    await expect(adding).rejects.toThrow(/^Webhooks (cannot be sent to|are sent over https only)/)
    expect(await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, owner.id))).toEqual([])
  })

  test('an endpoint added while allowed is refused at delivery once it is not', async () => {
    const owner = await createUser(db)
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        userId: owner.id,
        url: receiverUrl.replace('http:', 'https:'),
        secret: 'whsec_AAAA',
        events: ['task.created'],
        cursor: 0,
      })
      .returning()
    await createTask(db, viewerOf(owner), fields({ text: 'Not to loopback' }))
    await runQueueAt(Date.now(), {
      ...jobHandlers,
      [WEBHOOK_DELIVERIES_JOB]: webhookDeliveriesHandler({ allowPrivate: false }),
    })
    expect(received).toEqual([])
    const [delivery] = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpoint?.id as string))
    expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null })
    expect(delivery?.responseExcerpt).toMatch(/loopback/)
  })
})
