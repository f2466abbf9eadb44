import { type AnyColumn, and, eq, inArray, not, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import { taskShares, tasks, users, workspaceMembers } from '~/db/schema'
import type { Viewer } from '../session-user'

/**
 * The rules of tasks, in one place (docs/product-rules.md §1):
 * - a task belongs to one workspace and is visible to its members (in a personal workspace, its one
 *   owner), to users it is shared with once they verified that e-mail (its guests), and to anyone
 *   when public (read-only for visitors who are not signed in); creating a task gives no access of
 *   its own;
 * - the members edit, assign, share, publish and move it; its guests may also change the status;
 *   its creator while a member, and the workspace's owner and admins, delete it;
 * - any signed-in person who may see a task comments on it;
 * - a task is assigned to a member or to a person it is shared with (verified), never to someone
 *   who sees it only because it is public;
 * - whom a task is shared with is the members' to know: guests see names, never addresses;
 * - members may mention the workspace's other members and the people it is shared with; a guest
 *   its creator and, in a team's workspace, also its assignee, the others it is shared with and
 *   the people in its discussion — never the member list; a public task allows no mentions, and a
 *   mention never grants access;
 * - a task nobody may see answers 'Task not found' — never a hint that it exists; a visible task
 *   someone may not change answers 'Unauthorized to view this task' (FORBIDDEN);
 * - every change appends its event in the same transaction.
 *
 * Each rule is written once below (`TASK_RULES`), as a formula over the few facts of how a person
 * stands to a task (`Facts`), and each fact is written once too (`factsOf`). Every form a rule is
 * applied in is generated from them: as a condition on `tasks` or on an alias of it, for a viewer
 * bound now or as placeholders of a prepared statement, as an EXISTS guard for one task inside a
 * write, over an audience a write is about to leave, and in memory over a task's audience, as
 * event streams decide who hears of a change (docs/decisions/034-one-rule-many-forms.md).
 * A table-driven test (rule.forms.server.test.ts) runs every form over the same grid and holds
 * them together.
 */

export const TASK_NOT_FOUND = 'Task not found'
export const NOT_ALLOWED = 'Unauthorized to view this task'

/** How a person stands to a task: the facts every rule is written in. */
type Facts<Condition> = {
  isSignedIn: Condition
  /** Created it: what deleting asks, with membership. */
  isCreator: Condition
  /** A member of its workspace, whatever their role. */
  isMember: Condition
  /** Its workspace's owner or an admin of it. */
  isAdmin: Condition
  /** Shared with their address, once they verified it. */
  isSharedWith: Condition
  isPublic: Condition
  /**
   * In its creator's personal workspace (whose id is the account's own, `personalWorkspaceId`);
   * a task in a team's reads as not, and so does one another member moved into their own.
   */
  isPersonal: Condition
}

/** And, or and not: over booleans in memory, over SQL conditions in a statement. */
type Logic<Condition> = {
  all(...conditions: Condition[]): Condition
  any(...conditions: Condition[]): Condition
  not(condition: Condition): Condition
}

type Rule = <Condition>(facts: Facts<Condition>, logic: Logic<Condition>) => Condition

const see: Rule = (f, l) => l.any(f.isMember, f.isSharedWith, f.isPublic)
const sharedWith: Rule = (f, l) => l.all(l.not(f.isMember), f.isSharedWith)

export const TASK_RULES = {
  /** Who may see a task: its workspace's members, the people it is shared with, anyone when it is public. */
  see,
  /** Who may move it along: the members and the people it is shared with. */
  setStatus: (f, l) => l.any(f.isMember, f.isSharedWith),
  /** Who may edit, assign, share, publish or move it to another of their workspaces: the members. */
  change: (f) => f.isMember,
  /** Who may delete it: its creator while a member, and the workspace's owner and admins. */
  delete: (f, l) => l.any(l.all(f.isCreator, f.isMember), f.isAdmin),
  /** Who learns whom it is shared with (their addresses, and the invitees without an account): the members. */
  seeShares: (f) => f.isMember,
  /** Who may comment on it, reply and react: a signed-in person who may see it. */
  comment: (f, l) => l.all(f.isSignedIn, see(f, l)),
  /**
   * It reaches them as a share: shared with them, from a workspace they are not in (the list's and
   * dashboard's "Shared"): they are its guest.
   */
  sharedWith,
  /** They see it only because it is public: neither in its workspace nor shared with them (the list's "Public"). */
  publicToThem: (f, l) => l.all(f.isPublic, l.not(f.isMember), l.not(f.isSharedWith)),
  /**
   * Who may be assigned it: a member or a person it is shared with — seeing it because it is
   * public is not enough. Applied with the candidate in the viewer's place (`personInSql`).
   */
  beAssigned: (f, l) => l.any(f.isMember, f.isSharedWith),
  /** Who may mention its creator: a guest, unless it is public (no mentions there). */
  mentionOwner: (f, l) => l.all(l.not(f.isPublic), sharedWith(f, l)),
  /**
   * Who may mention the people it is shared with (those `sharedWith` holds for): a member, and in
   * a team's workspace a guest too, unless it is public. A guest of a personal workspace never
   * mentions the others it is shared with.
   */
  mentionSharedWith: (f, l) =>
    l.all(l.not(f.isPublic), l.any(f.isMember, l.all(sharedWith(f, l), l.not(f.isPersonal)))),
  /** Who may mention the workspace's other members: a member, unless it is public; a guest never learns them. */
  mentionMembers: (f, l) => l.all(l.not(f.isPublic), f.isMember),
  /**
   * Who may mention its assignee and the people in its discussion (its comments' authors): a
   * guest in a team's workspace, unless it is public — the people they already meet on the task.
   */
  mentionDiscussion: (f, l) => l.all(l.not(f.isPublic), sharedWith(f, l), l.not(f.isPersonal)),
} satisfies Record<string, Rule>

export type TaskRule = keyof typeof TASK_RULES

const RULES = Object.keys(TASK_RULES) as TaskRule[]

// ── The facts, once ─────────────────────────────────────────────────────────

/**
 * What a form works with: its logic, and how it compares a person's value (a string in memory; a
 * value, a column or a placeholder in SQL) with what is known of a task now.
 */
type Form<Condition, Value> = Logic<Condition> & {
  /** A fact already known, as a condition of this form. */
  is(known: boolean): Condition
  /** The id is someone's: always in memory; in SQL, not a placeholder bound to NULL (a visitor). */
  isSomeone(id: Value): Condition
  equals(value: Value, known: string): Condition
  isAmong(value: Value, known: readonly string[]): Condition
}

/** A task as one form reads it, asked about a person's id or address. */
type TaskAs<Condition, Value> = {
  isOwnedBy(id: Value): Condition
  hasMember(id: Value): Condition
  hasAdmin(id: Value): Condition
  isSharedWith(email: Value): Condition
  isPublic: Condition
  isPersonal: Condition
}

/** A person as the forms read them: their id, and the address through which shares reach them; null for none. */
type PersonAs<Value> = { id: Value | null; email: Value | null }

/**
 * Every fact, written once for every form. A new fact is a line in `Facts`, one here and, if it
 * asks the task something new, a question in `TaskAs`; `tsc` then asks each reading of a task
 * (`audienceAs`, `rowAs`) how it answers (docs/architecture.md, "A new fact of the rule").
 */
function factsOf<Condition, Value>(
  task: TaskAs<Condition, Value>,
  person: PersonAs<Value>,
  form: Form<Condition, Value>,
): Facts<Condition> {
  const { id, email } = person
  const isSignedIn = id === null ? form.is(false) : form.isSomeone(id)
  // Never NULL, even for a placeholder bound to NULL, so that `not` of it holds for a visitor.
  const ofSomeone = (fact: (id: Value) => Condition) =>
    id === null ? form.is(false) : form.all(isSignedIn, fact(id))
  return {
    isSignedIn,
    isCreator: ofSomeone(task.isOwnedBy),
    isMember: ofSomeone(task.hasMember),
    isAdmin: ofSomeone(task.hasAdmin),
    isSharedWith: email === null ? form.is(false) : task.isSharedWith(email),
    isPublic: task.isPublic,
    isPersonal: task.isPersonal,
  }
}

// ── The task as the forms read it ───────────────────────────────────────────

/**
 * What deciding a rule for one person needs of a task: event streams read it once per task for a
 * whole batch of events (audience.server.ts), webhooks judge earlier events by the one they had,
 * a write works out the one it will leave, and reads build it from the row they hold.
 */
export type TaskAudience = {
  /** Who created it. */
  ownerId: string
  workspaceId: string
  isPublic: boolean
  /** The addresses it is shared with, lower case as stored. */
  sharedWith: string[]
} & WorkspaceAudience

/** Who is in a workspace, as the rules read it: every member's id, and those of its owner and admins. */
export type WorkspaceAudience = { members: string[]; admins: string[] }

/** Its members, or (`admins`) its owner and admins; `eq` qualifies each column, as a bare one in `sql` is not. */
function inWorkspace(workspaceId: SqlValue, admins: boolean) {
  return and(eq(workspaceMembers.workspaceId, workspaceId), admins ? MANAGES : undefined) as SQL
}
const MANAGES = inArray(workspaceMembers.role, ['owner', 'admin'])

const membersOf = (workspaceId: AnyColumn | SQLWrapper, admins: boolean) =>
  sql<string>`(SELECT json_group_array(${workspaceMembers.userId}) FROM ${workspaceMembers} WHERE ${inWorkspace(workspaceId, admins)})`

/** A workspace's `WorkspaceAudience` as columns, the ids as JSON text (`audienceOf` reads them). */
export function workspaceAudienceColumns(workspaceId: AnyColumn | SQLWrapper) {
  return { members: membersOf(workspaceId, false), admins: membersOf(workspaceId, true) }
}

/** A `TaskAudience` as columns of `tasks`, the addresses and ids as JSON text (`audienceOf` reads it). */
export const taskAudienceColumns = {
  ownerId: tasks.userId,
  workspaceId: tasks.workspaceId,
  isPublic: tasks.isPublic,
  sharedWith: sql<string>`(SELECT json_group_array(${taskShares.email}) FROM ${taskShares} WHERE ${eq(taskShares.taskId, tasks.id)})`,
  ...workspaceAudienceColumns(tasks.workspaceId),
}

type AudienceRow = {
  [Key in keyof TaskAudience]: Key extends 'isPublic' | 'ownerId' | 'workspaceId' ? TaskAudience[Key] : string
}

export function audienceOf(row: AudienceRow): TaskAudience {
  return {
    ownerId: row.ownerId,
    workspaceId: row.workspaceId,
    isPublic: row.isPublic,
    sharedWith: JSON.parse(row.sharedWith) as string[],
    members: JSON.parse(row.members) as string[],
    admins: JSON.parse(row.admins) as string[],
  }
}

/**
 * An audience an event stored (a deletion's, or the one a change left behind). Those stored before
 * tasks had workspaces name only the owner, then its one member: read as such.
 */
export function storedAudience(stored: unknown): TaskAudience | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined
  const audience = stored as Partial<TaskAudience> & Pick<TaskAudience, 'ownerId' | 'isPublic' | 'sharedWith'>
  return {
    ...audience,
    workspaceId: audience.workspaceId ?? audience.ownerId,
    members: audience.members ?? [audience.ownerId],
    admins: audience.admins ?? [audience.ownerId],
  }
}

