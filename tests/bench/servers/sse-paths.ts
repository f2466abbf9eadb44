/**
 * The two ways to serve an event stream, without the app around them, for
 * `npx tsx tests/bench/run.ts --sse-paths` (docs/decisions/023-event-streams-ahead-of-the-router.md):
 *
 * - `route`: what a React Router resource route does: a Fetch `Request` per connection and a
 *   `Response` with a `ReadableStream` body, piped to the socket by our request adapter
 *   (server/listener.ts), which is what serves every route module;
 * - `direct`: a node:http response written to as events come, as the stream door does (app/streams/event-streams.server.ts).
 *
 * `GET /stream` subscribes (`event: ready` first); `POST /emit` sends one event to every
 * subscriber. Run: `node --import tsx tests/bench/servers/sse-paths.ts route|direct` with PORT.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createListener } from '../../../server/listener'

const path = process.argv[2]
if (path !== 'route' && path !== 'direct') throw new Error('usage: sse-paths.ts route|direct')
const port = Number(process.env.PORT)

const HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  'X-Accel-Buffering': 'no',
}
const subscribers = new Set<(frame: Uint8Array) => void>()
let lastId = 0
const ready = Buffer.from('retry: 3000\n\nid: 0\nevent: ready\ndata: {}\n\n')

function emit() {
  lastId += 1
  const frame = Buffer.from(
    `id: ${lastId}\nevent: task-status-changed\ndata: {"taskId":"t","newStatus":"Completed"}\n\n`,
  )
  for (const send of subscribers) send(frame)
}

function direct(req: IncomingMessage, res: ServerResponse) {
  if (req.method === 'POST') {
    emit()
    return res.writeHead(204).end()
  }
  res.writeHead(200, HEADERS)
  res.write(ready)
  const send = (frame: Uint8Array) => res.write(frame)
  subscribers.add(send)
  res.once('close', () => subscribers.delete(send))
}

const route = createListener({
  publicOrigin: new URL(`http://127.0.0.1:${port}`),
  trustProxy: false,
  bodyLimit: () => 64 * 1024,
  async handle(request) {
    if (request.method === 'POST') {
      emit()
      return new Response(null, { status: 204 })
    }
    let send: ((frame: Uint8Array) => void) | undefined
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(ready)
        send = (frame) => controller.enqueue(frame)
        subscribers.add(send)
      },
      cancel() {
        if (send) subscribers.delete(send)
      },
    })
    request.signal.addEventListener('abort', () => send && subscribers.delete(send))
    return new Response(body, { headers: HEADERS })
  },
})

createServer(path === 'route' ? route : direct).listen(port, '127.0.0.1', () => {
  console.log(`sse-paths (${path}) listening on ${port}`)
})
