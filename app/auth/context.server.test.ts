import { eq } from 'drizzle-orm'
import { RouterContextProvider } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { database } from '~/db/client.server'
import { users } from '~/db/schema'
import * as sessions from '~/services/sessions.server'
import { cookieAttributes, signedInBrowser } from '../../tests/helpers/auth'
import { createUser } from '../../tests/helpers/factories'
import { buildRequest } from '../../tests/helpers/route'
import {
  ANONYMOUS_COOKIE,
  csrfTokenFor,
  getAuth,
  getUser,
  requireAnonymous,
  requireUser,
  resolveSession,
} from './context.server'
import { isValidCsrfToken } from './csrf.server'

/**
 * Who is asking: resolved once per request from the session cookie, signed out on any failure,
 * and the anonymous id that CSRF tokens bind to before sign-in.
 */

vi.mock('~/services/sessions.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('~/services/sessions.server')>()
  return { ...original, findSession: vi.fn(original.findSession) }
})

afterEach(() => {
  vi.restoreAllMocks()
})

function request(cookie?: string, url = '/dashboard') {
  return buildRequest({ url, headers: cookie ? { Cookie: cookie } : {} })
}

async function thrownBy(promise: Promise<unknown>) {
  try {
    await promise
  } catch (thrown) {
    return thrown as Response
  }
  throw new Error('Expected a redirect to be thrown')
}

describe('getAuth', () => {
  test('a visitor without cookies is anonymous, with nothing to bind a token to yet', async () => {
    const auth = await getAuth(request(), new RouterContextProvider())
    expect(auth).toEqual({ user: null, session: null, csrfBinding: null, setCookies: [] })
  })

  test('a session cookie gives the user and binds tokens to the session', async () => {
    const db = database()
    const user = await createUser(db, { name: 'Ada' })
    const browser = await signedInBrowser(db, user.id)

    const auth = await getAuth(request(browser.cookie), new RouterContextProvider())

    expect(auth.user).toMatchObject({ id: user.id, name: 'Ada' })
    expect(auth.csrfBinding).toBe(`session:${browser.session.id}`)
  })

  test('resolves once per request however many loaders ask', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const context = new RouterContextProvider()
    const req = request(browser.cookie)
    vi.mocked(sessions.findSession).mockClear()

    const [a, b, user] = await Promise.all([
      getAuth(req, context),
      getAuth(req, context),
      getUser(req, context),
    ])

    expect(a).toBe(b)
    expect(user).toEqual(a.user)
    expect(sessions.findSession).toHaveBeenCalledOnce()
  })

  test("on a failure the visitor counts as signed out and 'Auth error' is logged", async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const failure = new Error('database is locked')
    vi.mocked(sessions.findSession).mockRejectedValueOnce(failure)
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})

    const auth = await getAuth(request(browser.cookie), new RouterContextProvider())

    expect(auth.user).toBeNull()
    expect(auth.session).toBeNull()
    expect(log).toHaveBeenCalledWith('Auth error', failure)
  })

  test('an anonymous cookie binds tokens to that id', async () => {
    const auth = await getAuth(request(`${ANONYMOUS_COOKIE}=abc`), new RouterContextProvider())
    expect(auth.csrfBinding).toBe('anonymous:abc')
  })
})

describe('csrfTokenFor', () => {
  test('gives a new visitor an anonymous id cookie (a year, HttpOnly) and a token bound to it', async () => {
    const context = new RouterContextProvider()
    const req = request(undefined, '/login')

    const token = await csrfTokenFor(req, context)

    const auth = await getAuth(req, context)
    expect(auth.csrfBinding).toMatch(/^anonymous:[A-Za-z0-9_-]{24}$/)
    expect(isValidCsrfToken(token, auth.csrfBinding as string)).toBe(true)
    const headers = new Headers()
    for (const cookie of auth.setCookies) headers.append('Set-Cookie', cookie)
    const attributes = cookieAttributes(headers, ANONYMOUS_COOKIE)
    expect(attributes).toMatchObject({ 'max-age': String(365 * 24 * 60 * 60), path: '/', samesite: 'Lax' })
    expect(attributes).toHaveProperty('httponly')
    expect(headers.getSetCookie()[0]).toContain(
      `${ANONYMOUS_COOKIE}=${auth.csrfBinding?.slice('anonymous:'.length)}`,
    )

    // A second form on the same page reuses the id rather than minting another cookie.
    await csrfTokenFor(req, context)
    expect(auth.setCookies).toHaveLength(1)
  })

  test('a returning visitor keeps their anonymous id; no new cookie', async () => {
    const context = new RouterContextProvider()
    const req = request(`${ANONYMOUS_COOKIE}=returning`, '/login')
    const token = await csrfTokenFor(req, context)
    expect(isValidCsrfToken(token, 'anonymous:returning')).toBe(true)
    expect((await getAuth(req, context)).setCookies).toEqual([])
  })

  test('a signed-in visitor gets a token bound to the session', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const token = await csrfTokenFor(request(browser.cookie), new RouterContextProvider())
    expect(isValidCsrfToken(token, `session:${browser.session.id}`)).toBe(true)
  })
})

