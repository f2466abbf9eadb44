import { generateTOTP } from '@epic-web/totp'
import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { sessions } from '~/db/schema'
import { TOTP, twoFactorStatus } from '~/services/two-factor.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createUser, TEST_PASSWORD } from '../../../tests/helpers/factories'
import { callAction, callLoader } from '../../../tests/helpers/route'
import { loader as settingsLoader } from './index'
import { action, loader } from './two-factor'

/**
 * /settings/two-factor as the browser posts it: setting up with a QR code drawn on the server,
 * confirming (which ends the other sessions), recovery codes shown once, turning it off; and the
 * sessions list on /settings saying how each session signed in.
 */

async function signedIn() {
  const db = database()
  const user = await createUser(db)
  const browser = await signedInBrowser(db, user.id, { method: 'password' })
  const post = (fields: Record<string, string>) =>
    callAction(action, {
      url: '/settings/two-factor',
      headers: { Cookie: browser.cookie },
      form: browser.form(fields),
    })
  const page = () => callLoader(loader, { url: '/settings/two-factor', headers: { Cookie: browser.cookie } })
  return { db, user, browser, post, page }
}

type Codes = { recoveryCodes?: string[] }

describe('/settings/two-factor', () => {
  test('sends a visitor to sign in', async () => {
    expect(await callLoader(loader, { url: '/settings/two-factor' })).toMatchObject({
      status: 302,
      location: '/login?redirect=%2Fsettings%2Ftwo-factor',
    })
  })

  test('set up, shown a QR code and the secret, confirmed with a code: on, and other sessions end', async () => {
    const { db, user, browser, post, page } = await signedIn()
    const other = await signedInBrowser(db, user.id)

    expect(await post({ intent: 'begin', password: 'wrong' })).toMatchObject({ status: 400 })
    const begun = await post({ intent: 'begin', password: TEST_PASSWORD })
    expect(begun.status).toBe(200)
    expect((begun.data as Codes).recoveryCodes).toHaveLength(10)

    const pending = await page()
    expect(pending.headers.get('Cache-Control')).toBe('private, no-store')
    const setup = pending.data.setup
    expect(setup?.qrSvg).toMatch(/^<svg[^>]*>/)
    expect(setup?.uri).toContain(`secret=${setup?.secret}`)
    expect(pending.data.status).toBe('pending')

    expect((await post({ intent: 'confirm', code: '000000' })).status).toBe(400)
    const { otp } = await generateTOTP({ ...TOTP, secret: setup?.secret ?? '' })
    expect(await post({ intent: 'confirm', code: otp })).toMatchObject({
      status: 302,
      location: '/settings/two-factor',
    })
    expect(await twoFactorStatus(db, user.id)).toEqual({ status: 'on', recoveryCodesLeft: 10 })
    const left = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, user.id))
    expect(left.map((row) => row.id)).toEqual([browser.session.id])
    expect(left.map((row) => row.id)).not.toContain(other.session.id)

    // Once on, the secret is never shown again.
    expect((await page()).data.setup).toBeNull()

    const fresh = await post({ intent: 'regenerate', password: TEST_PASSWORD })
    expect((fresh.data as Codes).recoveryCodes).toHaveLength(10)

    expect((await post({ intent: 'turn-off', password: 'wrong' })).status).toBe(400)
    expect(await post({ intent: 'turn-off', password: TEST_PASSWORD })).toMatchObject({ status: 302 })
    expect(await twoFactorStatus(db, user.id)).toMatchObject({ status: 'off' })
  })

  test('/settings lists how each session signed in', async () => {
    const { db, user, browser } = await signedIn()
    await signedInBrowser(db, user.id, { method: 'github', isTwoFactor: true })
    await signedInBrowser(db, user.id)

    const settings = await callLoader(settingsLoader, {
      url: '/settings',
      headers: { Cookie: browser.cookie },
    })

    expect(settings.data.sessions.map((session) => session.signedInWith).sort()).toEqual([
      'GitHub + two-factor code',
      'Password',
      null,
    ])
    expect(settings.data.twoFactor).toEqual({ status: 'off', recoveryCodesLeft: 0 })
  })
})
