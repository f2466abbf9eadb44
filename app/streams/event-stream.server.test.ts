import { EventEmitter } from 'node:events'
import type { ServerResponse } from 'node:http'
import { expect, test } from 'vitest'
import { EventStream, frameOf, MAX_UNSENT_BYTES } from './event-stream.server'

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

test('a client that stops reading is cut off with a retry hint once its unsent bytes pass the bound', () => {
  const res = stalledResponse()
  const stream = new EventStream(res as unknown as ServerResponse, { retryMs: 3000 })
  stream.open()
  const frame = frameOf({
    id: 1,
    topic: 'tasks',
    type: 'task-updated',
    taskId: 't',
    payload: { taskId: 't' },
  })
  let sent = 0
  while (!stream.isClosed && sent < 100_000) {
    stream.send(frame)
    sent += 1
  }
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
