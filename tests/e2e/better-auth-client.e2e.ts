import { authClient, bareClient } from './better-auth-client'
import { expect, test } from './fixtures'
import { totpAt } from './totp'

/**
 * docs/product-rules.md §5: /api/auth answers better-auth's paths and shapes, so its own client works
 * unchanged. This drives the real client (better-auth-client.ts) against the running app.
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

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
  const client = await bareClient(baseURL as string)
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
