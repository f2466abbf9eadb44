import { expect, test } from 'vitest'
import { anonymousBrowser, clientContext } from '../../../tests/helpers/auth'
import { buttons, renderRoute } from '../../../tests/helpers/html'
import { callLoader } from '../../../tests/helpers/route'
import Login, { loader } from './login'

/**
 * /login offers passkeys: a "Sign in with a passkey" button, and the e-mail field marked for the
 * browser's passkey autofill. Without JavaScript the button cannot work, so the server's page has
 * it disabled and says why; the e-mail form below works as before.
 */
test('the page offers a passkey, in the e-mail field and as a button that says it needs JavaScript', async () => {
  const page = await callLoader(loader, {
    url: '/login',
    headers: { Cookie: anonymousBrowser().cookie },
    context: clientContext(),
  })
  const html = renderRoute(
    { id: 'routes/auth/login', path: '/login', Component: Login },
    { loaderData: page.data },
  )
  expect(buttons(html)).toContain('Sign in with a passkey')
  expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Sign in with a passkey<\/button>/)
  expect(html).toMatch(/<noscript>[\s\S]*Passkeys need JavaScript/)
  expect(html).toMatch(
    /<input[^>]*autoComplete="username webauthn"[^>]*name="email"|<input[^>]*name="email"[^>]*autoComplete="username webauthn"/,
  )
})
