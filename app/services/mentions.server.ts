import { type AnyColumn, and, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Database } from '~/db/client.server'
import { preparedPerDatabase } from '~/db/prepared.server'
import { comments, taskShares, tasks, users, workspaceMembers } from '~/db/schema'
import { findMentions, type Mentionable } from '~/utils/mentions'
import { NotFound } from './errors'
import type { Actor, Viewer } from './session-user'
import {
  audienceOf,
  isTaskVisibleSql,
  type Permissions,
  permissionsOf,
  personInSql,
  ruleOnTaskSql,
  TASK_NOT_FOUND,
  taskAudienceColumns,
  viewerPlaceholders,
  visibilityParams,
} from './tasks/rule.server'
import type { TaskView } from './tasks/view'

/**
 * Who may be mentioned on a task (docs/product-rules.md §1), as four rules of `TASK_RULES`
 * (tasks/rule.server.ts), held with the others by its rule-forms test:
 * - a member may mention the workspace's other members (`mentionMembers`) and the people the task
 *   is shared with, once they verified that address, as sharing itself requires
 *   (`mentionSharedWith`);
 * - a person it is shared with (a guest) may mention its creator (`mentionOwner`); in a team's
 *   workspace also its assignee and the people in its discussion (`mentionDiscussion`) and the
 *   others it is shared with (`mentionSharedWith`) — never the member list, and in a personal
 *   workspace never the others it is shared with;
 * - a public task allows no mentions at all, so its page leaks nobody's e-mail;
 * - anyone else sees the task only because it is public, so the list is empty for them too;
 * - a mention never grants access: only people who may see the task are offered, and never the
 *   viewer themself.
 */
export async function mentionableUsers(db: Database, viewer: Viewer, taskId: string): Promise<Mentionable[]> {
  const scope = await mentionScope(db, viewer, taskId)
  return viewer ? mentionableFor(db, scope, viewer) : []
}

/** The mention rules, decided for one viewer and task. */
type MentionRule = 'mentionOwner' | 'mentionSharedWith' | 'mentionMembers' | 'mentionDiscussion'

/**
 * What the rules need of a task and of the viewer: the task, and the mention rules decided.
 * `Access` (getTask) carries it; `mentionScope` reads only this.
 */
export type MentionScope = {
  task: Pick<TaskView, 'id'>
  may: Pick<Permissions, MentionRule>
}

const mentionableColumns = { id: users.id, name: users.name, email: users.email, image: users.image }

const taskId = sql.placeholder('taskId')
/** Whether the viewer may mention a kind of people: a placeholder bound to 1 or 0. */
const may = (rule: MentionRule) => sql`${sql.placeholder(rule)} = 1`
const ofTheTask = (column: AnyColumn) => sql`(SELECT ${column} FROM ${tasks} WHERE ${eq(tasks.id, taskId)})`

/**
 * Everyone the viewer may mention, in one prepared statement: the people of each kind the rules
 * let them mention, read as people (the task's creator; its workspace's members; those
 * `TASK_RULES.sharedWith` holds for, matched by address in any case as accounts keep theirs; its
 * assignee and its live comments' authors), of whom only those who may see the task, and never
 * the viewer.
 */
const mentionableOf = preparedPerDatabase((db) =>
  db.select(mentionableColumns).from(users).where(mentionableWhere(db, may)).orderBy(users.name).prepare(),
)

/**
 * The same people, each mention rule decided inside the statement by its EXISTS form for the
 * viewer's placeholders (`viewerParams`), rather than bound from a scope read before: a writer
 * that needs only whom it may notify reads them in one statement. Every mention rule asks that
 * the viewer see the task, so a task out of their sight gives nobody.
 */
const mentionableOnTask = preparedPerDatabase((db) =>
  db
    .select(mentionableColumns)
    .from(users)
    .where(mentionableWhere(db, (rule) => ruleOnTaskSql(rule, viewerPlaceholders, taskId)))
    .orderBy(users.name)
    .prepare(),
)

// Each kind is a set of ids behind its own rule, so that the statement looks each person up by
// primary key and reads no kind the rules do not let the viewer mention.
const sharee = alias(users, 'sharee')

