import type { ServerResponse } from 'node:http'
import type { LoggedEvent } from '~/events/log.server'

/**
 * One `text/event-stream` response on a node:http socket. Events go out as the log's frames
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

export class EventStream {
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

  /** Sends the headers at once (no compression, no proxy buffering) and the reconnect delay. */
  open() {
    this.#res.socket?.setNoDelay(true)
    this.#res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    })
    this.#res.write(`retry: ${this.#retryMs}\n\n`)
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
