import { rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { startSqld } from '../fixtures/sqld'

/**
 * Gives every test file a fresh, migrated database of its own: an embedded SQLite file, or, with
 * `TEST_DATABASE=sqld` (`npm run test:sqld`), a real libSQL server started for the file. Vitest
 * isolates modules per file, so `database()` is a new client per file and files can run in
 * parallel without sharing rows. The variables are set before any app module is imported, because
 * `env()` reads them once.
 */
const folder = await mkdtemp(join(tmpdir(), 'threadwork-test-'))
const sqld = process.env.TEST_DATABASE === 'sqld' ? await startSqld() : undefined

process.env.DATABASE_URL = sqld ? sqld.url : `file:${join(folder, 'app.db')}`
process.env.NODE_ENV = 'test'
process.env.LOG_REQUESTS = 'false'
// Vitest puts Vite's `BASE_URL` ('/') into process.env, which is not the app's BASE_URL; and a
// developer's shell may point at a real database server or replica. Tests use the defaults.
delete process.env.BASE_URL
delete process.env.DATABASE_AUTH_TOKEN
delete process.env.DATABASE_SYNC_URL
// The chat answers with the built-in assistant, at full speed, unless a test says otherwise.
delete process.env.AI_BASE_URL
process.env.AI_ASSISTANT_WORD_DELAY_MS = '0'

beforeAll(async () => {
  // Imported only now, after the environment above is in place.
  const { database } = await import('~/db/client.server')
  const { migrateDatabase } = await import('~/db/migrate.server')
  await migrateDatabase(database())
})

afterAll(async () => {
  const { closeDatabase } = await import('~/db/client.server')
  closeDatabase()
  await sqld?.close()
  rmSync(folder, { recursive: true, force: true })
})
