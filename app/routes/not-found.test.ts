import { describe, expect, test } from 'vitest'
import { env } from '~/env.server'
import { callAction, callLoader } from '../../tests/helpers/route'
import { action, loader } from './not-found'

describe('not-found route', () => {
  test('throws a real 404 that the error boundary renders', async () => {
    const result = await callLoader(loader, { url: '/no/such/page', params: { '*': 'no/such/page' } })
    expect(result).toMatchObject({ thrown: true, status: 404, data: { backHref: '/' } })
  })

  test('offers a way back to the same-origin page the visitor came from', async () => {
    const result = await callLoader(loader, {
      url: '/no/such/page',
      headers: { Referer: `${env().BASE_URL}/docs/intro?section=2` },
    })
    expect(result.status).toBe(404)
    expect(result.data).toEqual({ backHref: '/docs/intro?section=2' })
  })

  test.each([
    ['another site', 'https://evil.example/phish'],
    ['the missing page itself', `${env().BASE_URL}/no/such/page`],
    ['a path a browser would read as another host', `${env().BASE_URL}/.//evil.example/x`],
    ['a malformed referer', 'not a url'],
  ])('falls back to home when the referer is %s', async (_label, referer) => {
    const result = await callLoader(loader, { url: '/no/such/page', headers: { Referer: referer } })
    expect(result.data).toEqual({ backHref: '/' })
  })

  test('a form posted to a missing page is a 404 too', async () => {
    const result = await callAction(action, { url: '/no/such/page', form: { anything: '1' } })
    expect(result).toMatchObject({ thrown: true, status: 404 })
  })
})
