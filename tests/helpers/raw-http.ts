import { once } from 'node:events'
import { connect } from 'node:net'

/**
 * Speaks HTTP by hand, for requests no HTTP client will send: bad Host headers and targets,
 * TRACE and CONNECT, bodies that never end, headers a byte at a time. Writes the parts `pauseMs`
 * apart and returns everything received until the server closes (or `waitMs` passes).
 */
export async function sendRaw(port: number, parts: string | string[], { pauseMs = 0, waitMs = 3_000 } = {}) {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let received = ''
  socket.setEncoding('latin1')
  socket.on('data', (chunk: string) => {
    received += chunk
  })
  socket.on('error', () => {})
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
  for (const part of Array.isArray(parts) ? parts : [parts]) {
    if (socket.destroyed) break
    socket.write(part)
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs))
  }
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, waitMs))])
  socket.destroy()
  return received
}

/** The status code of a raw HTTP/1.1 answer, or 0 when there was none. */
export function statusOf(response: string) {
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0)
}
