import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { migrateDatabase } from '~/db/migrate.server'
import { openScratchDatabase } from '../../tests/helpers/db'

/**
 * The migration that brought workspaces (drizzle/0014_workspaces.sql), run over rows written as the
 * schema was before it: every account gains its personal workspace, its id the account's own, and
 * its tasks move there with their rowids, shares, comments and search entries, so nothing anyone
 * saw or could do changes.
 */

type Journal = { entries: { tag: string }[] }
const BEFORE = '0013_search_audience'

let scratch: Awaited<ReturnType<typeof openScratchDatabase>>
let folder = ''

beforeAll(async () => {
  // The migrations as they stood before workspaces: the same files, the journal cut after BEFORE.
  folder = mkdtempSync(join(tmpdir(), 'threadwork-migrations-'))
  cpSync('drizzle', folder, { recursive: true })
  const journalPath = join(folder, 'meta/_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as Journal
  const cut = journal.entries.findIndex((entry) => entry.tag === BEFORE)
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut + 1) }))
  scratch = await openScratchDatabase()
  await migrateDatabase(scratch.db, folder)
  const { db } = scratch
  await db.run(sql`INSERT INTO users (id, name, email, email_verified_at, created_at, updated_at)
    VALUES ('ada', 'Ada', 'ada@example.test', 1, 1, 1), ('grace', 'Grace', 'grace@example.test', 1, 1, 1)`)
  await db.run(sql`INSERT INTO tasks (id, user_id, text, details, is_public, parent_task_id, assignee_id, created_at, updated_at) VALUES
    ('plan', 'ada', 'Plan the walrus launch', 'With care', 0, NULL, 'grace', 1, 1),
    ('step', 'ada', 'First step', NULL, 0, 'plan', NULL, 2, 2),
    ('open', 'grace', 'An open task', NULL, 1, NULL, NULL, 3, 3)`)
  await db.run(
    sql`INSERT INTO task_shares (task_id, email, created_at) VALUES ('plan', 'grace@example.test', 1)`,
  )
  await db.run(sql`INSERT INTO comments (id, task_id, user_id, content, created_at, updated_at)
    VALUES ('c1', 'plan', 'grace', 'The narwhal question', 1, 1)`)
  await migrateDatabase(scratch.db)
})

afterAll(() => {
  scratch?.close()
  rmSync(folder, { recursive: true, force: true })
})

test('every account gains its personal workspace, as its one member and owner', async () => {
  const { db } = scratch
  expect(await db.all(sql`SELECT id, name, personal_of FROM workspaces ORDER BY id`)).toEqual([
    { id: 'ada', name: 'Personal', personal_of: 'ada' },
    { id: 'grace', name: 'Personal', personal_of: 'grace' },
  ])
  expect(
    await db.all(sql`SELECT workspace_id, user_id, role FROM workspace_members ORDER BY user_id`),
  ).toEqual([
    { workspace_id: 'ada', user_id: 'ada', role: 'owner' },
    { workspace_id: 'grace', user_id: 'grace', role: 'owner' },
  ])
})

test('every task moves to its creator’s personal workspace, keeping its fields, shares, subtasks and comments', async () => {
  const { db } = scratch
  expect(
    await db.all(
      sql`SELECT id, user_id, workspace_id, parent_task_id, assignee_id, details FROM tasks ORDER BY created_at`,
    ),
  ).toEqual([
    {
      id: 'plan',
      user_id: 'ada',
      workspace_id: 'ada',
      parent_task_id: null,
      assignee_id: 'grace',
      details: 'With care',
    },
    {
      id: 'step',
      user_id: 'ada',
      workspace_id: 'ada',
      parent_task_id: 'plan',
      assignee_id: null,
      details: null,
    },
    {
      id: 'open',
      user_id: 'grace',
      workspace_id: 'grace',
      parent_task_id: null,
      assignee_id: null,
      details: null,
    },
  ])
  expect(await db.all(sql`SELECT task_id, email FROM task_shares`)).toEqual([
    { task_id: 'plan', email: 'grace@example.test' },
  ])
  expect(await db.all(sql`SELECT id, task_id FROM comments`)).toEqual([{ id: 'c1', task_id: 'plan' }])
  expect(await db.all(sql`PRAGMA foreign_key_check`)).toEqual([])
})

test('the search index still finds tasks and comments, under the workspace’s audience word', async () => {
  const { db } = scratch
  const hex = (value: string) => Buffer.from(value).toString('hex').toUpperCase()
  const [plan] = await db.all<{ search_audience: string }>(
    sql`SELECT search_audience FROM tasks WHERE id = 'plan'`,
  )
  expect(plan?.search_audience.split(' ').sort()).toEqual(
    [`s${hex('grace@example.test')}`, `w${hex('ada')}`].sort(),
  )
  const found = await db.all<{ id: string }>(
    sql`SELECT t.id FROM tasks_search s JOIN tasks t ON t.rowid = s.rowid WHERE tasks_search MATCH 'walrus'`,
  )
  expect(found).toEqual([{ id: 'plan' }])
  const comments = await db.all(sql`SELECT rowid FROM comments_search WHERE comments_search MATCH 'narwhal'`)
  expect(comments).toHaveLength(1)
})

test('an account created afterwards gets its personal workspace in the same statement', async () => {
  const { db } = scratch
  await db.run(
    sql`INSERT INTO users (id, name, email, created_at, updated_at) VALUES ('alan', 'Alan', 'alan@example.test', 5, 5)`,
  )
  expect(
    await db.all(
      sql`SELECT w.id, m.role FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id WHERE w.personal_of = 'alan'`,
    ),
  ).toEqual([{ id: 'alan', role: 'owner' }])
})
