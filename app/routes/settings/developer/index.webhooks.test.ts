import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { webhookDeliveries, webhookEndpoints } from '~/db/schema'
import { resetEnvForTests } from '~/env.server'
import { readToast } from '~/toast.server'
import { signedInBrowser } from '../../../../tests/helpers/auth'
import { createUser } from '../../../../tests/helpers/factories'
import { renderRoute, textContent } from '../../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../../tests/helpers/route'
import DeveloperSettings, { action, loader } from './index'
import { action as deliveriesAction, loader as deliveriesLoader } from './webhook-deliveries'

/**
 * /settings/developer's webhooks section and an endpoint's deliveries page, as the browser posts
 * their forms (hidden `intent`, no JavaScript needed): what each answers and leaves in the database.
 */

const db = database()
type Reply = {
  result?: { error?: Record<string, string[] | null> } | null
  created?: { id: string; secret: string }
}
const errorsOf = (data: unknown, field = '') => (data as Reply).result?.error?.[field] ?? undefined

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

async function signedIn() {
  const user = await createUser(db)
  const browser = await signedInBrowser(db, user.id)
  const post = (fields: Record<string, string | string[]>) =>
    callAction(action, {
      url: '/settings/developer',
      headers: { Cookie: browser.cookie },
      form: { ...browser.form({}), ...fields },
    })
  return { user, browser, post }
}

async function endpointsOf(userId: string) {
  return db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId))
}

describe('/settings/developer', () => {
  test('sends a visitor to sign in and back', async () => {
    const page = await callLoader(loader, { url: '/settings/developer' })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fsettings%2Fdeveloper' })
  })

  test('adding an endpoint shows its secret once; the list never shows it again', async () => {
    const { user, browser, post } = await signedIn()
    const answer = await post({
      intent: 'add-webhook',
      url: 'https://hooks.example.com/threadwork',
      events: ['task.created', 'comment.added'],
    })
    expect(answer.status).toBe(200)
    const created = (answer.data as Reply).created
    expect(created?.secret).toMatch(/^whsec_/)
    const [row] = await endpointsOf(user.id)
    expect(row).toMatchObject({
      url: 'https://hooks.example.com/threadwork',
      events: ['task.created', 'comment.added'],
    })
    expect(row?.secret).toBe(created?.secret)

    const page = await callLoader(loader, { url: '/settings/developer', headers: { Cookie: browser.cookie } })
    expect(page.data.webhooks).toEqual([expect.objectContaining({ id: row?.id, status: 'active' })])
    expect(JSON.stringify(page.data)).not.toContain('whsec_')
  })

  test('one event ticked is a list of one', async () => {
    const { user, post } = await signedIn()
    const answer = await post({
      intent: 'add-webhook',
      url: 'https://hooks.example.com/one',
      events: 'mention',
    })
    expect(answer.status).toBe(200)
    expect((await endpointsOf(user.id))[0]?.events).toEqual(['mention'])
  })

  test('a private address is refused with a clear message, and nothing is added', async () => {
    const { user, post } = await signedIn()
    const answer = await post({
      intent: 'add-webhook',
      url: 'https://169.254.169.254/latest',
      events: ['task.created'],
    })
    expect(answer.status).toBe(400)
    expect(errorsOf(answer.data)).toEqual([
      'Webhooks cannot be sent to 169.254.169.254: it is a link-local address (cloud metadata lives there)',
    ])
    expect(await endpointsOf(user.id)).toEqual([])
  })

  test('no event chosen is refused', async () => {
    const { post } = await signedIn()
    const answer = await post({ intent: 'add-webhook', url: 'https://hooks.example.com/none' })
    expect(answer.status).toBe(400)
    expect(errorsOf(answer.data, 'events')).toEqual(['Choose at least one event'])
  })

  describe('with WEBHOOKS_ALLOW_PRIVATE=true', () => {
    beforeAll(() => {
      process.env.WEBHOOKS_ALLOW_PRIVATE = 'true'
      resetEnvForTests()
    })
    afterAll(() => {
      delete process.env.WEBHOOKS_ALLOW_PRIVATE
      resetEnvForTests()
    })

    test('plain http to loopback is accepted', async () => {
      const { user, post } = await signedIn()
      const answer = await post({
        intent: 'add-webhook',
        url: 'http://127.0.0.1:4000/hooks',
        events: ['task.created'],
      })
      expect(answer.status).toBe(200)
      expect((await endpointsOf(user.id))[0]?.url).toBe('http://127.0.0.1:4000/hooks')
    })
  })

  test('pause, resume, test and delete each come back with a toast; a stranger’s endpoint is not found', async () => {
    const { user, browser, post } = await signedIn()
    await post({ intent: 'add-webhook', url: 'https://hooks.example.com/x', events: ['task.created'] })
    const [endpoint] = await endpointsOf(user.id)
    const endpointId = endpoint?.id as string

    const paused = await post({ intent: 'pause-webhook', endpointId })
    expect(paused).toMatchObject({ status: 302, location: '/settings/developer' })
    expect(await toastOf(paused.headers)).toMatchObject({ title: 'Endpoint paused' })
    expect((await endpointsOf(user.id))[0]?.status).toBe('paused')
    const page = await callLoader(loader, { url: '/settings/developer', headers: { Cookie: browser.cookie } })
    const shown = renderRoute(
      { id: 'routes/settings/developer/index', path: '/settings/developer', Component: DeveloperSettings },
      { loaderData: page.data },
    )
    expect(textContent(shown)).toContain('https://hooks.example.com/x Paused')

    await post({ intent: 'resume-webhook', endpointId })
    expect((await endpointsOf(user.id))[0]?.status).toBe('active')

    const tested = await post({ intent: 'test-webhook', endpointId })
    expect(await toastOf(tested.headers)).toMatchObject({ title: 'Test event queued' })
    const queued = await db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
    expect(queued.map((message) => message.type)).toEqual(['webhook.test'])

    const stranger = await signedIn()
    const refused = await stranger.post({ intent: 'delete-webhook', endpointId })
    expect(refused.status).toBe(404)
    expect(errorsOf(refused.data)).toEqual(['Webhook endpoint not found'])

    await post({ intent: 'delete-webhook', endpointId })
    expect(await endpointsOf(user.id)).toEqual([])
  })
})

