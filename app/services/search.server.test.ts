import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fc, test } from '@fast-check/vitest'
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect } from 'vitest'
import { database } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { users } from '~/db/schema'
import { DEMO_USERS, seedDemoWorkspace } from '~/db/seed.server'
import { SEARCH_LIMITS } from '~/domain/constants'
import { openScratchDatabase } from '../../tests/helpers/db'
import {
  createComment,
  createUser,
  shareTask as insertShares,
  createTask as insertTask,
} from '../../tests/helpers/factories'
import { type UserRow, viewerOf } from '../../tests/helpers/task-service'
import { deleteComment, updateComment } from './comments.server'
import { audienceWords, search } from './search.server'
import { EMPTY_QUERY_MESSAGE, LONG_QUERY_MESSAGE, NO_WORDS_MESSAGE, type Part } from './search-query'
import {
  COMMENTS_INDEX,
  SEARCHED_COMMENT_FIELDS,
  SEARCHED_TASK_FIELDS,
  TASKS_INDEX,
} from './searched-fields.server'
import { getTask } from './tasks/reads.server'
import { deleteTask, shareTask, updateTask } from './tasks/writes.server'

/**
 * Search finds what a person may see, by the words they type, and nothing else: the index follows
 * every write through triggers, and the visibility rule decides each result.
 */

const db = database()

const marks = (parts: Part[] | null) => (parts ?? []).filter((part) => part.mark).map((part) => part.text)
const plain = (parts: Part[] | null) => (parts ?? []).map((part) => part.text).join('')
const taskIds = async (viewer: UserRow, query: string) =>
  (await search(db, viewerOf(viewer), { query, limit: SEARCH_LIMITS.results.max })).tasks.map(
    (task) => task.id,
  )
const commentIds = async (viewer: UserRow, query: string) =>
  (await search(db, viewerOf(viewer), { query, limit: SEARCH_LIMITS.results.max })).comments.map(
    (comment) => comment.id,
  )

/** The index holds exactly what the tables hold (FTS5's own check raises otherwise). */
async function expectIndexInStep() {
  await db.run(sql`INSERT INTO tasks_search(tasks_search, rank) VALUES ('integrity-check', 1)`)
  await db.run(sql`INSERT INTO comments_search(comments_search, rank) VALUES ('integrity-check', 1)`)
}