function mentionableWhere(db: Database, may: (rule: MentionRule) => SQL) {
  const creator = db
    .select({ id: tasks.userId })
    .from(tasks)
    .where(and(may('mentionOwner'), eq(tasks.id, taskId)))
  const members = db
    .select({ id: workspaceMembers.userId })
    .from(workspaceMembers)
    .where(and(may('mentionMembers'), eq(workspaceMembers.workspaceId, ofTheTask(tasks.workspaceId))))
  const shares = db.select({ email: taskShares.email }).from(taskShares).where(eq(taskShares.taskId, taskId))
  const guests = db
    .select({ id: sharee.id })
    .from(sharee)
    .where(
      and(
        may('mentionSharedWith'),
        inArray(sql`lower(${sharee.email})`, shares),
        ruleOnTaskSql('sharedWith', personInSql(sharee.id), taskId),
      ),
    )
  const assignee = db
    .select({ id: tasks.assigneeId })
    .from(tasks)
    .where(and(may('mentionDiscussion'), eq(tasks.id, taskId)))
  const commenters = db
    .select({ id: comments.userId })
    .from(comments)
    .where(and(may('mentionDiscussion'), eq(comments.taskId, taskId), isNull(comments.deletedAt)))
  return and(
    or(...[creator, members, guests, assignee, commenters].map((ids) => inArray(users.id, ids))),
    ne(users.id, sql.placeholder('viewerId')),
    ruleOnTaskSql('see', personInSql(users.id), taskId),
  )
}

/**
 * The people the rules let this viewer mention on the task, in one read with the rules decided
 * in it; nobody when the task is out of the viewer's sight (the write that notifies them is
 * refused then by its own guard).
 */
export function mentionableOnTaskFor(db: Database, viewer: Actor, taskId: string): Promise<Mentionable[]> {
  return mentionableOnTask(db).all(visibilityParams(viewer, taskId))
}

/** The people the rules let this viewer mention on the task. */
export async function mentionableFor(
  db: Database,
  scope: MentionScope,
  viewer: { id: string },
): Promise<Mentionable[]> {
  const { task, may } = scope
  const flags = {
    mentionOwner: Number(may.mentionOwner),
    mentionSharedWith: Number(may.mentionSharedWith),
    mentionMembers: Number(may.mentionMembers),
    mentionDiscussion: Number(may.mentionDiscussion),
  } satisfies Record<MentionRule, number>
  if (!Object.values(flags).some(Boolean)) return []
  return mentionableOf(db).all({ taskId: task.id, viewerId: viewer.id, ...flags })
}

/** A task as the mention rules see it, in one prepared read, for a viewer who may see it. */
const taskScopeOf = preparedPerDatabase((db) =>
  db
    .select({
      id: tasks.id,
      ...taskAudienceColumns,
    })
    .from(tasks)
    .where(and(eq(tasks.id, sql.placeholder('taskId')), isTaskVisibleSql))
    .limit(1)
    .prepare(),
)

/**
 * The task as the rules above need it, without building its whole view (subtask progress, the
 * names of the people it is shared with) as getTask does; NotFound when the viewer may not see
 * the task.
 */
export async function mentionScope(db: Database, viewer: Viewer, taskId: string): Promise<MentionScope> {
  const [row] = await taskScopeOf(db).all(visibilityParams(viewer, taskId))
  if (!row) throw new NotFound(TASK_NOT_FOUND)
  return { task: { id: row.id }, may: permissionsOf(audienceOf(row), viewer) }
}

/**
 * Whom a comment notifies: the people its text names (matched as the client matches them) and
 * those the client says it picked, but only among the mentionable — a client cannot widen the
 * list — and never the author.
 */
export function recipientsOf(
  content: string,
  hintedEmails: readonly string[],
  mentionable: readonly Mentionable[],
  authorId: string,
): Mentionable[] {
  const hinted = new Set(hintedEmails.map((email) => email.toLowerCase()))
  const picked = new Map<string, Mentionable>()
  for (const user of findMentions(content, [...mentionable])) picked.set(user.id, user)
  for (const user of mentionable) if (hinted.has(user.email.toLowerCase())) picked.set(user.id, user)
  picked.delete(authorId)
  return [...picked.values()]
}