describe('/settings/developer/webhooks/:endpointId', () => {
  test('lists the endpoint’s deliveries to its owner, and is not found for anyone else', async () => {
    const { user, browser, post } = await signedIn()
    await post({ intent: 'add-webhook', url: 'https://hooks.example.com/y', events: ['task.created'] })
    const [endpoint] = await endpointsOf(user.id)
    const endpointId = endpoint?.id as string
    await post({ intent: 'test-webhook', endpointId })

    const url = `/settings/developer/webhooks/${endpointId}`
    const page = await callLoader(deliveriesLoader, {
      url,
      params: { endpointId },
      headers: { Cookie: browser.cookie },
    })
    expect(page.data.deliveries).toEqual([
      expect.objectContaining({ type: 'webhook.test', status: 'pending', attempts: 0 }),
    ])

    const stranger = await signedIn()
    const hidden = await callLoader(deliveriesLoader, {
      url,
      params: { endpointId },
      headers: { Cookie: stranger.browser.cookie },
    })
    expect(hidden.status).toBe(404)

    const redelivered = await callAction(deliveriesAction, {
      url,
      params: { endpointId },
      headers: { Cookie: browser.cookie },
      form: browser.form({
        intent: 'redeliver-webhook',
        endpointId,
        deliveryId: page.data.deliveries[0]?.id as string,
      }),
    })
    expect(redelivered).toMatchObject({ status: 302, location: url })
    expect(await toastOf(redelivered.headers)).toMatchObject({ title: 'Redelivery queued' })
  })
})