describe('what a query finds', () => {
  let ada: UserRow
  beforeAll(async () => {
    ada = await createUser(db, { name: 'Ada Lovelace' })
  })

  test('a word finds titles that start with it, marked where it matched', async () => {
    const task = await insertTask(db, { userId: ada.id, text: 'Plan the zeppelin deployment' })
    const results = await search(db, viewerOf(ada), { query: 'zeppel' })
    expect(results.message).toBeNull()
    expect(results.tasks).toEqual([
      {
        id: task.id,
        text: 'Plan the zeppelin deployment',
        title: [
          { text: 'Plan the ', mark: false },
          { text: 'zeppelin', mark: true },
          { text: ' deployment', mark: false },
        ],
        details: null,
        ownerName: 'Ada Lovelace',
      },
    ])
  })

  test('accents fold both ways, and case does not matter', async () => {
    const task = await insertTask(db, { userId: ada.id, text: 'Lunch at the Café Müller' })
    expect(await taskIds(ada, 'cafe muller')).toEqual([task.id])
    expect(await taskIds(ada, 'CAFÉ')).toEqual([task.id])
  })

  test('words in double quotes are a phrase: adjacent, in order', async () => {
    const together = await insertTask(db, { userId: ada.id, text: 'quartz clock repair' })
    await insertTask(db, { userId: ada.id, text: 'clock of quartz, repair later' })
    expect(await taskIds(ada, '"quartz clock"')).toEqual([together.id])
    expect((await taskIds(ada, 'quartz clock')).length).toBe(2)
  })

  test('every word must match', async () => {
    const both = await insertTask(db, { userId: ada.id, text: 'walrus inventory' })
    await insertTask(db, { userId: ada.id, text: 'walrus feeding' })
    expect(await taskIds(ada, 'walrus invent')).toEqual([both.id])
  })

  test('details match with a snippet, and a title match ranks first', async () => {
    const inDetails = await insertTask(db, {
      userId: ada.id,
      text: 'Quarterly numbers',
      details: 'Ask finance about the marmalade budget before Friday',
    })
    const inTitle = await insertTask(db, { userId: ada.id, text: 'Marmalade tasting' })
    const results = await search(db, viewerOf(ada), { query: 'marmalade' })
    expect(results.tasks.map((task) => task.id)).toEqual([inTitle.id, inDetails.id])
    const hit = results.tasks[1]
    expect(marks(hit?.details ?? null)).toEqual(['marmalade'])
    expect(plain(hit?.details ?? null)).toBe('Ask finance about the marmalade budget before Friday')
  })

  test('comments match with a snippet, their task and author', async () => {
    const task = await insertTask(db, { userId: ada.id, text: 'Garden' })
    const comment = await createComment(db, {
      taskId: task.id,
      userId: ada.id,
      content: 'The <b>hedgehog</b> ate the lettuce',
    })
    const results = await search(db, viewerOf(ada), { query: 'hedgeh' })
    expect(results.comments).toEqual([
      {
        id: comment.id,
        taskId: task.id,
        taskText: 'Garden',
        snippet: [
          { text: 'The <b>', mark: false },
          { text: 'hedgehog', mark: true },
          { text: '</b> ate the lettuce', mark: false },
        ],
        authorName: 'Ada Lovelace',
      },
    ])
  })

  test('an edited comment is found by its new words only, a deleted one not at all', async () => {
    const task = await insertTask(db, { userId: ada.id, text: 'Edits' })
    const comment = await createComment(db, { taskId: task.id, userId: ada.id, content: 'platypus' })
    await updateComment(db, viewerOf(ada), comment.id, 'narwhal')
    expect(await commentIds(ada, 'platypus')).toEqual([])
    expect(await commentIds(ada, 'narwhal')).toEqual([comment.id])
    await deleteComment(db, viewerOf(ada), comment.id)
    expect(await commentIds(ada, 'narwhal')).toEqual([])
    await expectIndexInStep()
  })

  test('an edited title is found by its new words only', async () => {
    const task = await insertTask(db, { userId: ada.id, text: 'Feed the axolotl' })
    await updateTask(db, viewerOf(ada), task.id, { text: 'Feed the capybara', details: 'pellets' })
    expect(await taskIds(ada, 'axolotl')).toEqual([])
    expect(await taskIds(ada, 'capybara pellets')).toEqual([task.id])
    await expectIndexInStep()
  })

  test('limit caps each kind of result', async () => {
    for (let n = 0; n < 3; n++) await insertTask(db, { userId: ada.id, text: `Kumquat ${n}` })
    const results = await search(db, viewerOf(ada), { query: 'kumquat', limit: 2 })
    expect(results.tasks).toHaveLength(2)
  })
})

describe('what a query cannot be', () => {
  let ada: UserRow
  beforeAll(async () => {
    ada = await createUser(db)
  })

  test.each([
    ['', EMPTY_QUERY_MESSAGE],
    ['   ', EMPTY_QUERY_MESSAGE],
    ['"" * ( ) : ^', NO_WORDS_MESSAGE],
    ['x'.repeat(SEARCH_LIMITS.query.maxLength + 1), LONG_QUERY_MESSAGE],
  ])('%#: an empty, wordless or over-long query gets a sentence and no results', async (query, message) => {
    expect(await search(db, viewerOf(ada), { query })).toEqual({ query, message, tasks: [], comments: [] })
  })

  test('the longest query allowed is searched', async () => {
    const query = `a${' b'.repeat((SEARCH_LIMITS.query.maxLength - 1) / 2)}`.slice(
      0,
      SEARCH_LIMITS.query.maxLength,
    )
    expect((await search(db, viewerOf(ada), { query })).message).toBeNull()
  })

  const hostile = [
    'NEAR(a b, 2)',
    'a AND OR NOT b',
    'title:secret',
    '"unbalanced',
    'unbalanced"',
    '(((a',
    'a)))',
    '*',
    'de*ploy',
    '^start',
    '- minus',
    '+plus',
    "'; DROP TABLE tasks; --",
    '\u0000\u0001\u0002\u0003\u001b[31m',
    '{a b}',
    'NOT',
    'a"b"c"d',
    '\uD800 lone surrogate',
    'x'.repeat(10 * 1024),
    '"'.repeat(10 * 1024),
  ]
  test.each(
    hostile.map((query) => [query.length > 40 ? `${query.slice(0, 20)}… (${query.length})` : query, query]),
  )('%j never raises', async (_name, query) => {
    const results = await search(db, viewerOf(ada), { query })
    expect(results.query).toBe(query)
  })

  test.prop([fc.string({ unit: 'binary', maxLength: 300 })], { numRuns: 200 })(
    'any string never raises',
    async (query) => {
      const results = await search(db, viewerOf(ada), { query })
      expect(Array.isArray(results.tasks)).toBe(true)
    },
  )
})

