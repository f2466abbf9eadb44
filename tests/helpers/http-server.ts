import { once } from 'node:events'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'

export type FetchHandler = (request: Request) => Response | Promise<Response>

export type TestServer = {
  /** `http://127.0.0.1:<port>`, a port the OS picked, so parallel files never collide. */
  origin: string
  close: () => Promise<void>
}

/**
 * Serves a fetch-style handler over real HTTP on a free port, so clients that only speak HTTP
 * (`@orpc/client`'s RPCLink, `fetch`, an EventSource) can be tested against app code without a
 * build. Bodies stream both ways, so long-lived responses (server-sent events) work too.
 */
export async function serveFetch(handler: FetchHandler): Promise<TestServer> {
  const server = createServer((req, res) => {
    void respond(handler, req, res)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}

async function respond(handler: FetchHandler, req: IncomingMessage, res: ServerResponse) {
  const aborted = new AbortController()
  res.once('close', () => aborted.abort())
  try {
    const response = await handler(toRequest(req, aborted.signal))
    const headers: Record<string, string | string[]> = {}
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie') headers[name] = value
    })
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) headers['set-cookie'] = cookies
    res.writeHead(response.status, response.statusText, headers)
    if (!response.body) return void res.end()
    Readable.fromWeb(response.body as NodeReadableStream).pipe(res)
  } catch (error) {
    // The handler crashed: answer like a server would, and keep the cause visible in the test log.
    console.error(error)
    if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain' })
    res.end('Internal Server Error')
  }
}

function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`)
  const headers = new Headers()
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    headers.append(req.rawHeaders[i] as string, req.rawHeaders[i + 1] as string)
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD'
  return new Request(url, {
    method: req.method,
    headers,
    signal,
    body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
    // Required by undici for streamed request bodies.
    ...(hasBody ? { duplex: 'half' } : {}),
  } as RequestInit)
}
