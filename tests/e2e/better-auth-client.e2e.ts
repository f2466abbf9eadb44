import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CONTRACT_DIR } from './better-auth-client.setup'
import { expect, test } from './fixtures'
import { totpAt } from './totp'

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
  twoFactor: {
    enable: (input: { password: string }) => Promise<Result>
    verifyTotp: (input: { code: string }) => Promise<Result>
    verifyBackupCode: (input: { code: string }) => Promise<Result>
  }
}
type Result = { data: unknown; error: { status: number; message?: string } | null }

async function authClient(baseURL: string, { withTwoFactor = false } = {}) {
  const module = (await import(
    pathToFileURL(join(CONTRACT_DIR, 'node_modules/better-auth/dist/client/index.mjs')).href
  )) as { createAuthClient: (options: unknown) => Client }
  const plugins = (await import(
    pathToFileURL(join(CONTRACT_DIR, 'node_modules/better-auth/dist/client/plugins/index.mjs')).href
  )) as { twoFactorClient: (options?: unknown) => unknown }
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
    plugins: withTwoFactor ? [plugins.twoFactorClient({ onTwoFactorRedirect: () => {} })] : [],
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

test('with twoFactorClient(): turn two-factor on, sign in through the redirect, and a backup code works once', async ({
  baseURL,
}) => {
  test.setTimeout(120_000)
  const { client, refreshCsrf } = await authClient(baseURL as string, { withTwoFactor: true })
  const email = `client-2fa-${Date.now()}@example.com`
  const password = 'a long enough password'
  expect((await client.signUp.email({ name: 'Tess Two', email, password })).error).toBeNull()
  await refreshCsrf()

  const enabled = await client.twoFactor.enable({ password })
  expect(enabled.error).toBeNull()
  const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] }
  expect(backupCodes).toHaveLength(10)
  const secret = new URL(totpURI).searchParams.get('secret') ?? ''
  // Confirmed with the code of the step before now, so now's code is still unused.
  expect((await client.twoFactor.verifyTotp({ code: totpAt(secret, Date.now() - 30_000) })).error).toBeNull()
  await refreshCsrf()

  const signOut = async () => {
    await client.signOut()
    await refreshCsrf()
  }
  await signOut()
  const first = await client.signIn.email({ email, password })
  expect(first.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ['totp'] })
  expect((await client.getSession()).data).toBeNull()
  const verified = await client.twoFactor.verifyTotp({ code: totpAt(secret, Date.now()) })
  expect(verified.data).toMatchObject({ user: { email } })
  expect((await client.getSession()).data).toMatchObject({ user: { email } })
  await refreshCsrf()

  for (const isFirstUse of [true, false]) {
    await signOut()
    expect((await client.signIn.email({ email, password })).data).toMatchObject({ twoFactorRedirect: true })
    const backup = await client.twoFactor.verifyBackupCode({ code: backupCodes[0] ?? '' })
    if (isFirstUse) expect(backup.data).toMatchObject({ user: { email } })
    else {
      expect(backup.error).toMatchObject({ status: 401 })
      expect((await client.getSession()).data).toBeNull()
    }
    await refreshCsrf()
  }
})
