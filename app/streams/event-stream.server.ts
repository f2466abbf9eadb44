import type { ServerResponse } from 'node:http'
import type { LoggedEvent } from '~/events/log.server'

/**
 * One `text/event-stream` response: on a node:http socket when the stream is served ahead of
 * React Router (`EventStream`), or as a Fetch `Response` body when the route serves it
 * (`ResponseEventStream`, with `FAST_PATHS=off`, server/fast-paths.ts). Events go out as the log's frames
 * (`id:` the cursor, `event:` the type, `data:` the payload as JSON); a comment line now and then
 * keeps idle connections and proxies open. A client that stops reading is cut off once its
 * unsent bytes pass a bound, rather than buffered without end: it reconnects with `Last-Event-ID`
 * and loses nothing.
 */

/** What may wait unsent for one slow client: about a thousand events. */
export const MAX_UNSENT_BYTES = 256 * 1024

const frames = new WeakMap<LoggedEvent, Buffer>()

/**
 * The bytes of an event, built once however many streams send it. The audience a deletion
 * carries is for the server to decide with, never sent.
 */
export function frameOf(event: LoggedEvent): Buffer {
  let frame = frames.get(event)
  if (!frame) {
    const { audience: _audience, ...payload } = event.payload
    frame = Buffer.from(`id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(payload)}\n\n`)
    frames.set(event, frame)
  }
  return frame
}

export function controlFrame(type: string, cursor: number, data: Record<string, unknown> = {}) {
  return Buffer.from(`id: ${cursor}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`)
}

const chunks = new WeakMap<Buffer, Buffer>()

/** A frame as one chunk of HTTP/1.1 chunked encoding, also built once however many streams send it. */
function chunkOf(frame: Buffer): Buffer {
  let chunk = chunks.get(frame)
  if (!chunk) {
    chunk = Buffer.concat([Buffer.from(`${frame.length.toString(16)}\r\n`), frame, Buffer.from('\r\n')])
    chunks.set(frame, chunk)
  }
  return chunk
}

const KEEP_ALIVE = Buffer.from(': keep-alive\n\n')

/** What a feed writes to (app/streams/feeds.server.ts), whichever way the stream is served. */
export type EventSink = {
  readonly isClosed: boolean
  send(frame: Buffer): void
  keepAlive(): void
  end(): void
}

/** The headers every stream opens with: no compression, no proxy buffering. */
const EVENT_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  'X-Accel-Buffering': 'no',
}

const retryFrame = (retryMs: number) => `retry: ${retryMs}\n\n`

export class EventStream implements EventSink {
  #res: ServerResponse
  #retryMs: number
  #isClosed = false

  constructor(res: ServerResponse, { retryMs }: { retryMs: number }) {
    this.#res = res
    this.#retryMs = retryMs
    res.once('close', () => {
      this.#isClosed = true
    })
  }

  get isClosed() {
    return this.#isClosed
  }

  /** Sends the headers at once (and any cookie the session's lookup renewed) and the reconnect delay. */
  open(setCookies: string[] = []) {
    this.#res.socket?.setNoDelay(true)
    if (setCookies.length > 0) this.#res.appendHeader('Set-Cookie', setCookies)
    this.#res.writeHead(200, EVENT_STREAM_HEADERS)
    this.#res.write(retryFrame(this.#retryMs))
  }

  /**
   * Once the headers are out, a frame goes straight to the socket as a ready-made chunk: the
   * response's own write() re-frames every chunk for every stream, which at 10,000 streams is
   * most of the time it takes to fan an event out. HTTP/1.0 clients (no chunking) take the
   * ordinary path.
   */
  send(frame: Buffer) {
    if (this.#isClosed) return
    const socket = this.#res.socket
    if (socket && this.#res.chunkedEncoding) socket.write(chunkOf(frame))
    else this.#res.write(frame)
    if ((socket?.writableLength ?? 0) + this.#res.writableLength > MAX_UNSENT_BYTES) this.#cutOff()
  }

  keepAlive() {
    this.send(KEEP_ALIVE)
  }

  /** Ends the stream: the client reconnects after its retry delay. */
  end() {
    if (this.#isClosed) return
    this.#isClosed = true
    this.#res.end()
  }

  /** A client too slow to read: tell it when to come back, then drop the socket without waiting. */
  #cutOff() {
    this.#isClosed = true
    this.#res.end(`: too far behind, reconnect\nretry: ${this.#retryMs}\n\n`)
    this.#res.destroy()
  }
}

/**
 * A stream as a Fetch `Response` body, for the route (app/routes/api/events.ts): the same frames,
 * the same bound on what may wait unsent for a slow client. It ends when the client leaves (the
 * request's signal) or the server's writer stops reading.
 */
export class ResponseEventStream implements EventSink {
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined
  #isClosed = false
  #retryMs: number
  #onClose: () => void = () => {}
  readonly response: Response

  constructor({ retryMs, signal }: { retryMs: number; signal: AbortSignal }) {
    this.#retryMs = retryMs
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller
          controller.enqueue(Buffer.from(retryFrame(retryMs)))
        },
        cancel: () => this.#closed(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: MAX_UNSENT_BYTES }),
    )
    this.response = new Response(body, { status: 200, headers: EVENT_STREAM_HEADERS })
    if (signal.aborted) this.#closed()
    else signal.addEventListener('abort', () => this.end(), { once: true })
  }

  get isClosed() {
    return this.#isClosed
  }

  /** Called once when the stream ends, however it ends. */
  onClose(callback: () => void) {
    this.#onClose = callback
    if (this.#isClosed) callback()
  }

  send(frame: Buffer) {
    if (this.#isClosed || !this.#controller) return
    this.#controller.enqueue(frame)
    if ((this.#controller.desiredSize ?? 0) < 0) this.#cutOff()
  }

  keepAlive() {
    this.send(KEEP_ALIVE)
  }

  end() {
    if (this.#isClosed) return
    this.#controller?.close()
    this.#closed()
  }

  /** A client too slow to read: nothing more is queued for it; it reconnects once it reads the end. */
  #cutOff() {
    this.#controller?.enqueue(Buffer.from(`: too far behind, reconnect\nretry: ${this.#retryMs}\n\n`))
    this.end()
  }

  #closed() {
    if (this.#isClosed) return
    this.#isClosed = true
    this.#onClose()
  }
}
