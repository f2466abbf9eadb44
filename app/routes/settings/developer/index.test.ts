import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { apiTokens } from '~/db/schema'
import { API_TOKEN_LIMITS } from '~/domain/api-tokens'
import { authenticateApiToken, createApiToken, TOO_MANY_TOKENS } from '~/services/api-tokens.server'
import { toSessionUser } from '~/services/sessions.server'
import { signedInBrowser } from '../../../../tests/helpers/auth'
import { createUser } from '../../../../tests/helpers/factories'
import { renderRoute, textContent, visibleText } from '../../../../tests/helpers/html'
import { callAction, callLoader } from '../../../../tests/helpers/route'
import DeveloperSettings, { action, loader } from './index'

/**
 * /settings/developer's tokens section as a browser without JavaScript posts it: a new token is
 * shown once in the answer, the list shows every token's use, a token is revoked at once.
 */

type Reply = {
  intent?: string
  created?: { token: string; name: string }
  result?: { error?: Record<string, string[] | null> } | null
}

async function signedIn() {
  const db = database()
  const user = toSessionUser(await createUser(db, { name: 'Ada' }))
  const browser = await signedInBrowser(db, user.id)
  const post = (fields: Record<string, string>) =>
    callAction(action, {
      url: '/settings/developer',
      headers: { Cookie: browser.cookie },
      form: browser.form(fields),
    })
  const page = () => callLoader(loader, { url: '/settings/developer', headers: { Cookie: browser.cookie } })
  return { db, user, post, page }
}

/** The page's markup: the new token sits in a read-only field's value, to select and copy. */
const render = (loaderData: unknown, actionData?: unknown) =>
  renderRoute(
    { id: 'routes/settings/developer/index', path: '/settings/developer', Component: DeveloperSettings },
    { loaderData, actionData },
  )

describe('/settings/developer: personal API tokens', () => {
  test('sends a visitor to sign in and back', async () => {
    const page = await callLoader(loader, { url: '/settings/developer' })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fsettings%2Fdeveloper' })
  })

  test('creating a token shows it once, working, and lists it without its secret', async () => {
    const { db, user, post, page } = await signedIn()
    const answer = await post({
      intent: 'create-token',
      name: 'Claude Desktop',
      scope: 'read-write',
      expiry: '90',
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('Cache-Control')).toBe('no-store')
    const { created } = answer.data as Reply
    expect(created?.token).toMatch(/^tw_pat_/)
    expect(await authenticateApiToken(db, created?.token ?? '')).toMatchObject({
      scope: 'read-write',
      user: { id: user.id },
    })

    const listed = await page()
    expect(listed.data.tokens).toEqual([
      expect.objectContaining({
        name: 'Claude Desktop',
        scope: 'read-write',
        isExpired: false,
        lastUsedAt: expect.any(String),
      }),
    ])
    expect(JSON.stringify(listed.data)).not.toContain(created?.token)
    const shown = render(listed.data, answer.data)
    expect(shown).toContain(`value="${created?.token}"`)
    expect(visibleText(shown)).toContain('it will not be shown again')
    expect(render(listed.data)).not.toContain(created?.token)
    const later = visibleText(render(listed.data))
    expect(later).toContain('Claude Desktop')
    expect(later).toContain('Read and write')
  })

  test('a token’s name and its badges read as separate words', async () => {
    const { db, user, page } = await signedIn()
    await createApiToken(db, user, { name: 'CI', scope: 'read', expiry: 'none' })
    const old = await createApiToken(db, user, { name: 'Old script', scope: 'read-write', expiry: '30' })
    await db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, old.view.id))
    const text = textContent(render((await page()).data))
    expect(text).toContain('CI Read only')
    expect(text).toContain('Old script Read and write Expired')
  })

  test('a form without a name or with an unknown scope is 400 beside its fields', async () => {
    const { post } = await signedIn()
    const answer = await post({ intent: 'create-token', name: '', scope: 'admin', expiry: '90' })
    expect(answer.status).toBe(400)
    expect(Object.keys((answer.data as Reply).result?.error ?? {})).toEqual(
      expect.arrayContaining(['name', 'scope']),
    )
  })

  test(`the ${API_TOKEN_LIMITS.perPerson + 1}th token is refused with the reason`, async () => {
    const { db, user, post } = await signedIn()
    for (let n = 0; n < API_TOKEN_LIMITS.perPerson; n++) {
      await createApiToken(db, user, { name: `T${n}`, scope: 'read', expiry: 'none' })
    }
    const answer = await post({ intent: 'create-token', name: 'One more', scope: 'read', expiry: 'none' })
    expect(answer.status).toBe(409)
    expect((answer.data as Reply).result?.error?.['']).toEqual([TOO_MANY_TOKENS])
  })

  test('revoking a token ends it at once; another person’s token cannot be revoked from here', async () => {
    const { db, user, post, page } = await signedIn()
    const { token, view } = await createApiToken(db, user, {
      name: 'Old script',
      scope: 'read',
      expiry: '30',
    })
    const eve = toSessionUser(await createUser(db))
    const evesToken = await createApiToken(db, eve, { name: 'Eve', scope: 'read', expiry: 'none' })
    expect((await post({ intent: 'revoke-token', tokenId: evesToken.view.id })).status).toBe(404)
    expect(await authenticateApiToken(db, evesToken.token)).not.toBeNull()
    const answer = await post({ intent: 'revoke-token', tokenId: view.id })
    expect(answer).toMatchObject({ status: 302, location: '/settings/developer' })
    expect(await authenticateApiToken(db, token)).toBeNull()
    expect((await page()).data.tokens).toEqual([])
  })
})
