import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { events, users } from '~/db/schema'
import { pruneEvents } from '~/events/log.server'
import { toggleReaction } from '~/services/comment-reactions.server'
import { NewCommentSchema } from '~/services/comment-schemas'
import { listComments } from '~/services/comment-views.server'
import { addComment, deleteComment, updateComment } from '~/services/comments.server'
import { mentionableUsers } from '~/services/mentions.server'
import { deleteAccount, updateProfile } from '~/services/profile.server'
import { toSessionUser } from '~/services/sessions.server'
import { canSeeTask, getTask, listVisibleTasks } from '~/services/tasks/reads.server'
import { TaskFieldsSchema } from '~/services/tasks/task-schemas'
import {
  createTask as createTaskAs,
  deleteTask,
  setTaskStatus,
  shareTask as shareTaskAs,
  updateTask,
} from '~/services/tasks/writes.server'
import { signedInBrowser } from '../helpers/auth'
import { createComment, createTask, createUser, shareTask, TEST_PASSWORD } from '../helpers/factories'
import { answerThroughRpcRoute, readRpcJson, rpcRequest } from '../helpers/rpc'

/**
 * The versioned reads never serve a stale or a foreign answer
 * (docs/decisions/028-reads-versioned-by-the-event-log.md). For every change the services make
 * (and a write that bypasses them), every versioned read is asked again with the ETag it had
 * before: the answer must be what the services compute now — a 304 only when that is still the
 * body the caller holds — and the reads the change affects must get a new ETag.
 */

const db = database()

type Person = Awaited<ReturnType<typeof createUser>>

/** A task of Ada's shared with Grace and Alan, and a comment by each of them. */
async function world() {
  const ada = await createUser(db, { name: 'Ada' })
  const grace = await createUser(db, { name: 'Grace' })
  const alan = await createUser(db, { name: 'Alan' })
  const task = await createTask(db, { userId: ada.id, text: 'Plan the release' })
  await shareTask(db, task.id, [grace.email, alan.email])
  const graceComment = await createComment(db, { taskId: task.id, userId: grace.id, content: 'Dates?' })
  const alanComment = await createComment(db, { taskId: task.id, userId: alan.id, content: 'Scope?' })
  const browsers = {
    ada: await signedInBrowser(db, ada.id),
    grace: await signedInBrowser(db, grace.id),
  }
  return { ada, grace, alan, task, graceComment, alanComment, browsers }
}

type World = Awaited<ReturnType<typeof world>>
type ReadName =
  | 'comments as Grace'
  | 'mentionable as Ada'
  | 'mentionable as Grace'
  | 'tasks as Grace'
  | 'tasks as Ada'

const actor = (person: Person) => toSessionUser(person)

/** Each versioned read: how to ask it over the RPC route, and what the services say it is now. */
const READS: Record<
  ReadName,
  {
    viewer: 'ada' | 'grace'
    path: string
    input: (w: World) => unknown
    truth: (w: World) => Promise<unknown>
  }
> = {
  'comments as Grace': {
    viewer: 'grace',
    path: 'comments/getComments',
    input: (w) => ({ taskId: w.task.id }),
    truth: (w) => listComments(db, actor(w.grace), w.task.id),
  },
  'mentionable as Ada': {
    viewer: 'ada',
    path: 'task/getTaskUsers',
    input: (w) => ({ taskId: w.task.id }),
    truth: (w) => mentionableUsers(db, actor(w.ada), w.task.id),
  },
  'mentionable as Grace': {
    viewer: 'grace',
    path: 'task/getTaskUsers',
    input: (w) => ({ taskId: w.task.id }),
    truth: (w) => mentionableUsers(db, actor(w.grace), w.task.id),
  },
  'tasks as Grace': {
    viewer: 'grace',
    path: 'task/getAll',
    input: () => undefined,
    truth: async (w) => listVisibleTasks(db, actor(await reread(w.grace))),
  },
  'tasks as Ada': {
    viewer: 'ada',
    path: 'task/getAll',
    input: () => undefined,
    truth: async (w) => listVisibleTasks(db, actor(await reread(w.ada))),
  },
}

