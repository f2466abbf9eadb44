import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { bodyLimit } from '../../server/body-limits'
import { createListener } from '../../server/listener'

export type FetchHandler = (request: Request) => Response | Promise<Response>

export type TestServer = {
  /** `http://127.0.0.1:<port>`, a port the OS picked, so parallel files never collide. */
  origin: string
  close: () => Promise<void>
}

/**
 * Serves a fetch-style handler over real HTTP on a free port, so clients that only speak HTTP
 * (`@orpc/client`'s RPCLink, `fetch`, an EventSource) can be tested against app code without a
 * build, through the production server's own adapter (server/listener.ts), so body limits and
 * error handling are the real ones. Responses stream, so long-lived ones (server-sent events) work.
 */
export async function serveFetch(handler: FetchHandler): Promise<TestServer> {
  const listener = createListener({
    publicOrigin: new URL('http://127.0.0.1'),
    trustProxy: false,
    bodyLimit,
    handle: async (request) => handler(request),
    // The handler crashed: the listener answers 500; keep the cause visible in the test log.
    log: (message, error) => console.error(message, error),
  })
  return listening(createServer(listener))
}

/** Listens on a free port of 127.0.0.1; closing ends every connection first. */
export async function listening(server: Server): Promise<TestServer> {
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
