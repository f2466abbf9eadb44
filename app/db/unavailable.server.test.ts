import { describe, expect, test } from 'vitest'
import { isDatabaseUnavailable, unavailableResponse } from './unavailable.server'

/** The shapes the drivers give a database out of reach, as seen against a killed sqld. */
const refused = () =>
  new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) })

describe('isDatabaseUnavailable', () => {
  test('knows a server that refuses, times out, or a replica whose primary is gone, however wrapped', () => {
    expect(isDatabaseUnavailable(refused())).toBe(true)
    expect(isDatabaseUnavailable(new Error('Failed query: insert …', { cause: refused() }))).toBe(true)
    expect(isDatabaseUnavailable(new DOMException('The operation timed out', 'TimeoutError'))).toBe(true)
    expect(
      isDatabaseUnavailable(new Error('WriteDelegation(status: Unavailable, message: "tcp connect error")')),
    ).toBe(true)
    expect(isDatabaseUnavailable(new Error('Replication(PrimaryHandshakeTimeout)'))).toBe(true)
  })

  test('knows a database still locked by other writers once the request has waited its turn', () => {
    const busy = Object.assign(new Error('SQLITE_BUSY: database is locked'), { code: 'SQLITE_BUSY' })
    expect(isDatabaseUnavailable(new Error('Failed query: insert …', { cause: busy }))).toBe(true)
    expect(isDatabaseUnavailable(Object.assign(new Error('locked'), { code: 'SQLITE_BUSY_SNAPSHOT' }))).toBe(
      true,
    )
  })

  test('leaves bugs and refusals of the data itself alone', () => {
    expect(isDatabaseUnavailable(new Error('SQLITE_CONSTRAINT: FOREIGN KEY constraint failed'))).toBe(false)
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    )
    expect(isDatabaseUnavailable('a string')).toBe(false)
  })
})

test('the 503 says when to come back: JSON under /api/, a line of text elsewhere', async () => {
  const api = unavailableResponse(new Request('http://localhost/api/rpc/task/create'))
  expect(api.status).toBe(503)
  expect(api.headers.get('Retry-After')).toBe('5')
  expect(await api.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' })
  const page = unavailableResponse(new Request('http://localhost/tasks'))
  expect(page.headers.get('Content-Type')).toContain('text/plain')
})
