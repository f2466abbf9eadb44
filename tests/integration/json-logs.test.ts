import { once } from 'node:events'
import { mkdirSync, mkdtempSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { env } from '~/env.server'
import { setLogFormat } from '~/utils/log.server'
import { carryRequestInfo } from '~/utils/request-info.server'
import { createApp } from '../../server/app'
import { anonymousBrowser } from '../helpers/auth'
import { createUser, TEST_PASSWORD } from '../helpers/factories'

/**
 * `LOG_FORMAT=json` as a log pipeline reads it (docs/decisions/044-metrics-traces-and-structured-logs.md):
 * the whole server answers a sign-in and what follows it, and every line written to stdout or
 * stderr must be one JSON object with its request's id — the one echoed in the response — and
 * never the password, the session cookie or a URL's token.
 */

const written: string[] = []
let restore: () => void
let server: Server
let origin: string

beforeAll(async () => {
  for (const stream of [process.stdout, process.stderr]) {
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk))
      return true
    })
  }
  // As start-up does with LOG_FORMAT=json (server/app.ts).
  restore = setLogFormat('json')
  carryRequestInfo()
  const clientDir = mkdtempSync(join(tmpdir(), 'threadwork-client-'))
  mkdirSync(join(clientDir, 'assets'))
  server = createServer(createApp({ ...env(), LOG_REQUESTS: true }, { clientDir }))
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(() => {
  restore()
  vi.restoreAllMocks()
  server.closeAllConnections()
  server.close()
})

type Line = { time: string; level: string; msg: string; requestId?: string; route?: string; userId?: string }

/** Every line written so far, each parsed: one that is not a JSON object fails the test. */
function lines(): Line[] {
  return written
    .join('')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const parsed = JSON.parse(line) as Line
      expect(typeof parsed).toBe('object')
      expect(parsed.time).toMatch(/^\d{4}-\d\d-\d\dT/)
      expect(['debug', 'info', 'warn', 'error']).toContain(parsed.level)
      expect(typeof parsed.msg).toBe('string')
      return parsed
    })
}

async function lineOf(requestId: string) {
  await expect.poll(() => lines().filter((line) => line.requestId === requestId).length).toBeGreaterThan(0)
  return lines().filter((line) => line.requestId === requestId)
}

describe('JSON logs', () => {
  test('a sign-in: every line parses, carries the request id of the response, and no secret', async () => {
    const user = await createUser(database(), { name: 'Grace Logs' })
    const browser = anonymousBrowser()
    const signIn = await fetch(`${origin}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: browser.cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ csrf: browser.csrf, email: user.email, password: TEST_PASSWORD }),
    })
    expect(signIn.status).toBe(302)
    const signInId = signIn.headers.get('X-Request-Id') as string
    expect(signInId).toMatch(/^[\w-]{36}$/)
    const session = /tw_session=([^;]+)/.exec(signIn.headers.get('Set-Cookie') ?? '')?.[1] as string
    expect(session).toBeTruthy()

    const [request] = await lineOf(signInId)
    expect(request).toMatchObject({ level: 'info', route: '/login', status: 302, method: 'POST' })
    expect(typeof (request as { duration?: unknown }).duration).toBe('number')

    // Signed in: the next request's line names the person; a client's own id is kept when safe.
    const next = await fetch(`${origin}/api/csrf`, {
      headers: { Cookie: `${SESSION_COOKIE}=${session}`, 'X-Request-Id': 'client-chosen.id:42' },
    })
    expect(next.headers.get('X-Request-Id')).toBe('client-chosen.id:42')
    const [signedIn] = await lineOf('client-chosen.id:42')
    expect(signedIn).toMatchObject({ route: '/api/csrf', userId: user.id })

    // An unsafe one is replaced, never written.
    const unsafe = await fetch(`${origin}/healthz`, {
      headers: { 'X-Request-Id': 'evil", "level": "x" <script>' },
    })
    expect(unsafe.headers.get('X-Request-Id')).toMatch(/^[\w-]{36}$/)

    // A link's token never reaches the log.
    const link = await fetch(`${origin}/healthz?token=reset-secret-123&x=1`)
    const [linked] = await lineOf(link.headers.get('X-Request-Id') as string)
    expect(linked?.msg).toContain('token=[redacted]')

    const all = written.join('')
    expect(all).not.toContain(TEST_PASSWORD)
    expect(all).not.toContain(encodeURIComponent(TEST_PASSWORD))
    expect(all).not.toContain(session)
    expect(all).not.toContain(decodeURIComponent(session))
    expect(all).not.toContain('reset-secret-123')
    expect(all).not.toContain('evil')
    for (const line of lines()) expect(line.level).not.toBe('x')
  })

  test("the app's own console calls are JSON lines, an error with its name and message", async () => {
    console.error('Something failed', new Error('with its reason'))
    const [line] = lines().filter((each) => each.msg === 'Something failed')
    expect(line).toMatchObject({ level: 'error', error: { name: 'Error', message: 'with its reason' } })
  })
})