/** An audience known now, asked in memory or, about a person a statement reads, in SQL. */
function audienceAs<Condition, Value>(
  audience: TaskAudience,
  form: Form<Condition, Value>,
): TaskAs<Condition, Value> {
  return {
    isOwnedBy: (id) => form.equals(id, audience.ownerId),
    hasMember: (id) => form.isAmong(id, audience.members),
    hasAdmin: (id) => form.isAmong(id, audience.admins),
    isSharedWith: (email) => form.isAmong(email, audience.sharedWith),
    isPublic: form.is(audience.isPublic),
    isPersonal: form.is(audience.workspaceId === audience.ownerId),
  }
}

/** A task row as the rules read it: `tasks`, or an alias of it (a subtask inside a subquery). */
export type TaskColumns = Record<'id' | 'userId' | 'workspaceId' | 'isPublic', AnyColumn>

/** Whether the person is in the workspace, as a member or (`admins`) as its owner or an admin. */
export function inWorkspaceSql(workspaceId: SqlValue, id: SqlValue, admins: boolean) {
  return sql`EXISTS (SELECT 1 FROM ${workspaceMembers} WHERE ${and(inWorkspace(workspaceId, admins), eq(workspaceMembers.userId, id))})`
}

/** A row of `tasks` (or an alias) as a statement reads it. */
function rowAs(task: TaskColumns): TaskAs<Condition, SqlValue> {
  return {
    isOwnedBy: (id) => eq(task.userId, id),
    hasMember: (id) => inWorkspaceSql(task.workspaceId, id, false),
    hasAdmin: (id) => inWorkspaceSql(task.workspaceId, id, true),
    isSharedWith: (email) =>
      sql`${task.id} IN (SELECT ${taskShares.taskId} FROM ${taskShares} WHERE ${eq(taskShares.email, email)})`,
    // A literal, not a parameter: the partial index on public tasks matches `is_public = 1` only.
    isPublic: eq(task.isPublic, sql`1`),
    isPersonal: eq(task.workspaceId, task.userId),
  }
}

