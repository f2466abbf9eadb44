import { EventSource } from 'eventsource'

/**
 * Clients of the event streams for tests: a real `EventSource` (the `eventsource` package, as
 * Node 20 has none) for what browsers do, and a raw reader for what EventSource hides (comment
 * lines, the stream's end, a chosen `Last-Event-ID`).
 */

export type StreamEvent = { id: number; type: string; data: Record<string, unknown> }

const EVENT_TYPES = [
  'ready',
  'reset',
  'gone',
  'task-created',
  'task-updated',
  'task-deleted',
  'task-status-changed',
  'comment-added',
  'comment-updated',
  'comment-deleted',
  'reaction-changed',
  'mention',
  'access-changed',
]

/** Waits until `received` holds an item `isWanted` accepts, or fails after `timeoutMs`. */
async function waitFor<T>(received: T[], isWanted: (item: T) => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const found = received.find(isWanted)
    if (found) return found
    if (Date.now() > deadline)
      throw new Error(`Timed out waiting for ${what}; got ${JSON.stringify(received)}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export function openEventSource(url: string, cookie?: string) {
  const received: StreamEvent[] = []
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...init.headers, ...(cookie ? { Cookie: cookie } : {}) } }),
  })
  for (const type of EVENT_TYPES) {
    source.addEventListener(type, (event) => {
      received.push({ id: Number(event.lastEventId), type, data: JSON.parse(event.data) })
    })
  }
  return {
    source,
    received,
    /** The events other than `ready`, in the order they arrived. */
    changes: () => received.filter((event) => event.type !== 'ready'),
    waitFor: (type: string, isWanted: (event: StreamEvent) => boolean = () => true, timeoutMs = 3000) =>
      waitFor(received, (event) => event.type === type && isWanted(event), timeoutMs, type),
    close: () => source.close(),
  }
}

/** A stream read by hand: every frame, comment lines included, until it ends or is aborted. */
export async function readRawStream(
  url: string,
  { cookie, lastEventId }: { cookie?: string; lastEventId?: number } = {},
) {
  const controller = new AbortController()
  const headers: Record<string, string> = { Accept: 'text/event-stream' }
  if (cookie) headers.Cookie = cookie
  if (lastEventId !== undefined) headers['Last-Event-ID'] = String(lastEventId)
  const response = await fetch(url, { headers, signal: controller.signal })
  const frames: string[] = []
  const events: StreamEvent[] = []
  const ended = (async () => {
    if (!response.body) return
    const decoder = new TextDecoder()
    let buffered = ''
    try {
      for await (const chunk of response.body) {
        buffered += decoder.decode(chunk, { stream: true })
        let end = buffered.indexOf('\n\n')
        while (end !== -1) {
          const frame = buffered.slice(0, end)
          buffered = buffered.slice(end + 2)
          frames.push(frame)
          const event = parseFrame(frame)
          if (event) events.push(event)
          end = buffered.indexOf('\n\n')
        }
      }
    } catch (error) {
      if (!controller.signal.aborted) throw error
    }
  })()
  return {
    response,
    frames,
    events,
    ended,
    waitFor: (type: string, isWanted: (event: StreamEvent) => boolean = () => true, timeoutMs = 3000) =>
      waitFor(events, (event) => event.type === type && isWanted(event), timeoutMs, type),
    waitForFrame: (isWanted: (frame: string) => boolean, timeoutMs = 3000) =>
      waitFor(frames, isWanted, timeoutMs, 'a frame'),
    abort: () => controller.abort(),
  }
}

function parseFrame(frame: string): StreamEvent | null {
  const fields = new Map<string, string>()
  for (const line of frame.split('\n')) {
    if (line.startsWith(':')) continue
    const colon = line.indexOf(':')
    fields.set(line.slice(0, colon), line.slice(colon + 1).trimStart())
  }
  const data = fields.get('data')
  if (data === undefined) return null
  return { id: Number(fields.get('id')), type: fields.get('event') ?? 'message', data: JSON.parse(data) }
}
