import { createServer } from 'node:net'

/**
 * A loopback port nobody listens on right now: the kernel picks it, we release it for the server
 * about to start. Another process could take it in between; on a test machine that is rare
 * enough, and the server's own bind error then says so.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('No free port')),
      )
    })
  })
}