describe('requireUser', () => {
  test('returns the signed-in user and session', async () => {
    const db = database()
    const user = await createUser(db)
    const browser = await signedInBrowser(db, user.id)
    const result = await requireUser(request(browser.cookie), new RouterContextProvider())
    expect(result.user.id).toBe(user.id)
    expect(result.session.id).toBe(browser.session.id)
  })

  test('sends a visitor to sign in, coming back to the same path and query afterwards', async () => {
    const response = await thrownBy(
      requireUser(request(undefined, '/settings?tab=sessions'), new RouterContextProvider()),
    )
    expect(response.status).toBe(302)
    expect(response.headers.get('Location')).toBe('/login?redirect=%2Fsettings%3Ftab%3Dsessions')
  })

  test('a single-fetch data request comes back to the page, not to its .data URL', async () => {
    const response = await thrownBy(
      requireUser(request(undefined, '/dashboard.data'), new RouterContextProvider()),
    )
    expect(response.headers.get('Location')).toBe('/login?redirect=%2Fdashboard')
  })
})

describe('requireAnonymous', () => {
  test('lets a visitor through', async () => {
    await expect(requireAnonymous(request(), new RouterContextProvider())).resolves.toBeUndefined()
  })

  test('sends a signed-in user on, to /dashboard or the given target', async () => {
    const db = database()
    const browser = await signedInBrowser(db, (await createUser(db)).id)
    const toDashboard = await thrownBy(requireAnonymous(request(browser.cookie), new RouterContextProvider()))
    expect(toDashboard.headers.get('Location')).toBe('/dashboard')
    const toSettings = await thrownBy(
      requireAnonymous(request(browser.cookie), new RouterContextProvider(), '/settings'),
    )
    expect(toSettings.headers.get('Location')).toBe('/settings')
  })
})

describe('resolveSession, what every request does before it reads (the fast paths too)', () => {
  const db = database()
  const DAY_MS = 24 * 60 * 60 * 1000
  const cookieOf = (token: string) => `tw_session=${encodeURIComponent(token)}`

  test('finds a valid session and sends nothing; renews an old one and sends its cookie', async () => {
    const user = await createUser(db)
    const fresh = await sessions.createSession(db, user.id)
    expect(await resolveSession(cookieOf(fresh.token))).toMatchObject({
      session: { id: fresh.id },
      setCookies: [],
    })
    const old = await sessions.createSession(db, user.id, {}, new Date(Date.now() - 2 * DAY_MS))
    const renewed = await resolveSession(cookieOf(old.token))
    expect(renewed.session?.id).toBe(old.id)
    expect(renewed.setCookies).toEqual([
      expect.stringMatching(/^tw_session=[^;]+; Path=\/; Max-Age=2592000;/),
    ])
  })

  test('no cookie, an expired or a revoked session: signed out, nothing sent', async () => {
    const user = await createUser(db)
    const expired = await sessions.createSession(db, user.id, {}, new Date(Date.now() - 31 * DAY_MS))
    const revoked = await sessions.createSession(db, user.id)
    await sessions.revokeSession(db, user.id, revoked.id)
    for (const cookie of [undefined, cookieOf(expired.token), cookieOf(revoked.token)]) {
      expect(await resolveSession(cookie), String(cookie)).toEqual({ session: null, setCookies: [] })
    }
  })

  test("keeps the time zone the browser reports, writing only when it differs from the person's", async () => {
    const user = await createUser(db)
    const { token } = await sessions.createSession(db, user.id)
    const storedZone = async () => (await db.select().from(users).where(eq(users.id, user.id)))[0]?.timeZone
    const stamp = async () => (await db.select().from(users).where(eq(users.id, user.id)))[0]?.updatedAt

    expect(await storedZone()).toBeNull()
    const first = await resolveSession(`${cookieOf(token)}; tz=Asia%2FTokyo`)
    expect(await storedZone()).toBe('Asia/Tokyo')
    expect(first.session?.timeZone).toBe('Asia/Tokyo')

    // The same zone again writes nothing: the row is untouched.
    const written = await stamp()
    await new Promise((resolve) => setTimeout(resolve, 5))
    await resolveSession(`${cookieOf(token)}; tz=Asia%2FTokyo`)
    expect(await stamp()).toEqual(written)

    // Moved to Los Angeles: kept. A cookie naming no zone, or none at all, keeps what was known.
    await resolveSession(`${cookieOf(token)}; tz=America%2FLos_Angeles`)
    expect(await storedZone()).toBe('America/Los_Angeles')
    for (const cookie of [`${cookieOf(token)}; tz=Mars%2FOlympus`, cookieOf(token)]) {
      expect((await resolveSession(cookie)).session?.id).toBeDefined()
      expect(await storedZone()).toBe('America/Los_Angeles')
    }
  })

  test("a signed-out visitor's zone is stored nowhere", async () => {
    const user = await createUser(db)
    expect(await resolveSession('tz=Asia%2FTokyo')).toEqual({ session: null, setCookies: [] })
    expect((await db.select().from(users).where(eq(users.id, user.id)))[0]?.timeZone).toBeNull()
  })
})