// ── In memory ───────────────────────────────────────────────────────────────

/** The e-mail through which shares reach this viewer: only a verified one counts. */
function shareEmail(viewer: Viewer) {
  return viewer?.emailVerified ? viewer.email.toLowerCase() : null
}

/** The viewer as the forms read them, bound now: a visitor, or an unverified address, is null. */
export function viewerValues(viewer: Viewer) {
  return { id: viewer?.id ?? null, email: shareEmail(viewer) } satisfies PersonAs<string>
}

const inMemory: Form<boolean, string> = {
  all: (...conditions) => conditions.every(Boolean),
  any: (...conditions) => conditions.some(Boolean),
  not: (condition) => !condition,
  is: (known) => known,
  isSomeone: () => true,
  equals: (value, known) => value === known,
  isAmong: (value, known) => known.includes(value),
}

function factsInMemory(task: TaskAudience, viewer: Viewer) {
  return factsOf(audienceAs(task, inMemory), viewerValues(viewer), inMemory)
}

/** Whether the rule lets this viewer do it to this task. */
export function ruleHolds(rule: TaskRule, task: TaskAudience, viewer: Viewer): boolean {
  return TASK_RULES[rule](factsInMemory(task, viewer), inMemory)
}

/** Every rule, decided for one viewer and task. */
export type Permissions = Record<TaskRule, boolean>

