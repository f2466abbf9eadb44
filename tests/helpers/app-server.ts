import { mkdirSync, mkdtempSync } from 'node:fs'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Env } from '~/env.server'
import { createApp } from '../../server/app'
import { listening, type TestServer } from './http-server'

/**
 * The whole server (server/app.ts: every step ahead of React Router, then the router with the
 * test server build) on a free port, with an empty client folder for its static files.
 */
export async function serveApp(config: Env): Promise<TestServer> {
  const clientDir = mkdtempSync(join(tmpdir(), 'threadwork-client-'))
  mkdirSync(join(clientDir, 'assets'))
  return listening(createServer(createApp(config, { clientDir })))
}
