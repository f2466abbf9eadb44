import { renderToString } from 'react-dom/server'
import { createRoutesStub, useLoaderData } from 'react-router'
import { describe, expect, test } from 'vitest'
import type { OAuthProvider } from '~/auth/oauth-providers'
import { OAuthButtons } from './oauth-buttons'

type LoginData = { csrfToken: string; providers: OAuthProvider[]; redirect?: string }

/** A sign-in page as the lead's /login builds it: the loader passes the providers and a CSRF token. */
function LoginPage() {
  const { providers, redirect } = useLoaderData() as LoginData
  return <OAuthButtons providers={providers} redirect={redirect} />
}

function NoFallback() {
  return null
}

function render(providers: OAuthProvider[], redirect?: string) {
  const loaderData: LoginData = { csrfToken: 'token-from-the-loader', providers, redirect }
  const Stub = createRoutesStub([
    {
      id: 'login',
      path: '/login',
      Component: LoginPage,
      HydrateFallback: NoFallback,
      loader: () => loaderData,
    },
  ])
  return renderToString(
    <Stub initialEntries={['/login']} hydrationData={{ loaderData: { login: loaderData } }} />,
  )
}

describe('<OAuthButtons>', () => {
  test('renders a form per configured provider, posting to its start route with the CSRF token and target', () => {
    const html = render(['github', 'google'], '/task')
    expect(html).toContain('Continue with GitHub')
    expect(html).toContain('Continue with Google')
    expect(html.match(/<form[^>]* action="\/login\/github" method="post">/g)).toHaveLength(1)
    expect(html.match(/<form[^>]* action="\/login\/google" method="post">/g)).toHaveLength(1)
    expect(html.match(/name="csrf" value="token-from-the-loader"/g)).toHaveLength(2)
    expect(html.match(/name="redirect" value="\/task"/g)).toHaveLength(2)
  })

  test('a provider left out of the configuration has no button', () => {
    const html = render(['github'])
    expect(html).toContain('Continue with GitHub')
    expect(html).not.toContain('Google')
    expect(html).not.toContain('name="redirect"')
  })

  test('with no provider configured it renders nothing', () => {
    expect(render([])).not.toContain('<form')
  })
})
