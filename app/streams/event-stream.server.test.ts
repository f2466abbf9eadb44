import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { expect, test } from 'vitest'
import {
  type EventSink,
  EventStream,
  frameOf,
  MAX_UNSENT_BYTES,
  ResponseEventStream,
} from './event-stream.server'

/** A response whose client never reads: every byte written stays unsent. */
function stalledResponse() {
  const res = Object.assign(new EventEmitter(), {
    writableLength: 0,
    written: [] as string[],
    isDestroyed: false,
    writeHead: () => res,
    write(chunk: Buffer | string) {
      res.written.push(String(chunk))
      res.writableLength += chunk.length
      return false
    },
    end(chunk?: string) {
      if (chunk) res.written.push(chunk)
    },
    destroy() {
      res.isDestroyed = true
      res.emit('close')
    },
  })
  return res
}

const frame = frameOf({ id: 1, topic: 'tasks', type: 'task-updated', taskId: 't', payload: { taskId: 't' } })

/** Sends the same frame to a client that never reads, until the stream cuts it off; how many went. */
function sendUntilCutOff(stream: EventSink) {
  let sent = 0
  while (!stream.isClosed && sent < 100_000) {
    stream.send(frame)
    sent += 1
  }
  return sent
}

test('a client that stops reading is cut off with a retry hint once its unsent bytes pass the bound', () => {
  const res = stalledResponse()
  const stream = new EventStream(res as unknown as ServerResponse, { retryMs: 3000 })
  stream.open()
  sendUntilCutOff(stream)
  expect(res.isDestroyed).toBe(true)
  expect(res.writableLength).toBeGreaterThan(MAX_UNSENT_BYTES)
  expect(res.writableLength).toBeLessThan(MAX_UNSENT_BYTES + frame.length * 2)
  expect(res.written.at(-1)).toBe(': too far behind, reconnect\nretry: 3000\n\n')
  // Nothing more is written to a stream that was cut off.
  const count = res.written.length
  stream.send(frame)
  expect(res.written).toHaveLength(count)
})

test('an event is framed once, with its cursor and type, and without the audience of a deletion', () => {
  const event = {
    id: 42,
    topic: 'tasks' as const,
    type: 'task-deleted',
    taskId: 't',
    payload: { taskId: 't', audience: { ownerId: 'u', isPublic: false, sharedWith: ['a@example.test'] } },
  }
  expect(String(frameOf(event))).toBe('id: 42\nevent: task-deleted\ndata: {"taskId":"t"}\n\n')
  expect(frameOf(event)).toBe(frameOf(event))
})

test('through the router, a client that stops reading is cut off the same way, and the stream ends', async () => {
  const stream = new ResponseEventStream({ retryMs: 5000, signal: new AbortController().signal })
  let closed = 0
  stream.onClose(() => {
    closed += 1
  })
  const sent = sendUntilCutOff(stream)
  expect(sent * frame.length).toBeGreaterThan(MAX_UNSENT_BYTES)
  expect(sent * frame.length).toBeLessThan(MAX_UNSENT_BYTES + frame.length * 2)
  expect(closed).toBe(1)
  stream.send(frame)
  const body = await stream.response.text()
  const cutOff = ': too far behind, reconnect\nretry: 5000\n\n'
  expect(body).toBe(`retry: 5000\n\n${String(frame).repeat(sent)}${cutOff}`)
})

test('through the router, a stream ends when its client leaves', () => {
  const client = new AbortController()
  const stream = new ResponseEventStream({ retryMs: 3000, signal: client.signal })
  let closed = false
  stream.onClose(() => {
    closed = true
  })
  client.abort()
  expect(stream.isClosed).toBe(true)
  expect(closed).toBe(true)
})
