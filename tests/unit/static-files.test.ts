import { createReadStream } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { expect, test } from 'vitest'
import { endOnReadError } from '../../server/static-read-errors'

/**
 * A static file that disappears between sirv's lookup and its read (a rebuild under a running
 * server) ends that one response, not the process.
 */
test('a file stream that fails mid-response ends the response and the server lives on', async () => {
  const server = createServer((req, res) => {
    endOnReadError(res)
    res.writeHead(200, { 'Content-Type': 'text/javascript' })
    // What sirv does, with a file that is no longer there.
    createReadStream(`/nonexistent/${req.url}`).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    await expect(fetch(`http://127.0.0.1:${port}/gone.js`).then((r) => r.text())).rejects.toThrow()
    // Still serving: the next request gets an answer (and fails the same contained way).
    await expect(fetch(`http://127.0.0.1:${port}/again.js`).then((r) => r.text())).rejects.toThrow()
  } finally {
    server.close()
  }
})

test('before any header went out, the failure is a plain 404', async () => {
  const server = createServer((req, res) => {
    endOnReadError(res)
    createReadStream(`/nonexistent/${req.url}`).pipe(res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  try {
    expect((await fetch(`http://127.0.0.1:${port}/gone.js`)).status).toBe(404)
  } finally {
    server.close()
  }
})
