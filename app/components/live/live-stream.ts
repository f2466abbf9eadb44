import { useMatches } from 'react-router'
import { retryDelay } from '~/utils/polling'

/**
 * A browser's end of an event stream: an `EventSource` with the event types it listens for, and
 * whether updates are live. The browser reconnects by itself after a dropped connection (sending
 * `Last-Event-ID`, so nothing is lost); when it gives up (the server answered an error, or is
 * gone), this opens a new one after a growing wait, resuming with `?after=` from the last event
 * it saw. Meanwhile the callers poll, as they did before streams.
 */

/** `connecting` until the server says the stream is ready; `paused` while it is down. */
export type StreamStatus = 'connecting' | 'live' | 'paused'

export type LiveEvent = { id: number; type: string; data: Record<string, unknown> }

/** What the stream needs of the browser's `EventSource`, so tests can stand in for it. */
export type EventSourceLike = {
  readonly readyState: number
  onerror: ((event: Event) => void) | null
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void
  close(): void
}
export type EventSourceFactory = (url: string) => EventSourceLike

const CLOSED = 2

export function openLiveStream(
  url: string,
  options: {
    types: readonly string[]
    /** The cursor the page's data was read at: events after it are sent first. */
    after: number | null
    onEvent: (event: LiveEvent) => void
    onStatus: (status: StreamStatus) => void
    createSource?: EventSourceFactory
  },
) {
  const { types, after, onEvent, onStatus, createSource = (target) => new EventSource(target) } = options
  let cursor = after
  let failures = 0
  let source: EventSourceLike | null = null
  let reopenTimer: ReturnType<typeof setTimeout> | undefined

  function connect() {
    const target = new URL(url, 'http://localhost')
    if (cursor !== null) target.searchParams.set('after', String(cursor))
    const opened = createSource(`${target.pathname}${target.search}`)
    source = opened
    const receive = (type: string) => (message: MessageEvent<string>) => {
      const { data, lastEventId } = message
      if (lastEventId) cursor = Number(lastEventId)
      if (type === 'ready' || type === 'reset') {
        failures = 0
        onStatus('live')
        if (type === 'ready') return
      }
      onEvent({ id: Number(lastEventId), type, data: data ? JSON.parse(data) : {} })
    }
    for (const type of ['ready', 'reset', ...types]) opened.addEventListener(type, receive(type))
    opened.onerror = () => {
      onStatus('paused')
      if (opened.readyState !== CLOSED) return
      failures += 1
      reopenTimer = setTimeout(connect, retryDelay(failures))
    }
  }

  // A browser without EventSource (or one a test took away) polls, as when the stream is down.
  if (typeof EventSource === 'undefined' && !options.createSource) onStatus('paused')
  else connect()
  return {
    close() {
      clearTimeout(reopenTimer)
      source?.close()
    },
  }
}

/** The event-log cursor the page's data was read at (the root loader's), if it read one. */
export function useEventCursor(): number | null {
  const matches = useMatches()
  for (const match of matches) {
    const data = match.loaderData
    if (data && typeof data === 'object' && 'eventCursor' in data && typeof data.eventCursor === 'number') {
      return data.eventCursor
    }
  }
  return null
}
