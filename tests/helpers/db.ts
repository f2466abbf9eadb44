import { readFileSync, rmSync } from 'node:fs'
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type Database, openDatabase } from '~/db/client.server'

/**
 * A second, empty database file beside the one the setup gives every test file, for tests that
 * need a database in another state (unmigrated, closed). `close()` also removes the file.
 */
export async function openScratchDatabase(): Promise<{ db: Database; url: string; close: () => void }> {
  const folder = await mkdtemp(join(tmpdir(), 'threadwork-scratch-'))
  const url = `file:${join(folder, 'app.db')}`
  const db = openDatabase({ url })
  return {
    db,
    url,
    close: () => {
      db.$client.close()
      rmSync(folder, { recursive: true, force: true })
    },
  }
}

/**
 * The SQLite message behind a failed query ("FOREIGN KEY constraint failed"). drizzle wraps the
 * driver's error in "Failed query: …", which names the SQL but not the reason.
 */
export async function sqliteErrorOf(query: PromiseLike<unknown>): Promise<string> {
  try {
    await query
  } catch (error) {
    const messages: string[] = []
    for (let e: unknown = error; e instanceof Error; e = e.cause) messages.push(e.message)
    return messages.join('\n')
  }
  throw new Error('Expected the query to fail, but it succeeded')
}

/**
 * The tag of the newest migration in `drizzle/` ('0001_mention_inbox_and_emails'), read from
 * drizzle-kit's journal, so tests that expect "the schema is current" need no edit per migration.
 */
export function latestMigrationTag(): string {
  const journal = JSON.parse(readFileSync(join(process.cwd(), 'drizzle/meta/_journal.json'), 'utf8')) as {
    entries: { tag: string }[]
  }
  const latest = journal.entries.at(-1)
  if (!latest) throw new Error('drizzle/meta/_journal.json lists no migration')
  return latest.tag
}
