import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CONTRACT_DIR } from './better-auth-client.setup'
import { expect, test } from './fixtures'

/**
 * docs/product-rules.md §5: /api/auth answers better-auth's paths and shapes, so its own client works
 * unchanged. This drives the real client (installed by better-auth-client.setup.ts) against the
 * running app. Like a browser, the client keeps cookies and sends the CSRF token the app hands
 * out at /api/csrf as `x-csrf-token`.
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

type Client = {
  signUp: { email: (input: { name: string; email: string; password: string }) => Promise<Result> }
  signIn: {
    email: (input: { email: string; password: string }) => Promise<Result>
    social: (input: { provider: string; disableRedirect?: boolean }) => Promise<Result>
  }
  getSession: () => Promise<Result>
  listSessions: () => Promise<Result>
  updateUser: (input: { name: string }) => Promise<Result>
  signOut: () => Promise<Result>
  requestPasswordReset: (input: { email: string }) => Promise<Result>
  revokeOtherSessions: () => Promise<Result>
  deleteUser: (input: { password: string }) => Promise<Result>
}
type Result = { data: unknown; error: { status: number; message?: string } | null }

async function authClient(baseURL: string) {
  const module = (await import(
    pathToFileURL(join(CONTRACT_DIR, 'node_modules/better-auth/dist/client/index.mjs')).href
  )) as { createAuthClient: (options: unknown) => Client }
  const jar = new Map<string, string>()
  let csrf = ''
  const browserLikeFetch = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers)
    headers.set('Cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '))
    headers.set('Origin', baseURL)
    if (csrf) headers.set('x-csrf-token', csrf)
    const response = await fetch(input, { ...init, headers, redirect: 'manual' })
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';')
      const name = pair.slice(0, pair.indexOf('='))
      if (/Max-Age=0/i.test(cookie)) jar.delete(name)
      else jar.set(name, pair.slice(pair.indexOf('=') + 1))
    }
    return response
  }
  /** A new token after each change of session, as a page would get with its next render. */
  const refreshCsrf = async () => {
    csrf = ''
    const response = await browserLikeFetch(`${baseURL}/api/csrf`)
    csrf = ((await response.json()) as { csrfToken: string }).csrfToken
  }
  const client = module.createAuthClient({
    baseURL: `${baseURL}/api/auth`,
    fetchOptions: { customFetchImpl: browserLikeFetch },
  })
  await refreshCsrf()
  return { client, refreshCsrf }
}

test('the better-auth client signs up, reads and edits the session, signs out and in, and deletes the account', async ({
  baseURL,
}) => {
  const { client, refreshCsrf } = await authClient(baseURL as string)
  const email = `client-${Date.now()}@example.com`
  const password = 'a long enough password'

  const signUp = await client.signUp.email({ name: 'Bea Client', email, password })
  expect(signUp.error).toBeNull()
  expect(signUp.data).toMatchObject({ user: { email, name: 'Bea Client', emailVerified: false } })
  await refreshCsrf()

  const session = await client.getSession()
  expect(session.data).toMatchObject({ user: { email }, session: { expiresAt: expect.any(Date) } })
  expect((await client.listSessions()).data).toHaveLength(1)

  expect((await client.updateUser({ name: 'Bea Renamed' })).data).toEqual({ status: true })
  expect((await client.getSession()).data).toMatchObject({ user: { name: 'Bea Renamed' } })

  expect((await client.signOut()).data).toEqual({ success: true })
  expect((await client.getSession()).data).toBeNull()
  await refreshCsrf()

  const wrong = await client.signIn.email({ email, password: 'not the password' })
  expect(wrong.error).toMatchObject({ status: 401, message: 'Invalid e-mail or password.' })
  const signIn = await client.signIn.email({ email, password })
  expect(signIn.data).toMatchObject({ redirect: false, user: { email } })
  await refreshCsrf()

  expect((await client.requestPasswordReset({ email })).data).toMatchObject({ status: true })
  expect((await client.revokeOtherSessions()).data).toEqual({ status: true })
  expect((await client.deleteUser({ password })).data).toEqual({ success: true, message: 'User deleted' })
  await refreshCsrf()
  const gone = await client.signIn.email({ email, password })
  expect(gone.error).toMatchObject({ status: 401 })
})

test('without the CSRF token the client is refused with 403', async ({ baseURL }) => {
  const module = (await import(
    pathToFileURL(join(CONTRACT_DIR, 'node_modules/better-auth/dist/client/index.mjs')).href
  )) as { createAuthClient: (options: unknown) => Client }
  const client = module.createAuthClient({ baseURL: `${baseURL}/api/auth` })
  const result = await client.signIn.email({ email: 'nobody@example.com', password: 'whatever it is' })
  expect(result.error).toMatchObject({ status: 403, message: 'Invalid CSRF token' })
})
