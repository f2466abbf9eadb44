import { randomBytes, scryptSync } from 'node:crypto'
import { and, eq } from 'drizzle-orm'
import type { Database } from '~/db/client.server'
import {
  commentReactions,
  comments,
  notifications,
  taskShares,
  tasks,
  users,
  workspaceMembers,
  workspaces,
} from '~/db/schema'
import type { ReactionType } from '~/domain/constants'
import type { WorkspaceRole } from '~/domain/workspaces'

/**
 * Factories insert real rows with drizzle, so a test reads like a story ("Ada owns a task shared
 * with Grace") and what it asserts is what the app would read back. Every factory takes the
 * database and optional overrides; whatever is not given gets a unique, valid default.
 */

type NewUser = typeof users.$inferInsert
type NewTask = typeof tasks.$inferInsert
type NewComment = typeof comments.$inferInsert
type NewNotification = typeof notifications.$inferInsert

/** The password every factory user has, unless a test passes its own `password`. */
export const TEST_PASSWORD = 'correct horse battery staple'

/**
 * The app's stored scrypt format with a tiny work factor. `verifyPassword` reads the parameters
 * from the stored string, so it accepts these hashes in well under a millisecond, where the
 * app's real parameters (N=2^17) cost ~100 ms per user and would make suites crawl.
 */
function cheapPasswordHash(password: string): string {
  const salt = randomBytes(16)
  const N = 16
  const r = 1
  const p = 1
  const key = scryptSync(password.normalize('NFKC'), salt, 64, { N, r, p })
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`
}

const defaultPasswordHash = cheapPasswordHash(TEST_PASSWORD)

let sequence = 0
/** Unique within a test file (each file has its own database), readable in failure output. */
function nextNumber() {
  sequence += 1
  return sequence
}

export async function createUser(
  db: Database,
  overrides: Partial<NewUser> & { password?: string | null } = {},
) {
  const { password, ...columns } = overrides
  const n = nextNumber()
  const passwordHash =
    password === undefined ? defaultPasswordHash : password === null ? null : cheapPasswordHash(password)
  const [user] = await db
    .insert(users)
    .values({
      email: `user${n}@example.test`,
      name: `Test User ${n}`,
      emailVerifiedAt: new Date(),
      passwordHash,
      ...columns,
    })
    .returning()
  if (!user) throw new Error('createUser: insert returned no row')
  return user
}

/**
 * A task created by `overrides.userId`, or by a new user when none is given, in their personal
 * workspace unless `overrides.workspaceId` names another.
 */
export async function createTask(db: Database, overrides: Partial<NewTask> = {}) {
  const userId = overrides.userId ?? (await createUser(db)).id
  const [task] = await db
    .insert(tasks)
    .values({
      text: `Task ${nextNumber()}`,
      ...overrides,
      userId,
      workspaceId: overrides.workspaceId ?? userId,
    })
    .returning()
  if (!task) throw new Error('createTask: insert returned no row')
  return task
}

/**
 * A team workspace owned by `ownerId`, with `members` in it besides (each with their role), as
 * the rows the workspace service would leave.
 */
export async function createTeamWorkspace(
  db: Database,
  {
    ownerId,
    members = [],
    name,
  }: {
    ownerId: string
    members?: { userId: string; role: Exclude<WorkspaceRole, 'owner'> }[]
    name?: string
  },
) {
  const n = nextNumber()
  const [workspace] = await db
    .insert(workspaces)
    .values({ name: name ?? `Team ${n}`, slug: `team-${n}-${Math.random().toString(36).slice(2, 8)}` })
    .returning()
  if (!workspace) throw new Error('createTeamWorkspace: insert returned no row')
  await db
    .insert(workspaceMembers)
    .values([
      { workspaceId: workspace.id, userId: ownerId, role: 'owner' as const },
      ...members.map((member) => ({ workspaceId: workspace.id, ...member })),
    ])
  return workspace
}

/** Someone joins a team's workspace (as accepting an invitation adds them). */
export async function addMember(db: Database, workspaceId: string, userId: string, role: WorkspaceRole) {
  await db.insert(workspaceMembers).values({ workspaceId, userId, role })
}

/** Someone leaves or is removed: their membership row goes, as removing a member deletes it. */
export async function removeMember(db: Database, workspaceId: string, userId: string) {
  await db
    .delete(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
}

/** Shares a task with each address (stored lower-case, as the app stores them). */
export async function shareTask(db: Database, taskId: string, emails: string[]) {
  const rows = emails.map((email) => ({ taskId, email: email.toLowerCase() }))
  if (rows.length > 0) await db.insert(taskShares).values(rows)
  return rows
}

/**
 * A comment on `overrides.taskId` (a new task when none is given) by `overrides.userId` (the
 * task's owner when none is given). Pass `parentCommentId` for a reply.
 */
export async function createComment(db: Database, overrides: Partial<NewComment> = {}) {
  let { taskId, userId } = overrides
  if (!taskId) {
    const task = await createTask(db, { userId })
    taskId = task.id
    userId ??= task.userId
  }
  userId ??= (await createUser(db)).id
  const [comment] = await db
    .insert(comments)
    .values({ content: `Comment ${nextNumber()}`, ...overrides, taskId, userId })
    .returning()
  if (!comment) throw new Error('createComment: insert returned no row')
  return comment
}

export async function addReaction(
  db: Database,
  reaction: { commentId: string; userId: string; type?: ReactionType },
) {
  const [row] = await db
    .insert(commentReactions)
    .values({ type: 'thumbsup', ...reaction })
    .returning()
  if (!row) throw new Error('addReaction: insert returned no row')
  return row
}

/** A mention notification, as posting a comment with a mention would leave it. */
export async function createMentionNotification(
  db: Database,
  notification: Pick<NewNotification, 'recipientId' | 'taskId'> & Partial<NewNotification>,
) {
  const [row] = await db
    .insert(notifications)
    .values({ type: 'mention', content: `Mention ${nextNumber()}`, ...notification })
    .returning()
  if (!row) throw new Error('createMentionNotification: insert returned no row')
  return row
}
