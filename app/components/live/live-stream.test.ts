import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { type EventSourceLike, type LiveEvent, openLiveStream, type StreamStatus } from './live-stream'

/** An EventSource the test drives: it records its URL and lets the test deliver events and errors. */
class FakeSource implements EventSourceLike {
  static opened: FakeSource[] = []
  readyState = 0
  onerror: ((event: Event) => void) | null = null
  listeners = new Map<string, (event: MessageEvent<string>) => void>()
  isClosed = false
  constructor(readonly url: string) {
    FakeSource.opened.push(this)
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener)
  }
  close() {
    this.isClosed = true
    this.readyState = 2
  }
  emit(type: string, id: number, data: unknown = {}) {
    this.readyState = 1
    this.listeners.get(type)?.(
      new MessageEvent(type, { data: JSON.stringify(data), lastEventId: String(id) }),
    )
  }
  fail({ isGivenUp }: { isGivenUp: boolean }) {
    this.readyState = isGivenUp ? 2 : 0
    this.onerror?.(new Event('error'))
  }
}

let statuses: StreamStatus[]
let received: LiveEvent[]

beforeEach(() => {
  vi.useFakeTimers()
  FakeSource.opened = []
  statuses = []
  received = []
})
afterEach(() => vi.useRealTimers())

function open(after: number | null) {
  return openLiveStream('/api/events/tasks', {
    types: ['task-updated'],
    after,
    onEvent: (event) => received.push(event),
    onStatus: (status) => statuses.push(status),
    createSource: (url) => new FakeSource(url),
  })
}

test('starts after the page’s cursor, is live once the server is ready, and hands on events', () => {
  open(41)
  const source = FakeSource.opened[0]
  expect(source?.url).toBe('/api/events/tasks?after=41')
  source?.emit('ready', 41)
  source?.emit('task-updated', 42, { taskId: 't' })
  expect(statuses).toEqual(['live'])
  expect(received).toEqual([{ id: 42, type: 'task-updated', data: { taskId: 't' } }])
})

test('pauses while the browser reconnects by itself, and is live again when it has', () => {
  open(null)
  const source = FakeSource.opened[0]
  source?.emit('ready', 5)
  source?.fail({ isGivenUp: false })
  expect(statuses).toEqual(['live', 'paused'])
  vi.advanceTimersByTime(60_000)
  expect(FakeSource.opened).toHaveLength(1)
  source?.emit('ready', 5)
  expect(statuses).toEqual(['live', 'paused', 'live'])
})

test('when the browser gives up, opens a new stream after a growing wait, from the last event seen', () => {
  const stream = open(null)
  FakeSource.opened[0]?.emit('ready', 7)
  FakeSource.opened[0]?.emit('task-updated', 9)
  FakeSource.opened[0]?.fail({ isGivenUp: true })
  vi.advanceTimersByTime(999)
  expect(FakeSource.opened).toHaveLength(1)
  vi.advanceTimersByTime(1)
  expect(FakeSource.opened[1]?.url).toBe('/api/events/tasks?after=9')
  FakeSource.opened[1]?.fail({ isGivenUp: true })
  vi.advanceTimersByTime(1999)
  expect(FakeSource.opened).toHaveLength(2)
  vi.advanceTimersByTime(1)
  expect(FakeSource.opened).toHaveLength(3)
  stream.close()
  FakeSource.opened[2]?.fail({ isGivenUp: true })
  expect(FakeSource.opened[2]?.isClosed).toBe(true)
})

test('a reset is handed on, so the page reloads what it shows', () => {
  open(3)
  FakeSource.opened[0]?.emit('reset', 50)
  expect(statuses).toEqual(['live'])
  expect(received).toEqual([{ id: 50, type: 'reset', data: {} }])
})

test('without EventSource in the browser, it says updates are paused, so the page polls', () => {
  const original = globalThis.EventSource
  Reflect.deleteProperty(globalThis, 'EventSource')
  try {
    const statuses: StreamStatus[] = []
    const stream = openLiveStream('/api/events/tasks', {
      types: [],
      after: null,
      onEvent: () => {},
      onStatus: (status) => statuses.push(status),
    })
    expect(statuses).toEqual(['paused'])
    stream.close()
  } finally {
    if (original) globalThis.EventSource = original
  }
})