async function reread(person: Person) {
  const [row] = await db.select().from(users).where(eq(users.id, person.id))
  return row ?? person
}

async function ask(w: World, name: ReadName, ifNoneMatch?: string) {
  const read = READS[name]
  const headers: Record<string, string> = { Cookie: w.browsers[read.viewer].cookie }
  if (ifNoneMatch) headers['If-None-Match'] = ifNoneMatch
  const response = await answerThroughRpcRoute(
    rpcRequest(read.path, read.input(w), { method: 'GET', headers }),
  )
  const body = response.status === 304 ? undefined : await readRpcJson(response)
  return { status: response.status, etag: response.headers.get('ETag'), body }
}

const plain = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown

type Mutation = {
  name: string
  /** What must be true before the reads are first asked. */
  before?: (w: World) => Promise<unknown>
  change: (w: World) => Promise<unknown>
  /** The reads whose answer this change alters: each must get a new ETag. */
  changes: ReadName[]
  /** What the comments read must show afterwards, when it says something specific. */
  shows?: (comments: { userName: string; userImage: string | null; content: string }[]) => void
}

const MUTATIONS: Mutation[] = [
  {
    name: 'a comment is added',
    change: (w) =>
      addComment(db, actor(w.ada), NewCommentSchema.parse({ taskId: w.task.id, content: 'Friday.' })),
    changes: ['comments as Grace'],
    shows: (comments) => expect(comments.map((c) => c.content)).toContain('Friday.'),
  },
  {
    name: 'a reply is added',
    change: (w) =>
      addComment(
        db,
        actor(w.ada),
        NewCommentSchema.parse({ taskId: w.task.id, content: 'Agreed.', parentCommentId: w.graceComment.id }),
      ),
    changes: ['comments as Grace'],
  },
  {
    name: 'a comment is edited',
    change: (w) => updateComment(db, actor(w.grace), w.graceComment.id, 'Dates, please?'),
    changes: ['comments as Grace'],
    shows: (comments) => expect(comments.map((c) => c.content)).toContain('Dates, please?'),
  },
  {
    name: 'a comment is deleted',
    change: (w) => deleteComment(db, actor(w.grace), w.graceComment.id),
    changes: ['comments as Grace'],
    shows: (comments) => expect(comments.map((c) => c.content)).not.toContain('Dates?'),
  },
  {
    name: 'a reaction is added',
    change: (w) => toggleReaction(db, actor(w.ada), w.graceComment.id, 'heart'),
    changes: ['comments as Grace'],
  },
  {
    name: 'a reaction is taken back',
    before: (w) => toggleReaction(db, actor(w.ada), w.graceComment.id, 'heart'),
    change: (w) => toggleReaction(db, actor(w.ada), w.graceComment.id, 'heart'),
    changes: ['comments as Grace'],
  },
  {
    name: 'the task is renamed',
    change: (w) => updateTask(db, actor(w.ada), w.task.id, { text: 'Plan the summer release' }),
    changes: ['tasks as Grace', 'tasks as Ada'],
  },
  {
    name: 'the task changes status',
    change: (w) => setTaskStatus(db, actor(w.grace), w.task.id, 'In Progress'),
    changes: ['tasks as Grace', 'tasks as Ada'],
  },
  {
    name: 'the task is shared with one more person',
    change: async (w) => {
      const katherine = await createUser(db, { name: 'Katherine' })
      await shareTaskAs(db, actor(w.ada), w.task.id, [w.grace.email, w.alan.email, katherine.email])
    },
    changes: ['mentionable as Ada', 'tasks as Grace', 'tasks as Ada'],
  },
  {
    name: 'the task is unshared from Alan',
    change: (w) => shareTaskAs(db, actor(w.ada), w.task.id, [w.grace.email]),
    changes: ['mentionable as Ada', 'tasks as Grace', 'tasks as Ada'],
  },
  {
    name: 'the task is made public',
    change: (w) => updateTask(db, actor(w.ada), w.task.id, { isPublic: true }),
    changes: ['mentionable as Ada', 'mentionable as Grace', 'tasks as Grace', 'tasks as Ada'],
  },
  {
    name: 'a subtask is added',
    change: (w) =>
      createTaskAs(
        db,
        actor(w.ada),
        TaskFieldsSchema.parse({ text: 'Book the room', parentTaskId: w.task.id }),
      ),
    changes: ['tasks as Ada'],
  },
  {
    name: 'a commenter renames themselves',
    change: (w) => updateProfile(db, w.alan.id, { name: 'Alan T.' }),
    changes: ['comments as Grace', 'mentionable as Ada', 'tasks as Ada'],
    shows: (comments) => expect(comments.map((c) => c.userName)).toContain('Alan T.'),
  },
  {
    name: 'a commenter changes their picture',
    change: (w) => updateProfile(db, w.alan.id, { name: 'Alan', image: 'https://example.test/alan.png' }),
    changes: ['comments as Grace', 'mentionable as Ada'],
    shows: (comments) => expect(comments.map((c) => c.userImage)).toContain('https://example.test/alan.png'),
  },
  {
    name: 'the owner renames themselves',
    change: (w) => updateProfile(db, w.ada.id, { name: 'Ada L.' }),
    changes: ['mentionable as Grace', 'tasks as Grace', 'tasks as Ada'],
  },
  {
    name: 'a commenter deletes their account',
    change: (w) => deleteAccount(db, w.alan.id, { password: TEST_PASSWORD }),
    changes: ['comments as Grace', 'mentionable as Ada'],
    shows: (comments) => expect(comments.map((c) => c.content)).not.toContain('Scope?'),
  },
  {
    name: 'a sharee loses their verified address behind every service’s back',
    change: (w) => db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, w.alan.id)),
    changes: ['mentionable as Ada', 'tasks as Ada'],
  },
  {
    name: 'every event of the task is pruned',
    change: async (w) => {
      await addComment(db, actor(w.ada), NewCommentSchema.parse({ taskId: w.task.id, content: 'Soon.' }))
      await db
        .update(events)
        .set({ createdAt: new Date(0) })
        .where(eq(events.taskId, w.task.id))
      expect(await pruneEvents(db)).toBeGreaterThan(0)
    },
    changes: ['comments as Grace'],
  },
]

