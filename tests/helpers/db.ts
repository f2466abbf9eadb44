import { rmSync } from 'node:fs'
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