describe('who finds what', () => {
  let owner: UserRow
  let grace: UserRow
  let eve: UserRow
  let unverified: UserRow

  beforeAll(async () => {
    owner = await createUser(db, { name: 'Olive Owner' })
    grace = await createUser(db, { name: 'Grace Guest' })
    eve = await createUser(db, { name: 'Eve Elsewhere' })
    unverified = await createUser(db, { emailVerifiedAt: null })
  })

  test('a private task, and its comments, reach its owner and the verified people it is shared with', async () => {
    const task = await insertTask(db, { userId: owner.id, text: 'Secret pangolin merger' })
    await insertShares(db, task.id, [grace.email, unverified.email])
    const comment = await createComment(db, { taskId: task.id, userId: owner.id, content: 'pangolin terms' })
    for (const person of [owner, grace]) {
      expect(await taskIds(person, 'pangolin')).toEqual([task.id])
      expect(await commentIds(person, 'pangolin')).toEqual([comment.id])
    }
    for (const person of [eve, unverified]) {
      expect(await search(db, viewerOf(person), { query: 'pangolin' })).toEqual({
        query: 'pangolin',
        message: null,
        tasks: [],
        comments: [],
      })
    }
  })

  test('a public task and its comments reach everyone signed in', async () => {
    const task = await insertTask(db, { userId: owner.id, text: 'Open wombat roadmap', isPublic: true })
    const comment = await createComment(db, { taskId: task.id, userId: grace.id, content: 'wombat notes' })
    for (const person of [owner, grace, eve, unverified]) {
      expect(await taskIds(person, 'wombat')).toEqual([task.id])
      expect(await commentIds(person, 'wombat')).toEqual([comment.id])
    }
  })

  test('unsharing hides the task and its comments at once', async () => {
    const task = await insertTask(db, { userId: owner.id, text: 'Ocelot plans' })
    await insertShares(db, task.id, [grace.email])
    await createComment(db, { taskId: task.id, userId: grace.id, content: 'ocelot idea' })
    expect(await taskIds(grace, 'ocelot')).toEqual([task.id])
    await shareTask(db, viewerOf(owner), task.id, [])
    expect(await taskIds(grace, 'ocelot')).toEqual([])
    expect(await commentIds(grace, 'ocelot')).toEqual([])
  })

  test('a deleted task and its comments are found by nobody, and leave the index', async () => {
    const task = await insertTask(db, { userId: owner.id, text: 'Iguana audit', isPublic: true })
    await createComment(db, { taskId: task.id, userId: grace.id, content: 'iguana question' })
    await deleteTask(db, viewerOf(owner), task.id)
    for (const person of [owner, grace]) {
      expect(await taskIds(person, 'iguana')).toEqual([])
      expect(await commentIds(person, 'iguana')).toEqual([])
    }
    await expectIndexInStep()
    const [left] = await db.all<{ n: number }>(
      sql`SELECT count(*) AS n FROM tasks_search WHERE tasks_search MATCH 'iguana'`,
    )
    expect(left?.n).toBe(0)
  })

  test('the index itself narrows to who may see: each row carries its task’s audience', async () => {
    const task = await insertTask(db, { userId: owner.id, text: 'Narwhal brief' })
    await createComment(db, { taskId: task.id, userId: owner.id, content: 'narwhal detail' })
    // What the index alone matches for a person, before the rule has a say.
    const matched = async (person: UserRow) => {
      const audience = `search_audience : (${await audienceWords(db, viewerOf(person))})`
      const inTasks = `{${TASKS_INDEX.searched.join(' ')}} : ("narwhal"*) AND ${audience}`
      const inComments = `{${COMMENTS_INDEX.searched.join(' ')}} : ("narwhal"*) AND ${audience}`
      const [tasksFound] = await db.all<{ n: number }>(
        sql`SELECT count(*) AS n FROM tasks_search WHERE tasks_search MATCH ${inTasks}`,
      )
      const [commentsFound] = await db.all<{ n: number }>(
        sql`SELECT count(*) AS n FROM comments_search WHERE comments_search MATCH ${inComments}`,
      )
      return [tasksFound?.n, commentsFound?.n]
    }
    expect(await Promise.all([owner, grace, eve, unverified].map(matched))).toEqual([
      [1, 1],
      [0, 0],
      [0, 0],
      [0, 0],
    ])
    await shareTask(db, viewerOf(owner), task.id, [grace.email, unverified.email])
    expect(await Promise.all([grace, eve, unverified].map(matched))).toEqual([
      [1, 1],
      [0, 0],
      [0, 0],
    ])
    await updateTask(db, viewerOf(owner), task.id, { isPublic: true })
    expect(await Promise.all([eve, unverified].map(matched))).toEqual([
      [1, 1],
      [1, 1],
    ])
    await updateTask(db, viewerOf(owner), task.id, { isPublic: false })
    expect(await matched(eve)).toEqual([0, 0])
    // Nobody's own words reach into a person's audience: "p" or an id typed is searched as text.
    expect(await taskIds(eve, 'p')).toEqual([])
    await expectIndexInStep()
  })

  test('every change of audience keeps the index in step: shares, publishing, deleted people and tasks', async () => {
    const author = await createUser(db, { name: 'Ada Author' })
    const leaving = await createUser(db, { name: 'Lee Leaving' })
    const task = await insertTask(db, { userId: owner.id, text: 'Quokka plan', details: 'quokka detail' })
    await createComment(db, { taskId: task.id, userId: author.id, content: 'quokka one' })
    await insertShares(db, task.id, [grace.email, author.email])
    await updateTask(db, viewerOf(owner), task.id, { isPublic: true })
    await shareTask(db, viewerOf(owner), task.id, [grace.email])
    await expectIndexInStep()
    // A commenter's account goes, and their comment with it, while the task stays.
    await db.delete(users).where(eq(users.id, author.id))
    await expectIndexInStep()
    expect(await commentIds(grace, 'quokka')).toEqual([])
    // An owner's account goes: their tasks, subtasks, comments and shares all cascade.
    const parent = await insertTask(db, { userId: leaving.id, text: 'Lemur launch', isPublic: true })
    const child = await insertTask(db, { userId: leaving.id, text: 'Lemur step', parentTaskId: parent.id })
    await insertShares(db, child.id, [grace.email])
    await createComment(db, { taskId: parent.id, userId: grace.id, content: 'lemur parent' })
    await createComment(db, { taskId: child.id, userId: leaving.id, content: 'lemur child' })
    expect(await commentIds(grace, 'lemur')).toHaveLength(2)
    await db.delete(users).where(eq(users.id, leaving.id))
    await expectIndexInStep()
    expect(await taskIds(grace, 'lemur')).toEqual([])
    expect(await commentIds(grace, 'lemur')).toEqual([])
  })

  /**
   * For generated people, tasks, shares and comments: every result is a task the searcher may
   * read (as task.get answers), and every task and comment they may read that holds the words is
   * found. Each run writes under a word of its own, so runs do not see each other's rows.
   */
  const VOCABULARY = ['amber', 'basalt', 'cobalt', 'dune'] as const
  /** Words for every searched field of a row, each drawn on its own. */
  const wordsPerField = <Field extends string>(fields: readonly { field: Field }[]) =>
    fc.record(
      Object.fromEntries(fields.map(({ field }) => [field, fc.subarray<string>([...VOCABULARY])])),
    ) as fc.Arbitrary<Record<Field, string[]>>
  /** A row's searched fields from their words; the run's tag goes in the one every row has. */
  const valuesOf = <Field extends string>(words: Record<Field, string[]>, tagged: Field, tag: string) =>
    Object.fromEntries(
      Object.entries<string[]>(words).map(([field, list]) =>
        field === tagged ? [field, [tag, ...list].join(' ')] : [field, list.join(' ') || null],
      ),
    )
  const holds = (words: Record<string, string[]>, word: string) =>
    Object.values(words).some((list) => list.includes(word))
  let run = 0
  const world = fc.record({
    tasks: fc.array(
      fc.record({
        owner: fc.nat({ max: 3 }),
        isPublic: fc.boolean(),
        sharedWith: fc.subarray([0, 1, 2, 3]),
        words: wordsPerField(SEARCHED_TASK_FIELDS),
        comments: fc.array(
          fc.record({ author: fc.nat({ max: 3 }), words: wordsPerField(SEARCHED_COMMENT_FIELDS) }),
          {
            maxLength: 3,
          },
        ),
      }),
      { minLength: 1, maxLength: 6 },
    ),
    searcher: fc.nat({ max: 3 }),
    word: fc.constantFrom(...VOCABULARY),
  })

  test.prop([world], { numRuns: 25 })(
    'finds exactly what the searcher may see',
    async (generated) => {
      run += 1
      const tag = `run${run}x`
      const people = [owner, grace, eve, unverified]
      const expectedTasks: string[] = []
      const expectedComments: string[] = []
      const searcher = people[generated.searcher] as UserRow
      for (const spec of generated.tasks) {
        const task = await insertTask(db, {
          userId: (people[spec.owner] as UserRow).id,
          isPublic: spec.isPublic,
          ...valuesOf(spec.words, 'text', tag),
        })
        await insertShares(
          db,
          task.id,
          spec.sharedWith.map((index) => (people[index] as UserRow).email),
        )
        const canSee = await getTask(db, viewerOf(searcher), task.id).then(
          () => true,
          () => false,
        )
        if (canSee && holds(spec.words, generated.word)) expectedTasks.push(task.id)
        for (const note of spec.comments) {
          const comment = await createComment(db, {
            taskId: task.id,
            userId: (people[note.author] as UserRow).id,
            ...valuesOf(note.words, 'content', tag),
          })
          if (canSee && holds(note.words, generated.word)) expectedComments.push(comment.id)
        }
      }
      const query = `${tag} ${generated.word}`
      const found = await search(db, viewerOf(searcher), { query, limit: SEARCH_LIMITS.results.max })
      for (const task of found.tasks)
        await expect(getTask(db, viewerOf(searcher), task.id)).resolves.toBeTruthy()
      for (const comment of found.comments) {
        await expect(getTask(db, viewerOf(searcher), comment.taskId)).resolves.toBeTruthy()
      }
      expect(found.tasks.map((task) => task.id).sort()).toEqual(expectedTasks.sort())
      expect(found.comments.map((comment) => comment.id).sort()).toEqual(expectedComments.sort())
    },
    60_000,
  )
})

