import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { passkeys } from '~/db/schema'
import { PASSKEY_NOT_FOUND } from '~/services/passkeys.server'
import { readToast } from '~/toast.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createUser } from '../../../tests/helpers/factories'
import { buttons, renderRoute, visibleText } from '../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import Settings, { action, loader } from './index'

/**
 * /settings' Passkeys section: the list with when each was added and last used, and the rename
 * and remove forms, which work as plain form posts (adding one needs JavaScript: the page says so).
 */

async function signedInWithPasskey() {
  const db = database()
  const user = await createUser(db)
  const browser = await signedInBrowser(db, user.id)
  const [passkey] = await db
    .insert(passkeys)
    .values({
      userId: user.id,
      credentialId: `credential-${user.id}`,
      publicKey: Buffer.from([1, 2, 3]),
      name: 'Passkey on Chrome on Linux',
      createdAt: new Date('2026-11-20T10:00:00Z'),
      lastUsedAt: new Date('2026-11-25T08:30:00Z'),
    })
    .returning()
  if (!passkey) throw new Error('no passkey')
  const post = (fields: Record<string, string>) =>
    callAction(action, { url: '/settings', headers: { Cookie: browser.cookie }, form: browser.form(fields) })
  const page = () => callLoader(loader, { url: '/settings', headers: { Cookie: browser.cookie } })
  return { db, user, browser, passkey, post, page }
}

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

function render(loaderData: unknown, actionData?: unknown) {
  return renderRoute(
    { id: 'routes/settings/index', path: '/settings', Component: Settings },
    { loaderData, actionData },
  )
}

describe('the list', () => {
  test('shows each passkey with when it was added and last used, and says adding needs JavaScript', async () => {
    const { passkey, page } = await signedInWithPasskey()
    const loaded = await page()
    expect(loaded.data.passkeys).toEqual([
      {
        id: passkey.id,
        name: 'Passkey on Chrome on Linux',
        createdAt: '2026-11-20T10:00:00.000Z',
        lastUsedAt: '2026-11-25T08:30:00.000Z',
      },
    ])
    const html = render(loaded.data)
    const text = visibleText(html)
    expect(text).toContain('Added Nov 20, 2026, 10:00 AM UTC · Last used Nov 25, 2026, 8:30 AM UTC')
    expect(buttons(html)).toEqual(expect.arrayContaining(['Rename', 'Remove', 'Add a passkey']))
    expect(html).toMatch(/<noscript>[\s\S]*Adding a passkey needs JavaScript/)
  })

  test("lists only the person's own passkeys", async () => {
    const { page } = await signedInWithPasskey()
    const db = database()
    const other = await createUser(db)
    const loaded = await callLoader(loader, {
      url: '/settings',
      headers: { Cookie: (await signedInBrowser(db, other.id)).cookie },
    })
    expect(loaded.data.passkeys).toEqual([])
    expect((await page()).data.passkeys).toHaveLength(1)
  })
})

describe('rename-passkey', () => {
  test('renames it and comes back with a toast', async () => {
    const { db, passkey, post } = await signedInWithPasskey()
    const answer = await post({ intent: 'rename-passkey', passkeyId: passkey.id, name: '  Work laptop ' })
    expect(answer).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(answer.headers)).toMatchObject({ title: 'Passkey renamed' })
    const [row] = await db.select().from(passkeys).where(eq(passkeys.id, passkey.id))
    expect(row?.name).toBe('Work laptop')
  })

  test('an empty or too long name is 400 on the field; nothing changes', async () => {
    const { db, passkey, post } = await signedInWithPasskey()
    for (const name of ['   ', 'x'.repeat(61)]) {
      const answer = await post({ intent: 'rename-passkey', passkeyId: passkey.id, name })
      expect(answer.status).toBe(400)
      expect(answer.data).toMatchObject({ intent: 'rename-passkey' })
    }
    const [row] = await db.select().from(passkeys).where(eq(passkeys.id, passkey.id))
    expect(row?.name).toBe('Passkey on Chrome on Linux')
  })

  test("another person's passkey is 404, shown on the page", async () => {
    const { passkey } = await signedInWithPasskey()
    const db = database()
    const intruder = await signedInBrowser(db, (await createUser(db)).id)
    const answer = await callAction(action, {
      url: '/settings',
      headers: { Cookie: intruder.cookie },
      form: intruder.form({ intent: 'rename-passkey', passkeyId: passkey.id, name: 'Mine' }),
    })
    expect(answer.status).toBe(404)
    const page = await callLoader(loader, { url: '/settings', headers: { Cookie: intruder.cookie } })
    expect(visibleText(render(page.data, answer.data))).toContain(PASSKEY_NOT_FOUND)
  })
})

describe('remove-passkey', () => {
  test('removes it: gone from the table and the list', async () => {
    const { db, passkey, post, page } = await signedInWithPasskey()
    const answer = await post({ intent: 'remove-passkey', passkeyId: passkey.id })
    expect(answer).toMatchObject({ status: 302, location: '/settings' })
    expect(await toastOf(answer.headers)).toMatchObject({ title: 'Passkey removed' })
    expect(await db.select().from(passkeys).where(eq(passkeys.id, passkey.id))).toEqual([])
    expect(visibleText(render((await page()).data))).toContain('No passkeys yet.')
  })

  test('removing it twice is 404', async () => {
    const { passkey, post } = await signedInWithPasskey()
    await post({ intent: 'remove-passkey', passkeyId: passkey.id })
    expect((await post({ intent: 'remove-passkey', passkeyId: passkey.id })).status).toBe(404)
  })
})