describe('versioned reads never answer stale', () => {
  test.each(MUTATIONS)('$name', async (mutation) => {
    const w = await world()
    await mutation.before?.(w)
    const names = Object.keys(READS) as ReadName[]
    const before = new Map<ReadName, Awaited<ReturnType<typeof ask>>>()
    for (const name of names) {
      const first = await ask(w, name)
      expect(first.status, name).toBe(200)
      expect(first.body, name).toEqual(plain(await READS[name].truth(w)))
      // Unchanged: the holder of the answer gets a 304 with the same tag.
      const again = await ask(w, name, first.etag ?? undefined)
      expect([again.status, again.etag], name).toEqual([304, first.etag])
      before.set(name, first)
    }

    await mutation.change(w)

    for (const name of names) {
      const held = before.get(name) as Awaited<ReturnType<typeof ask>>
      const now = await ask(w, name, held.etag ?? undefined)
      const truth = plain(await READS[name].truth(w))
      if (now.status === 304) {
        expect(held.body, `${name} answered 304 to a stale body`).toEqual(truth)
      } else {
        expect(now.status, name).toBe(200)
        expect(now.body, name).toEqual(truth)
      }
      if (mutation.changes.includes(name)) {
        expect(now.status, `${name} must change`).toBe(200)
        expect(now.etag, name).not.toBe(held.etag)
        expect(now.body, name).not.toEqual(held.body)
      }
    }
    if (mutation.shows) {
      const comments = (await ask(w, 'comments as Grace')).body
      mutation.shows(comments as Parameters<NonNullable<Mutation['shows']>>[0])
    }
  })
})