/**
 * What the viewer may do with the task, every rule by its name: what a read carries on once it
 * has stripped the addresses a non-owner may not learn (getTask, the mention scope).
 */
export function permissionsOf(task: TaskAudience, viewer: Viewer): Permissions {
  const facts = factsInMemory(task, viewer)
  return Object.fromEntries(RULES.map((rule) => [rule, TASK_RULES[rule](facts, inMemory)])) as Permissions
}

// ── In SQL ──────────────────────────────────────────────────────────────────

/** A person's value in a statement: bound now, a column, or a placeholder. */
type SqlValue = string | SQLWrapper

/**
 * The viewer as a statement sees them: values bound now (`viewerValues`), or the placeholders of
 * a prepared statement (`viewerPlaceholders`, filled by `viewerParams`). A bound `null` (a visitor,
 * an unverified address) leaves its terms out; a placeholder bound to NULL equals nothing, so one
 * prepared statement serves every viewer.
 */
export type ViewerInSql = PersonAs<SqlValue>

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
export function personInSql(id: SqlValue): ViewerInSql {
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

const inSql: Form<Condition, SqlValue> = {
  all: (...conditions) => (conditions.includes(false) ? false : joined(conditions, and, true)),
  any: (...conditions) => (conditions.includes(true) ? true : joined(conditions, or, false)),
  not: (condition) => (typeof condition === 'boolean' ? !condition : not(condition)),
  is: (known) => known,
  isSomeone: (id) => typeof id === 'string' || sql`${id} IS NOT NULL`,
  equals: (value, known) => eq(sql`${known}`, value),
  isAmong: (value, known) => known.length > 0 && sql`coalesce(${value} IN ${known}, 0)`,
}

function asSql(condition: Condition): SQL {
  if (typeof condition !== 'boolean') return condition
  return condition ? sql`1` : sql`0`
}

/** The rule as a condition on a task row: `tasks` unless another row (an alias) is named. */
export function ruleSql(rule: TaskRule, viewer: ViewerInSql, task: TaskColumns = tasks): SQL {
  return asSql(TASK_RULES[rule](factsOf(rowAs(task), viewer, inSql), inSql))
}

/** The rule for one task, by id, as EXISTS: a probe, or a guard inside a write. */
export function ruleOnTaskSql(rule: TaskRule, viewer: ViewerInSql, taskId: SqlValue): SQL {
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
  return asSql(TASK_RULES[rule](factsOf(audienceAs(audience, inSql), person, inSql), inSql))
}

// The probes of one task that hot prepared statements share, built once from the rules above.

/** Whether the viewer may see one task, the placeholder `taskId` (filled by `visibilityParams`). */
export const isTaskVisibleSql = ruleOnTaskSql('see', viewerPlaceholders, sql.placeholder('taskId'))

/** Whether the viewer may comment on one task, with the placeholders of `isTaskVisibleSql`. */
export const mayCommentSql = ruleOnTaskSql('comment', viewerPlaceholders, sql.placeholder('taskId'))
