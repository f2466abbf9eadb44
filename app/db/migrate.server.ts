import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { sql } from 'drizzle-orm'
import { migrate } from 'drizzle-orm/libsql/migrator'
import type { Database } from './client.server'
import { syncReplica } from './replicas.server'

/** Generated SQL migrations, checked in; resolved from the app's root like the server's cwd. */
const MIGRATIONS_FOLDER = resolve('drizzle')

/**
 * Brings a database to the newest schema. Safe to run on every boot and on several instances at
 * once: drizzle records what it applied and runs each migration in a transaction.
 */
export async function migrateDatabase(db: Database, migrationsFolder = MIGRATIONS_FOLDER) {
  // An embedded replica first learns what the primary has applied (a fresh replica's file is
  // empty and would try every migration again); its file is the replicator's, in WAL already.
  const isReplica = await syncReplica(db)
  // WAL lets readers run beside the writer; the setting is stored in the file itself.
  if (!isReplica && db.$client.protocol === 'file') await db.run(sql`PRAGMA journal_mode = WAL`)
  await migrate(db, { migrationsFolder })
}

type Journal = { entries: { tag: string; when: number }[] }

/**
 * The migrations on disk ship with the build and never change while it runs: read once per
 * folder, so a health check costs a query, not a file read.
 */
const journals = new Map<string, Promise<Journal>>()
function readJournal(migrationsFolder: string) {
  let journal = journals.get(migrationsFolder)
  if (!journal) {
    journal = readFile(resolve(migrationsFolder, 'meta/_journal.json'), 'utf8').then(
      (text) => JSON.parse(text) as Journal,
    )
    // A failed read is not remembered: the next check tries again.
    journal.catch(() => journals.delete(migrationsFolder))
    journals.set(migrationsFolder, journal)
  }
  return journal
}

/** Compares the newest migration on disk with the newest one the database has applied. */
export async function migrationStatus(db: Database, migrationsFolder = MIGRATIONS_FOLDER) {
  const journal = await readJournal(migrationsFolder)
  const latest = journal.entries.at(-1)
  const applied = await db
    .all<{ created_at: number }>(
      sql`SELECT created_at FROM __drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
    )
    .catch(() => [])
  const appliedAt = applied[0] ? Number(applied[0].created_at) : undefined
  return {
    expected: latest?.tag ?? null,
    isCurrent: latest === undefined || appliedAt === latest.when,
  }
}