describe('rows written outside the services', () => {
  test('the demo seed is searchable as soon as it is written', async () => {
    const scratch = await openScratchDatabase()
    try {
      await migrateDatabase(scratch.db)
      await seedDemoWorkspace(scratch.db)
      const [ada] = await scratch.db.select().from(users).where(eq(users.email, DEMO_USERS[0].email))
      const found = await search(scratch.db, viewerOf(ada as UserRow), { query: 'public beta' })
      expect(found.tasks.map((hit) => hit.text)).toContain('Ship the public beta')
    } finally {
      scratch.close()
    }
  }, 30_000)

  test('the migration indexes the tasks and comments written before it', async () => {
    // The migrations up to the one that adds search, in a folder of their own.
    const folder = mkdtempSync(join(tmpdir(), 'threadwork-migrations-'))
    cpSync('drizzle', folder, { recursive: true })
    const journalFile = join(folder, 'meta/_journal.json')
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] }
    const searchAt = journal.entries.findIndex((entry) => entry.tag.endsWith('_search'))
    expect(searchAt).toBeGreaterThan(0)
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, searchAt) }))
    const scratch = await openScratchDatabase()
    try {
      await migrateDatabase(scratch.db, folder)
      // Rows as that schema had them: the factories write today's columns, which it lacks.
      const ada = { id: crypto.randomUUID(), email: 'ada-before-search@example.test', name: 'Ada' }
      const task = { id: crypto.randomUUID() }
      const comment = { id: crypto.randomUUID() }
      const now = Date.now()
      await scratch.db.run(
        sql`INSERT INTO users (id, email, name, email_verified_at, created_at, updated_at) VALUES (${ada.id}, ${ada.email}, ${ada.name}, ${now}, ${now}, ${now})`,
      )
      await scratch.db.run(
        sql`INSERT INTO tasks (id, user_id, text, details, created_at, updated_at) VALUES (${task.id}, ${ada.id}, 'Written before search', 'flamingo', ${now}, ${now})`,
      )
      await scratch.db.run(
        sql`INSERT INTO comments (id, task_id, user_id, content, created_at, updated_at) VALUES (${comment.id}, ${task.id}, ${ada.id}, 'older flamingo', ${now}, ${now})`,
      )

      await migrateDatabase(scratch.db)

      const found = await search(
        scratch.db,
        { id: ada.id, email: ada.email, emailVerified: true },
        {
          query: 'flamingo',
        },
      )
      expect(found.tasks.map((hit) => hit.id)).toEqual([task.id])
      expect(found.comments.map((hit) => hit.id)).toEqual([comment.id])
    } finally {
      scratch.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})
