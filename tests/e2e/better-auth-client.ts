import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { CONTRACT_DIR } from './better-auth-client.setup'

/**
 * The real better-auth client (installed by better-auth-client.setup.ts), made to behave like a
 * browser against the running app: it keeps cookies and sends the CSRF token the app hands out at
 * /api/csrf as `x-csrf-token`. `refreshCsrf` takes a new token after each change of session, as a
 * page would with its next render.
 */

export type Result<Data = unknown> = { data: Data; error: { status: number; message?: string } | null }
type Call = (input?: Record<string, unknown>) => Promise<Result>

export type Client = {
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
  verifyEmail: (input: { query: { token: string } }) => Promise<Result>
  revokeOtherSessions: () => Promise<Result>
  deleteUser: (input: { password: string }) => Promise<Result>
  twoFactor: {
    enable: (input: { password: string }) => Promise<Result>
    verifyTotp: (input: { code: string }) => Promise<Result>
    verifyBackupCode: (input: { code: string }) => Promise<Result>
  }
  organization: Record<
    | 'create'
    | 'list'
    | 'setActive'
    | 'getFullOrganization'
    | 'update'
    | 'delete'
    | 'inviteMember'
    | 'acceptInvitation'
    | 'rejectInvitation'
    | 'cancelInvitation'
    | 'listInvitations'
    | 'getInvitation'
    | 'removeMember'
    | 'updateMemberRole'
    | 'leave'
    | 'getActiveMember',
    Call
  >
}

type Plugins = {
  twoFactorClient: (options?: unknown) => unknown
  organizationClient: (options?: unknown) => unknown
}

async function importContract<Module>(path: string) {
  return (await import(
    pathToFileURL(join(CONTRACT_DIR, 'node_modules/better-auth/dist', path)).href
  )) as Module
}

/** The client with no cookie jar and no token: what a page on another site would have. */
export async function bareClient(baseURL: string) {
  const module = await importContract<{ createAuthClient: (options: unknown) => Client }>('client/index.mjs')
  return module.createAuthClient({ baseURL: `${baseURL}/api/auth` })
}

export async function authClient(baseURL: string, { withTwoFactor = false, withOrganization = false } = {}) {
  const module = await importContract<{ createAuthClient: (options: unknown) => Client }>('client/index.mjs')
  const plugins = await importContract<Plugins>('client/plugins/index.mjs')
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
  const refreshCsrf = async () => {
    csrf = ''
    const response = await browserLikeFetch(`${baseURL}/api/csrf`)
    csrf = ((await response.json()) as { csrfToken: string }).csrfToken
  }
  const client = module.createAuthClient({
    baseURL: `${baseURL}/api/auth`,
    fetchOptions: { customFetchImpl: browserLikeFetch },
    plugins: [
      ...(withTwoFactor ? [plugins.twoFactorClient({ onTwoFactorRedirect: () => {} })] : []),
      ...(withOrganization ? [plugins.organizationClient()] : []),
    ],
  })
  await refreshCsrf()
  return { client, refreshCsrf }
}
