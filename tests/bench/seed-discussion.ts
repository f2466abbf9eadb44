/**
 * The bench's database: the discussion the budget measures `/api/rpc` reads on — a private
 * task with 50 comments (threads of replies, reactions, a few edited ones) seen by a signed-in
 * collaborator it is shared with, who also owns 19 tasks of their own, so their `/task` lists the
 * 20 tasks the budget's signed-in page names; and, for the write path, tasks each shared with ten
 * people who each have a session and a CSRF token (posting is rate-limited per person, so
 * the load spreads over them). The writers' password is hashed with the app's own scrypt
 * parameters, so signing in with it (mixed.ts) costs what a real sign-in does; `visitors` are
 * anonymous browsers with a CSRF token each, to post the sign-in form. Run by run.ts as
 * `node --import tsx tests/bench/seed-discussion.ts <file>`: it migrates and fills the file,
 * checkpoints it so it can be copied for every server, and prints `{ taskId, cookie, comments,
 * tasks, owner, writers, password, visitors }` as one JSON line.
 */
import { eq, sql } from 'drizzle-orm'
import { ANONYMOUS_COOKIE } from '~/auth/context.server'
import { issueCsrfToken } from '~/auth/csrf.server'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { openDatabase } from '~/db/client.server'
import { migrateDatabase } from '~/db/migrate.server'
import { commentRevisions, comments } from '~/db/schema'
import { PRIORITIES, REACTION_TYPES, STATUSES } from '~/domain/constants'
import { createSession } from '~/services/sessions.server'
import { hashPassword } from '~/utils/crypto.server'
import {
  addReaction,
  createComment,
  createTask,
  createUser,
  shareTask,
  TEST_PASSWORD,
} from '../helpers/factories'

const DISCUSSION_SIZE = 50
/** The viewer's task list: their own tasks and the shared one. */
const TASK_LIST_SIZE = 20
/** Enough people that none of them reaches the comment rate limit within a bench run. */
const WRITERS = 400
/** The people each write task is shared with: the free plan's limit. */
const WRITERS_PER_TASK = 10
/** Anonymous browsers that post the sign-in form. */
const VISITORS = 20

const file = process.argv[2]
if (!file) throw new Error('usage: seed-discussion.ts <database file>')
const db = openDatabase({ url: `file:${file}` })
await migrateDatabase(db)

const owner = await createUser(db, { name: 'Ada Lovelace', email: 'ada@example.test' })
const viewer = await createUser(db, { name: 'Grace Hopper', email: 'grace@example.test' })
const others = [
  await createUser(db, { name: 'Alan Turing', email: 'alan@example.test' }),
  await createUser(db, { name: 'Katherine Johnson', email: 'katherine@example.test' }),
]
const people = [owner, viewer, ...others]
const task = await createTask(db, {
  userId: owner.id,
  text: 'Plan the spring release',
  details: 'Scope, dates and who does what; the discussion below is where it gets decided.',
  isPublic: false,
})
await shareTask(
  db,
  task.id,
  [viewer, ...others].map((person) => person.email),
)

// Every fifth comment opens a thread; the four after it reply to it. Timestamps a minute apart,
// so the order is the one a real discussion has.
const start = Date.now() - DISCUSSION_SIZE * 60_000
let threadRoot: string | null = null
for (let i = 0; i < DISCUSSION_SIZE; i++) {
  const author = people[i % people.length] as (typeof people)[number]
  const mentioned = people[(i + 1) % people.length] as (typeof people)[number]
  const at = new Date(start + i * 60_000)
  const isRoot = i % 5 === 0
  const comment = await createComment(db, {
    taskId: task.id,
    userId: author.id,
    parentCommentId: isRoot ? null : threadRoot,
    content:
      `Point ${i + 1}: @${mentioned.name} — I went through the open items again and think we can ` +
      `close this one if the migration lands first. Notes are in the doc, section ${(i % 7) + 1}.`,
    createdAt: at,
    updatedAt: at,
  })
  if (isRoot) threadRoot = comment.id
  // Reactions on most comments, from up to three people, of varied types.
  for (let r = 0; r < i % 4; r++) {
    await addReaction(db, {
      commentId: comment.id,
      userId: (people[(i + r + 1) % people.length] as (typeof people)[number]).id,
      type: REACTION_TYPES[(i + r) % REACTION_TYPES.length],
    })
  }
  // Every seventh comment was edited once: its earlier version is part of the answer.
  if (i % 7 === 3) {
    await db
      .insert(commentRevisions)
      .values({ commentId: comment.id, content: 'First draft.', createdAt: at })
    await db
      .update(comments)
      .set({ editedAt: new Date(at.getTime() + 30_000) })
      .where(eq(comments.id, comment.id))
  }
}

for (let i = 1; i < TASK_LIST_SIZE; i++) {
  await createTask(db, {
    userId: viewer.id,
    text: `Release chore ${i}: check the notes, update the docs and tell the team`,
    priority: PRIORITIES[i % PRIORITIES.length],
    status: STATUSES[i % STATUSES.length],
    hrs: (i % 8) + 1,
  })
}

const session = await createSession(db, viewer.id)

// The write path's tasks: their comments land here, so the measured discussion stays as it is.
// Each is shared with as many people as the free plan allows (10), as a real team's would be.
const writers = []
const writerPasswordHash = await hashPassword(TEST_PASSWORD)
for (let t = 0; t < WRITERS / WRITERS_PER_TASK; t++) {
  const writeTask = await createTask(db, {
    userId: owner.id,
    text: `Collect feedback ${t + 1}`,
    isPublic: false,
  })
  const emails = []
  for (let i = 0; i < WRITERS_PER_TASK; i++) {
    const n = t * WRITERS_PER_TASK + i + 1
    const writer = await createUser(db, {
      name: `Writer ${n}`,
      email: `writer${n}@example.test`,
      passwordHash: writerPasswordHash,
    })
    const writerSession = await createSession(db, writer.id)
    emails.push(writer.email)
    writers.push({
      userId: writer.id,
      email: writer.email,
      taskId: writeTask.id,
      cookie: `${SESSION_COOKIE}=${encodeURIComponent(writerSession.token)}`,
      csrf: issueCsrfToken(`session:${writerSession.id}`),
    })
  }
  await shareTask(db, writeTask.id, emails)
}
const visitors = Array.from({ length: VISITORS }, (_, i) => {
  const id = `bench-visitor-${i}`
  return { cookie: `${ANONYMOUS_COOKIE}=${id}`, csrf: issueCsrfToken(`anonymous:${id}`) }
})
// Everything into the main file, so a plain copy of it carries the whole database.
await db.run(sql`PRAGMA wal_checkpoint(TRUNCATE)`)
db.$client.close()
console.log(
  JSON.stringify({
    taskId: task.id,
    cookie: `${SESSION_COOKIE}=${encodeURIComponent(session.token)}`,
    comments: DISCUSSION_SIZE,
    tasks: TASK_LIST_SIZE,
    owner: { name: owner.name, email: owner.email },
    writers,
    password: TEST_PASSWORD,
    visitors,
  }),
)
