import { eq, sql } from 'drizzle-orm'
import { afterAll, describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { migrateDatabase, migrationStatus } from '~/db/migrate.server'
import { commentReactions, comments, taskShares, tasks, users } from '~/db/schema'
import { latestMigrationTag, openScratchDatabase, sqliteErrorOf } from '../../tests/helpers/db'
import { createComment, createTask, createUser } from '../../tests/helpers/factories'

/** Tables of the data model (docs/architecture.md) that the migrations must build: none may go missing. */
const MODEL_TABLES = [
  'users',
  'accounts',
  'sessions',
  'verifications',
  'tasks',
  'task_shares',
  'comments',
  'comment_reactions',
  'notifications',
  'events',
  'chats',
  'chat_messages',
  'purchases',
  'webhook_events',
  'email_outbox',
  'jobs',
  'rate_limits',
]

describe('migrations', () => {
  test('create every table of the data model', async () => {
    const rows = await database().all<{ name: string }>(
      sql`SELECT name FROM sqlite_master WHERE type = 'table'`,
    )
    const tables = rows.map((row) => row.name)
    expect(tables).toEqual(expect.arrayContaining(MODEL_TABLES))
  })

  test('index the foreign keys hot queries follow', async () => {
    const rows = await database().all<{ name: string }>(
      sql`SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%'`,
    )
    const indexes = rows.map((row) => row.name)
    expect(indexes).toEqual(
      expect.arrayContaining([
        'tasks_user_created_idx',
        'tasks_parent_idx',
        'task_shares_email_idx',
        'comments_task_created_idx',
        'notifications_recipient_unread_idx',
        'events_task_idx',
      ]),
    )
  })

  test('leave the file in WAL mode with foreign keys on', async () => {
    const [journal] = await database().all<{ journal_mode: string }>(sql`PRAGMA journal_mode`)
    expect(journal?.journal_mode).toBe('wal')
    const [foreignKeys] = await database().all<{ foreign_keys: number }>(sql`PRAGMA foreign_keys`)
    expect(foreignKeys?.foreign_keys).toBe(1)
  })

  test('report the schema current once applied, and are safe to run again', async () => {
    expect(await migrationStatus(database())).toEqual({
      expected: latestMigrationTag(),
      isCurrent: true,
    })
    await migrateDatabase(database())
    expect((await migrationStatus(database())).isCurrent).toBe(true)
  })

  describe('on a database nobody migrated', () => {
    let scratch: Awaited<ReturnType<typeof openScratchDatabase>> | undefined
    afterAll(() => scratch?.close())

    test('migrationStatus says migrations are pending', async () => {
      scratch = await openScratchDatabase()
      expect(await migrationStatus(scratch.db)).toEqual({
        expected: latestMigrationTag(),
        isCurrent: false,
      })
    })
  })
})

describe('constraints', () => {
  test('a task cannot belong to a user that does not exist', async () => {
    const message = await sqliteErrorOf(
      database()
        .insert(tasks)
        .values({ userId: 'no-such-user', workspaceId: 'no-such-user', text: 'Orphan' }),
    )
    expect(message).toMatch(/FOREIGN KEY constraint failed/)
  })

  test("deleting a user deletes their tasks, the tasks' shares and comments", async () => {
    const db = database()
    const owner = await createUser(db)
    const task = await createTask(db, { userId: owner.id })
    await db.insert(taskShares).values({ taskId: task.id, email: 'friend@example.test' })
    const comment = await createComment(db, { taskId: task.id, userId: owner.id })

    await db.delete(users).where(eq(users.id, owner.id))

    expect(await db.select().from(tasks).where(eq(tasks.userId, owner.id))).toEqual([])
    expect(await db.select().from(taskShares).where(eq(taskShares.taskId, task.id))).toEqual([])
    expect(await db.select().from(comments).where(eq(comments.id, comment.id))).toEqual([])
  })

  test('two users cannot share an e-mail address', async () => {
    const db = database()
    await createUser(db, { email: 'twin@example.test' })
    expect(await sqliteErrorOf(createUser(db, { email: 'twin@example.test' }))).toMatch(
      /UNIQUE constraint failed: users\.email/,
    )
  })

  test('a user reacts to a comment with each reaction type at most once', async () => {
    const db = database()
    const comment = await createComment(db)
    const reaction = { commentId: comment.id, userId: comment.userId, type: 'heart' as const }
    await db.insert(commentReactions).values(reaction)
    expect(await sqliteErrorOf(db.insert(commentReactions).values(reaction))).toMatch(
      /UNIQUE constraint failed: comment_reactions/,
    )
    // A different type from the same user is a separate reaction.
    await db.insert(commentReactions).values({ ...reaction, type: 'fire' })
  })

  test.each([0, 9])('a task of %i hours is rejected (1..8)', async (hrs) => {
    const db = database()
    const owner = await createUser(db)
    expect(
      await sqliteErrorOf(
        db.insert(tasks).values({ userId: owner.id, workspaceId: owner.id, text: 'Too long', hrs }),
      ),
    ).toMatch(/CHECK constraint failed: tasks_hrs_range/)
  })

  test('a task of 8 hours is fine, and 1 hour is the default', async () => {
    const db = database()
    expect((await createTask(db, { hrs: 8 })).hrs).toBe(8)
    expect((await createTask(db)).hrs).toBe(1)
  })
})