describe('versioned reads never answer for someone else', () => {
  test('a viewer who lost access gets 404 for the ETag they held, and for one of the owner', async () => {
    const w = await world()
    const held = await ask(w, 'comments as Grace')
    const owners = await answerThroughRpcRoute(
      rpcRequest(
        'comments/getComments',
        { taskId: w.task.id },
        {
          method: 'GET',
          headers: { Cookie: w.browsers.ada.cookie },
        },
      ),
    )
    await shareTaskAs(db, actor(w.ada), w.task.id, [w.alan.email])
    for (const etag of [held.etag, owners.headers.get('ETag'), '*']) {
      const response = await ask(w, 'comments as Grace', etag ?? undefined)
      expect(response.status).toBe(404)
      expect(response.body).toMatchObject({ code: 'NOT_FOUND', message: 'Task not found' })
    }
  })

  test('a deleted task answers 404 to every ETag held for its reads', async () => {
    const w = await world()
    const held = await Promise.all(
      (['comments as Grace', 'mentionable as Grace', 'mentionable as Ada'] as const).map(async (name) => ({
        name,
        etag: (await ask(w, name)).etag,
      })),
    )
    await deleteTask(db, actor(w.ada), w.task.id)
    for (const { name, etag } of held) {
      const response = await ask(w, name, etag ?? undefined)
      expect(response.status, name).toBe(404)
      expect(response.body, name).toMatchObject({ code: 'NOT_FOUND' })
    }
  })

  test('a visitor who is not signed in gets 404 for a private task, whatever ETag they send', async () => {
    const w = await world()
    const held = await ask(w, 'comments as Grace')
    const response = await answerThroughRpcRoute(
      rpcRequest(
        'comments/getComments',
        { taskId: w.task.id },
        {
          method: 'GET',
          headers: { 'If-None-Match': held.etag ?? '*' },
        },
      ),
    )
    expect(response.status).toBe(404)
  })

  test('an answer that differs by viewer is never confirmed or served to the other viewer', async () => {
    const w = await world()
    for (const [mine, theirs] of [
      ['mentionable as Ada', 'mentionable as Grace'],
      ['tasks as Ada', 'tasks as Grace'],
    ] as const) {
      const owner = await ask(w, mine)
      // Built and kept for the owner; the other viewer asks with the owner's tag.
      const other = await ask(w, theirs, owner.etag ?? undefined)
      expect(other.status).toBe(200)
      expect(other.etag).not.toBe(owner.etag)
      expect(other.body).toEqual(plain(await READS[theirs].truth(w)))
      expect(other.body).not.toEqual(owner.body)
    }
  })
})

describe('the prepared access probe', () => {
  test('agrees with getTask for every kind of viewer, on private and public tasks', async () => {
    const owner = await createUser(db)
    const sharee = await createUser(db)
    const unverified = await createUser(db, { emailVerifiedAt: null })
    const stranger = await createUser(db)
    const viewers = [owner, sharee, unverified, stranger].map(actor)
    for (const isPublic of [false, true]) {
      const task = await createTask(db, { userId: owner.id, isPublic })
      await shareTask(db, task.id, [sharee.email, unverified.email])
      for (const viewer of [...viewers, null]) {
        const seen = await getTask(db, viewer, task.id).then(
          () => true,
          () => false,
        )
        expect(
          await canSeeTask(db, viewer, task.id),
          `${viewer?.email ?? 'anonymous'} public=${isPublic}`,
        ).toBe(seen)
      }
    }
    expect(await canSeeTask(db, actor(owner), 'no-such-task')).toBe(false)
  })
})
