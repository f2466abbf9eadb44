import { sql } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { SEARCH_LIMITS } from '~/domain/constants'
import { createComment, createTask, createUser } from '../../tests/helpers/factories'
import { viewerOf } from '../../tests/helpers/task-service'
import { search } from './search.server'
import {
  COMMENTS_INDEX,
  SEARCHED_COMMENT_FIELDS,
  SEARCHED_TASK_FIELDS,
  type SearchIndex,
  TASKS_INDEX,
} from './searched-fields.server'

/**
 * The searched fields are declared once (searched-fields.server.ts). The indexes themselves are
 * written by migrations that cannot follow that list, so the live database is held to it: each
 * index, the table it reads its text back from, and every trigger that keeps it cover exactly the
 * declared fields, in order. A field declared without its migration, or indexed without being
 * declared, fails here; and a word written into any one field alone is found.
 */

const db = database()
const INDEXES: SearchIndex<string>[] = [TASKS_INDEX, COMMENTS_INDEX]

const columnsOf = async (table: string) =>
  (await db.all<{ name: string }>(sql`SELECT name FROM pragma_table_info(${table})`)).map((row) => row.name)
const definitionOf = async (name: string) =>
  (await db.all<{ sql: string }>(sql`SELECT sql FROM sqlite_master WHERE name = ${name}`))[0]?.sql ?? ''
const namesIn = (list: string) => list.split(',').map((name) => name.trim().replaceAll('`', ''))

describe.each(INDEXES)('$name is the declared fields', (index) => {
  test('its columns are the searched fields in the declared order, then the audience', async () => {
    expect(await columnsOf(index.name)).toEqual(index.columns)
    expect(index.weights).toHaveLength(index.columns.length)
  })

  test('what it reads its text back from has every one of its columns', async () => {
    const content = (await definitionOf(index.name)).match(/content='(\w+)'/)?.[1]
    expect(content).toBeTruthy()
    expect(await columnsOf(content as string)).toEqual(expect.arrayContaining(index.columns))
  })

  test('every trigger writes it every column, and a change of any searched field re-indexes it', async () => {
    const triggers = await db.all<{ name: string; sql: string }>(
      sql`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE ${`%INSERT INTO \`${index.name}\`%`}`,
    )
    expect(triggers.length).toBeGreaterThan(0)
    for (const trigger of triggers) {
      const writes = [...trigger.sql.matchAll(new RegExp(`INSERT INTO \`${index.name}\`\\(([^)]*)\\)`, 'g'))]
      for (const [, list] of writes) {
        const written = namesIn(list as string).filter((name) => name !== index.name && name !== 'rowid')
        expect(written, trigger.name).toEqual(index.columns)
      }
    }
    // The trigger that re-indexes an edited row fires on, and compares, each searched field.
    const onEdit = triggers.filter((trigger) =>
      new RegExp(`UPDATE OF .+ ON \`${index.table}\``).test(trigger.sql),
    )
    expect(onEdit.map((trigger) => trigger.name)).toHaveLength(1)
    const edit = onEdit[0]?.sql ?? ''
    const watched = namesIn(edit.match(/UPDATE OF (.+?) ON /)?.[1] ?? '')
    expect(watched).toEqual(expect.arrayContaining(index.searched))
    for (const column of index.searched) expect(edit).toContain(`OLD.\`${column}\` IS NOT NEW.\`${column}\``)
  })
})

describe('a word in any one searched field alone finds its row', () => {
  test.each(SEARCHED_TASK_FIELDS)('a task, by its $field', async ({ field }) => {
    const owner = await createUser(db)
    const word = `solo${field.toLowerCase()}`
    const task = await createTask(db, {
      userId: owner.id,
      text: 'Nothing to find here',
      [field]: `Only ${word}`,
    })
    const found = await search(db, viewerOf(owner), { query: word, limit: SEARCH_LIMITS.results.max })
    expect(found.tasks.map((hit) => hit.id)).toEqual([task.id])
  })

  test.each(SEARCHED_COMMENT_FIELDS)('a comment, by its $field', async ({ field }) => {
    const author = await createUser(db)
    const word = `solocomment${field.toLowerCase()}`
    const task = await createTask(db, { userId: author.id, text: 'Nothing to find here' })
    const comment = await createComment(db, { taskId: task.id, userId: author.id, [field]: `Only ${word}` })
    const found = await search(db, viewerOf(author), { query: word, limit: SEARCH_LIMITS.results.max })
    expect(found.comments.map((hit) => hit.id)).toEqual([comment.id])
  })
})
