import type { IncomingMessage, ServerResponse } from 'node:http'
import { expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { createEventStreams } from './event-streams.server'

test('a request target no URL parser accepts is passed on to the adapter, never thrown', () => {
  const streams = createEventStreams(database())
  try {
    for (const url of [
      'http://[bad/',
      '//[',
      'http://a b/api/events/tasks',
      'http://[bad/api/events/tasks',
    ]) {
      let passedOn = false
      const req = { url, method: 'GET', headers: {} } as IncomingMessage
      streams.handle(req, {} as ServerResponse, () => {
        passedOn = true
      })
      expect(passedOn, url).toBe(true)
    }
  } finally {
    streams.close()
  }
})
