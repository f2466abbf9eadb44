import { RouterContextProvider } from 'react-router'
import { describe, expect, test } from 'vitest'
import { nonceContext } from '~/context'
import { toastCookieHeader } from '~/toast.server'
import { callLoader, cookieHeaderFrom } from '../tests/helpers/route'
import { loader } from './root'

describe('root loader', () => {
  test('renders the theme stored in the cookie', async () => {
    const { data } = await callLoader(loader, { headers: { Cookie: 'other=1; theme=dark' } })
    expect(data.theme).toBe('dark')
  })

  test('falls back to the system preference Chromium sends as a client hint', async () => {
    const { data } = await callLoader(loader, { headers: { 'Sec-CH-Prefers-Color-Scheme': '"dark"' } })
    expect(data.theme).toBe('dark')
  })

  test('the stored choice wins over the system preference', async () => {
    const { data } = await callLoader(loader, {
      headers: { Cookie: 'theme=light', 'Sec-CH-Prefers-Color-Scheme': 'dark' },
    })
    expect(data.theme).toBe('light')
  })

  test('leaves the theme to the browser when it knows nothing, or only nonsense', async () => {
    expect((await callLoader(loader)).data.theme).toBeNull()
    const nonsense = await callLoader(loader, {
      headers: { Cookie: 'theme=purple', 'Sec-CH-Prefers-Color-Scheme': 'sepia' },
    })
    expect(nonsense.data.theme).toBeNull()
  })

  test('hands the client its configuration, the CSP nonce, and no user yet', async () => {
    const context = new RouterContextProvider()
    context.set(nonceContext, 'nonce-123')
    const { status, data } = await callLoader(loader, { context })
    expect(status).toBe(200)
    expect(data.nonce).toBe('nonce-123')
    expect(data.user).toBeNull()
    expect(data.config.baseUrl).toBe('http://localhost:3000')
  })

  test('shows a flash toast once, then clears its cookie', async () => {
    const setCookie = await toastCookieHeader({ type: 'success', title: 'Task created' })
    const cookie = cookieHeaderFrom(new Headers({ 'Set-Cookie': setCookie }))

    const first = await callLoader(loader, { headers: { Cookie: cookie } })
    expect(first.data.toast).toMatchObject({ type: 'success', title: 'Task created' })
    const [cleared] = first.headers.getSetCookie()
    expect(cleared).toMatch(/^tw_toast=;/)
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/)

    // The browser applies the clearing cookie, so the next page has no toast.
    const next = await callLoader(loader, { headers: { Cookie: cookieHeaderFrom(first.headers) } })
    expect(next.data.toast).toBeNull()
  })

  test('ignores a forged toast cookie', async () => {
    const forged = `tw_toast=${btoa(JSON.stringify({ toast: { title: 'You won!' } }))}`
    const { data } = await callLoader(loader, { headers: { Cookie: forged } })
    expect(data.toast).toBeNull()
  })
})
