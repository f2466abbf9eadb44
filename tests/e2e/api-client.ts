import { request as httpRequest } from 'node:http'

/**
 * An HTTP client that reaches the e2e server from an address of its own. The server counts
 * sign-ins and sign-ups per client IP (docs/product-rules.md §2), and every browser of the run is
 * 127.0.0.1: a test that signs up helpers or hammers /login from there would spend the allowance
 * of every other test. Linux routes all of 127.0.0.0/8 to loopback, so binding the socket to
 * 127.x.y.z gives each client a distinct IP while the server still sees a real TCP peer (no
 * forwarding header to trust). It keeps cookies like a browser.
 */

type ClientResponse = {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

export type ApiClient = {
  /** The source address the server sees. */
  ip: string
  cookies: Map<string, string>
  cookieHeader: () => string
  get: (path: string, headers?: Record<string, string>) => Promise<ClientResponse>
  post: (
    path: string,
    body: { form?: Record<string, string>; json?: unknown },
    headers?: Record<string, string>,
  ) => Promise<ClientResponse>
  /** A CSRF token for this client, as /api/csrf gives one (and the tw_anon cookie with it). */
  csrf: () => Promise<string>
}

function randomLoopback() {
  const octet = () => 1 + Math.floor(Math.random() * 254)
  return `127.${octet()}.${octet()}.${octet()}`
}

export function clientFrom(baseURL: string, ip = randomLoopback()): ApiClient {
  const origin = new URL(baseURL)
  const cookies = new Map<string, string>()
  const cookieHeader = () => [...cookies].map(([name, value]) => `${name}=${value}`).join('; ')

  function send(method: string, path: string, headers: Record<string, string>, payload?: string) {
    return new Promise<ClientResponse>((resolve, reject) => {
      const req = httpRequest(
        {
          host: origin.hostname,
          port: origin.port,
          path,
          method,
          localAddress: ip,
          headers: { ...(cookies.size ? { Cookie: cookieHeader() } : {}), ...headers },
        },
        (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('end', () => {
            for (const line of res.headers['set-cookie'] ?? []) {
              const [pair = ''] = line.split(';')
              const index = pair.indexOf('=')
              const name = pair.slice(0, index)
              const value = pair.slice(index + 1)
              if (value === '' || /max-age=0\b/i.test(line)) cookies.delete(name)
              else cookies.set(name, value)
            }
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: Buffer.concat(chunks).toString(),
            })
          })
        },
      )
      req.on('error', reject)
      if (payload !== undefined) req.write(payload)
      req.end()
    })
  }

  const client: ApiClient = {
    ip,
    cookies,
    cookieHeader,
    get: (path, headers = {}) => send('GET', path, headers),
    post: (path, { form, json }, headers = {}) => {
      if (form) {
        return send(
          'POST',
          path,
          { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
          new URLSearchParams(form).toString(),
        )
      }
      return send(
        'POST',
        path,
        { 'Content-Type': 'application/json', ...headers },
        JSON.stringify(json ?? {}),
      )
    },
    csrf: async () => {
      const response = await client.get('/api/csrf')
      return (JSON.parse(response.body) as { csrfToken: string }).csrfToken
    },
  }
  return client
}

/** A new account, made through /api/auth from an address of its own; returns its client, signed in. */
export async function signUpThroughApi(
  baseURL: string,
  account: { name: string; email: string; password: string },
) {
  const client = clientFrom(baseURL)
  const token = await client.csrf()
  const response = await client.post('/api/auth/sign-up/email', { json: account }, { 'x-csrf-token': token })
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${response.body}`)
  return client
}
