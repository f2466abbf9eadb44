import { type AnyColumn, and, eq, not, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import { taskShares, tasks, users } from '~/db/schema'
import type { Viewer } from '../session-user'

/**
 * The rules of tasks, in one place (docs/product-rules.md §1):
 * - a task is visible to its owner, to users it is shared with once they verified that e-mail,
 *   and to anyone when public (read-only for visitors who are not signed in);
 * - only the owner edits, shares, publishes or deletes; shared users may also change the status;
 * - any signed-in person who may see a task comments on it;
 * - a task is assigned to its owner or to a person it is shared with (verified), never to someone
 *   who sees it only because it is public;
 * - whom a task is shared with is the owner's to know: others see names, never addresses;
 * - a task nobody may see answers 'Task not found' — never a hint that it exists; a visible task
 *   someone may not change answers 'Unauthorized to view this task' (FORBIDDEN);
 * - every change appends its event in the same transaction.
 *
 * Each rule is written once below (`TASK_RULES`), as a formula over the few facts of how a person
 * stands to a task (`Ways`). Every form a rule is applied in is generated from that formula: as a
 * condition on `tasks` or on an alias of it, for a viewer bound now or as placeholders of a
 * prepared statement, as an EXISTS guard for one task inside a write, and in memory over a task's
 * audience, as event streams decide who hears of a change (docs/decisions/034-one-rule-many-forms.md).
 * A table-driven test (rule.forms.server.test.ts) runs every form over the same grid and holds
 * them together.
 */

export const TASK_NOT_FOUND = 'Task not found'
export const NOT_ALLOWED = 'Unauthorized to view this task'

/** How a person stands to a task: the facts every rule is written in. */
type Ways<Condition> = {
  isSignedIn: Condition
  isOwner: Condition
  /** Shared with their address, once they verified it. */
  isSharedWith: Condition
  isPublic: Condition
}

/** And, or and not: over booleans in memory, over SQL conditions in a statement. */
type Logic<Condition> = {
  all(...conditions: Condition[]): Condition
  any(...conditions: Condition[]): Condition
  not(condition: Condition): Condition
}

type Rule = <Condition>(ways: Ways<Condition>, logic: Logic<Condition>) => Condition

const see: Rule = (w, l) => l.any(w.isOwner, w.isSharedWith, w.isPublic)

export const TASK_RULES = {
  /** Who may see a task: its owner, the people it is shared with, anyone when it is public. */
  see,
  /** Who may move it along: its owner and the people it is shared with. */
  setStatus: (w, l) => l.any(w.isOwner, w.isSharedWith),
  /** Who may edit, share, publish or delete it: its owner. */
  change: (w) => w.isOwner,
  /** Who may comment on it, reply and react: a signed-in person who may see it. */
  comment: (w, l) => l.all(w.isSignedIn, see(w, l)),
  /** It reaches them as a share: shared with them and not theirs (the list's and dashboard's "Shared"). */
  sharedWith: (w, l) => l.all(l.not(w.isOwner), w.isSharedWith),
  /** They see it only because it is public: neither theirs nor shared with them (the list's "Public"). */
  publicToThem: (w, l) => l.all(w.isPublic, l.not(w.isOwner), l.not(w.isSharedWith)),
  /**
   * Who may be assigned it: its owner or a person it is shared with — seeing it because it is
   * public is not enough. Applied with the candidate in the viewer's place (`personInSql`).
   */
  beAssigned: (w, l) => l.any(w.isOwner, w.isSharedWith),
} satisfies Record<string, Rule>

export type TaskRule = keyof typeof TASK_RULES

// ── In memory ───────────────────────────────────────────────────────────────

/**
 * What deciding a rule for one person needs of a task: event streams read it once per task for a
 * whole batch of events (task-audience.server.ts), and reads build it from the row they hold.
 */
export type TaskAudience = {
  ownerId: string
  isPublic: boolean
  /** The addresses it is shared with, lower case as stored. */
  sharedWith: string[]
}

/** The e-mail through which shares reach this viewer: only a verified one counts. */
export function shareEmail(viewer: Viewer) {
  return viewer?.emailVerified ? viewer.email.toLowerCase() : null
}

function waysIn(task: TaskAudience, viewer: Viewer): Ways<boolean> {
  const email = shareEmail(viewer)
  return {
    isSignedIn: viewer !== null,
    isOwner: viewer !== null && viewer.id === task.ownerId,
    isSharedWith: email !== null && task.sharedWith.includes(email),
    isPublic: task.isPublic,
  }
}

const inMemory: Logic<boolean> = {
  all: (...conditions) => conditions.every(Boolean),
  any: (...conditions) => conditions.some(Boolean),
  not: (condition) => !condition,
}

/** Whether the rule lets this viewer do it to this task. */
export function ruleHolds(rule: TaskRule, task: TaskAudience, viewer: Viewer): boolean {
  return TASK_RULES[rule](waysIn(task, viewer), inMemory)
}

// ── In SQL ──────────────────────────────────────────────────────────────────

/** A task row as the rules read it: `tasks`, or an alias of it (a subtask inside a subquery). */
export type TaskColumns = Record<'id' | 'userId' | 'isPublic', AnyColumn>

/**
 * The viewer as a statement sees them: values bound now (`viewerValues`), or the placeholders of
 * a prepared statement (`viewerPlaceholders`, filled by `viewerParams`). A bound `null` (a visitor,
 * an unverified address) leaves its terms out; a placeholder bound to NULL equals nothing, so one
 * prepared statement serves every viewer.
 */
export type ViewerInSql = { id: string | null | SQLWrapper; email: string | null | SQLWrapper }

export function viewerValues(viewer: Viewer) {
  return { id: viewer?.id ?? null, email: shareEmail(viewer) } satisfies ViewerInSql
}

export const viewerPlaceholders = {
  id: sql.placeholder('viewerId'),
  email: sql.placeholder('email'),
} satisfies ViewerInSql

// An alias, so that `id` may be a column of `users` itself (the list of whom to offer) without
// the subquery's own row shadowing it.
const person = alias(users, 'person')

/**
 * A person named by id (a value, or a column such as `tasks.assigneeId`) as a statement sees them
 * in the viewer's place: their verified address read from `users`, NULL (no share counts) when
 * they have none or do not exist. How `beAssigned` is applied to whom a task is or would be assigned to.
 */
export function personInSql(id: string | SQLWrapper): ViewerInSql {
  return {
    id,
    email: sql`(SELECT lower(${person.email}) FROM ${users} ${person} WHERE ${person.id} = ${id} AND ${person.emailVerifiedAt} IS NOT NULL)`,
  }
}

export function viewerParams(viewer: Viewer) {
  const { id, email } = viewerValues(viewer)
  return { viewerId: id, email }
}

export function visibilityParams(viewer: Viewer, taskId: string) {
  return { taskId, ...viewerParams(viewer) }
}

/** A condition, or a constant once a bound viewer has decided it. */
type Condition = SQL | boolean

function joined(conditions: Condition[], join: typeof and, ifNone: boolean): Condition {
  const terms = conditions.filter((condition): condition is SQL => typeof condition !== 'boolean')
  if (terms.length === 0) return ifNone
  return terms.length === 1 ? (terms[0] as SQL) : (join(...terms) as SQL)
}

const inSql: Logic<Condition> = {
  all: (...conditions) => (conditions.includes(false) ? false : joined(conditions, and, true)),
  any: (...conditions) => (conditions.includes(true) ? true : joined(conditions, or, false)),
  not: (condition) => (typeof condition === 'boolean' ? !condition : not(condition)),
}

/** A `TaskAudience` as columns of `tasks`, the addresses as JSON text (`audienceOf` reads it). */
export const taskAudienceColumns = {
  ownerId: tasks.userId,
  isPublic: tasks.isPublic,
  sharedWith: sql<string>`(SELECT json_group_array(${taskShares.email}) FROM ${taskShares} WHERE ${eq(taskShares.taskId, tasks.id)})`,
}

export function audienceOf(row: { ownerId: string; isPublic: boolean; sharedWith: string }): TaskAudience {
  return { ownerId: row.ownerId, isPublic: row.isPublic, sharedWith: JSON.parse(row.sharedWith) as string[] }
}

function waysInSql(task: TaskColumns, viewer: ViewerInSql): Ways<Condition> {
  const { id, email } = viewer
  const isSignedIn = id === null ? false : typeof id === 'string' || sql`${id} IS NOT NULL`
  return {
    isSignedIn,
    // Never NULL, even for a placeholder bound to NULL, so that `not` of it holds for a visitor.
    isOwner: id !== null && inSql.all(isSignedIn, eq(task.userId, id)),
    isSharedWith:
      email !== null &&
      sql`${task.id} IN (SELECT ${taskShares.taskId} FROM ${taskShares} WHERE ${eq(taskShares.email, email)})`,
    // A literal, not a parameter: the partial index on public tasks matches `is_public = 1` only.
    isPublic: eq(task.isPublic, sql`1`),
  }
}

/** The rule as a condition on a task row: `tasks` unless another row (an alias) is named. */
export function ruleSql(rule: TaskRule, viewer: ViewerInSql, task: TaskColumns = tasks): SQL {
  const condition = TASK_RULES[rule](waysInSql(task, viewer), inSql)
  if (typeof condition !== 'boolean') return condition
  return condition ? sql`1` : sql`0`
}

/** The rule for one task, by id, as EXISTS: a probe, or a guard inside a write. */
export function ruleOnTaskSql(rule: TaskRule, viewer: ViewerInSql, taskId: string | SQLWrapper): SQL {
  return sql`EXISTS (SELECT 1 FROM ${tasks} WHERE ${and(eq(tasks.id, taskId), ruleSql(rule, viewer))})`
}

/**
 * The rule over a task as a write is about to leave it — its audience known in memory before the
 * statement runs — for a person the statement reads (`personInSql`). How a write that assigns
 * guards every one of its statements, the shares the assignment depends on included: a person who
 * could no longer be assigned when the commit runs (their account deleted meanwhile) changes
 * none of them, rather than the shares without the assignment.
 */
export function ruleOverAudienceSql(rule: TaskRule, audience: TaskAudience, person: ViewerInSql): SQL {
  const { id, email } = person
  const isSignedIn = id === null ? false : typeof id === 'string' || sql`${id} IS NOT NULL`
  const ways: Ways<Condition> = {
    isSignedIn,
    isOwner: id !== null && inSql.all(isSignedIn, eq(sql`${audience.ownerId}`, id)),
    isSharedWith:
      email !== null &&
      audience.sharedWith.length > 0 &&
      sql`coalesce(${email} IN ${audience.sharedWith}, 0)`,
    isPublic: audience.isPublic,
  }
  const condition = TASK_RULES[rule](ways, inSql)
  if (typeof condition !== 'boolean') return condition
  return condition ? sql`1` : sql`0`
}

// The probes of one task that hot prepared statements share, built once from the rules above.

/** Whether the viewer may see one task, the placeholder `taskId` (filled by `visibilityParams`). */
export const isTaskVisibleSql = ruleOnTaskSql('see', viewerPlaceholders, sql.placeholder('taskId'))

/** Whether the viewer may comment on one task, with the placeholders of `isTaskVisibleSql`. */
export const mayCommentSql = ruleOnTaskSql('comment', viewerPlaceholders, sql.placeholder('taskId'))

/**
 * `ruleSql('see', viewerValues(viewer))`, under the name comments.server.ts imports; new code
 * writes the rule it applies.
 */
export function visibleToSql(viewer: Viewer): SQL {
  return ruleSql('see', viewerValues(viewer))
}
