import type { IncomingMessage, ServerResponse } from 'node:http'
import { database } from '~/db/client.server'
import { createEventStreams, type EventStreams } from './event-streams'

/**
 * The event-stream doors under `npm run dev`, where Vite's server serves the app instead of
 * server/app.ts: vite.config.ts loads this through the app's own SSR module graph, so the
 * broadcaster shares the app's database client and wakes on its commits.
 */
let streams: EventStreams | undefined

export function handleEventStreams(req: IncomingMessage, res: ServerResponse, next: () => void) {
  streams ??= createEventStreams(database())
  streams.handle(req, res, next)
}
