// The node:http ceiling of the performance budget: answers each benchmarked request with the exact bytes
// and content type our server sent for it (captured by run.ts into BENCH_RESPONSES), doing no
// other work, so the ratio to it shows what everything above the socket costs.
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

/** @type {Record<string, {contentType: string, body: string, gzip?: string}>} keyed by "METHOD /url" */
const captured = JSON.parse(readFileSync(String(process.env.BENCH_RESPONSES), 'utf8'))
const responses = new Map(
  Object.entries(captured).map(([key, value]) => [
    key,
    {
      contentType: value.contentType,
      body: Buffer.from(value.body, 'base64'),
      gzip: value.gzip ? Buffer.from(value.gzip, 'base64') : undefined,
    },
  ]),
)

const server = createServer((req, res) => {
  const response = responses.get(`${req.method} ${req.url}`)
  if (!response) {
    res.statusCode = 404
    res.end()
    return
  }
  // A POST body is read to the end, as any real handler must before answering.
  req.resume()
  const gzip = response.gzip && String(req.headers['accept-encoding'] ?? '').includes('gzip')
  res.setHeader('Content-Type', response.contentType)
  if (gzip) res.setHeader('Content-Encoding', 'gzip')
  res.end(gzip ? response.gzip : response.body)
})
server.keepAliveTimeout = 65_000
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1', () => {
  console.log(`bare node:http listening on ${process.env.PORT}`)
})
process.once('SIGTERM', () => process.exit(0))
