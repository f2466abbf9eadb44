import { and, eq, ne, not, type SQL, sql } from 'drizzle-orm'
import type { Database, Executor } from '~/db/client.server'
import { workspaceMembers, workspaces } from '~/db/schema'
import { commit, insertIf, wroteJustBefore } from '~/db/write.server'
import { managesWorkspace, WORKSPACE_LIMITS } from '~/domain/workspaces'
import { appendAccessChanged } from '~/events/log.server'
import type { z } from '~/utils/zod'
import { Forbidden, Invalid } from '../errors'
import type { Actor } from '../session-user'
import { inWorkspaceSql } from '../tasks/rule.server'
import { startDeletionSteps } from './deletion.server'
import { clearLostAssignmentsSteps, fallBackToPersonalStep, readWorkspaceAudience } from './membership.server'
import { countOwnedTeams, getWorkspace, ownedTeamsCount, type WorkspaceView } from './reads.server'
import {
  CONFIRM_NAME_MESSAGE,
  CreateWorkspaceSchema,
  DeleteWorkspaceSchema,
  MANAGERS_ONLY,
  type NewWorkspace,
  OWNER_CANNOT_LEAVE,
  SLUG_TAKEN,
  TransferWorkspaceSchema,
  UpdateWorkspaceSchema,
  type WorkspaceChanges,
} from './workspace-schemas'

/**
 * Creating and managing workspaces (docs/product-rules.md §1):
 * - anyone creates a team workspace, at most `WORKSPACE_LIMITS.ownedTeams` owned at once, and is
 *   its owner; its address (slug) is unique and taken exactly as typed or refused;
 * - its owner and admins rename it and change its address; a personal workspace may be renamed
 *   too, on the same rules;
 * - any member but the owner leaves it; leaving clears their assignments there, unless the task
 *   is shared with them too;
 * - the owner hands it to one of its admins, and stays an admin;
 * - the owner deletes it, typing its name to confirm: gone for everyone at once, its tasks deleted
 *   by a job in batches (deletion.server.ts);
 * - a personal workspace cannot be left, handed on or deleted;
 * - a workspace someone is not in answers 'Workspace not found' to everything, as one that does
 *   not exist; a member without the role for a change is told whose change it is (Forbidden).
 *
 * Each change checks what it can before, for a clear message, and carries the rule in its
 * statements, so a role or a name changed meanwhile changes nothing; when nothing changed, a fresh
 * read says why.
 */

export const OWNED_TEAMS_LIMIT_MESSAGE = `You can own at most ${WORKSPACE_LIMITS.ownedTeams} team workspaces. Delete one, or hand it to an admin, to create another.`
export const PERSONAL_CANNOT_LEAVE = 'A personal workspace cannot be left.'
export const PERSONAL_CANNOT_TRANSFER = 'A personal workspace cannot be handed to someone else.'
export const PERSONAL_CANNOT_DELETE = 'A personal workspace cannot be deleted.'
export const OWNER_ONLY_TRANSFER = "Only the workspace's owner can hand it to someone else."
export const OWNER_ONLY_DELETE = "Only the workspace's owner can delete it."
export const CHOOSE_AN_ADMIN = 'Choose one of the workspace’s admins.'

/** The input as the schema parses it, or Invalid with each problem on its field. */
function parsed<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input)
  if (result.success) return result.data
  const issues = result.error.issues.map((issue) => ({
    path: issue.path.filter((key): key is string | number => typeof key !== 'symbol'),
    message: issue.message,
  }))
  throw new Invalid(issues[0]?.message ?? 'Check the form and try again.', issues)
}

function slugTaken() {
  return new Invalid(SLUG_TAKEN, [{ path: ['slug'], message: SLUG_TAKEN }])
}

function tooManyTeams() {
  return new Forbidden(OWNED_TEAMS_LIMIT_MESSAGE)
}

/** Whether no workspace but `exceptId` holds the address, as the statement that takes it runs. */
function isSlugFree(slug: string, exceptId?: string) {
  return sql`NOT EXISTS (SELECT 1 FROM ${workspaces} WHERE ${and(
    eq(workspaces.slug, slug),
    exceptId === undefined ? undefined : ne(workspaces.id, exceptId),
  )})`
}

async function isSlugTaken(db: Executor, slug: string, exceptId?: string) {
  const [row] = await db
    .select({ id: workspaces.id })
    .from(workspaces)
    .where(and(eq(workspaces.slug, slug), exceptId === undefined ? undefined : ne(workspaces.id, exceptId)))
    .limit(1)
  return row !== undefined
}

/** Whether the person holds the role in the workspace (`manages`: owner or admin) as the statement runs. */
export function holdsSql(workspaceId: string, personId: string, role: 'owner' | 'manages' | 'admin') {
  const roles = role === 'manages' ? sql`('owner', 'admin')` : sql`(${role})`
  return sql`EXISTS (SELECT 1 FROM ${workspaceMembers} WHERE ${and(
    eq(workspaceMembers.workspaceId, workspaceId),
    eq(workspaceMembers.userId, personId),
  )} AND ${workspaceMembers.role} IN ${roles})`
}

export async function createWorkspace(
  db: Database,
  actor: Actor,
  input: NewWorkspace,
): Promise<WorkspaceView> {
  const { name, slug } = parsed(CreateWorkspaceSchema, input)
  if ((await countOwnedTeams(db, actor.id)) >= WORKSPACE_LIMITS.ownedTeams) throw tooManyTeams()
  if (await isSlugTaken(db, slug)) throw slugTaken()
  const id = crypto.randomUUID()
  const now = new Date()
  // Both checks again in the statement: two creations at once can neither share an address nor
  // take the person past the limit.
  const isAllowed = and(
    isSlugFree(slug),
    sql`(${ownedTeamsCount(db, actor.id)}) < ${WORKSPACE_LIMITS.ownedTeams}`,
  ) as SQL
  const { workspace } = await commit(db, {
    workspace: insertIf(db, workspaces, { id, name, slug, personalOf: null, createdAt: now }, isAllowed),
    owner: insertIf(
      db,
      workspaceMembers,
      { workspaceId: id, userId: actor.id, role: 'owner', createdAt: now },
      wroteJustBefore,
    ),
  })
  if (workspace.rowsAffected === 0) {
    if ((await countOwnedTeams(db, actor.id)) >= WORKSPACE_LIMITS.ownedTeams) throw tooManyTeams()
    throw slugTaken()
  }
  return getWorkspace(db, actor, id)
}

/** Renames a workspace or changes its address: its owner and admins, a personal one's owner too. */
export async function updateWorkspace(
  db: Database,
  actor: Actor,
  workspaceId: string,
  changes: WorkspaceChanges,
): Promise<WorkspaceView> {
  const before = await getWorkspace(db, actor, workspaceId)
  if (!managesWorkspace(before.role)) throw new Forbidden(MANAGERS_ONLY)
  const { name, slug } = parsed(UpdateWorkspaceSchema, changes)
  const isNewSlug = slug !== undefined && slug !== before.slug
  if ((name === undefined || name === before.name) && !isNewSlug) return before
  if (isNewSlug && (await isSlugTaken(db, slug, workspaceId))) throw slugTaken()
  const { renamed } = await commit(db, {
    renamed: db
      .update(workspaces)
      .set({ name, slug })
      .where(
        and(
          eq(workspaces.id, workspaceId),
          holdsSql(workspaceId, actor.id, 'manages'),
          isNewSlug ? isSlugFree(slug, workspaceId) : undefined,
        ),
      ),
  })
  if (renamed.rowsAffected === 0) {
    // Why, as a fresh read tells it: no longer in it (NotFound), no longer managing it, or the address taken meanwhile.
    const now = await getWorkspace(db, actor, workspaceId)
    if (!managesWorkspace(now.role)) throw new Forbidden(MANAGERS_ONLY)
    throw slugTaken()
  }
  return getWorkspace(db, actor, workspaceId)
}

/**
 * Leaves a workspace: any member but its owner, never a personal one. Their assignments there go
 * in the same commit, and their sessions working in it fall back to their personal workspace.
 */
export async function leaveWorkspace(db: Database, actor: Actor, workspaceId: string) {
  const workspace = await getWorkspace(db, actor, workspaceId)
  if (workspace.isPersonal) throw new Forbidden(PERSONAL_CANNOT_LEAVE)
  if (workspace.role === 'owner') throw new Forbidden(OWNER_CANNOT_LEAVE)
  const now = new Date()
  const theirRow = and(
    eq(workspaceMembers.workspaceId, workspaceId),
    eq(workspaceMembers.userId, actor.id),
    ne(workspaceMembers.role, 'owner'),
  ) as SQL
  const { left } = await commit(db, {
    // Their other tabs hear it, as no event of the workspace's tasks reaches them any more.
    told: appendAccessChanged(db, theirRow),
    left: db.delete(workspaceMembers).where(theirRow),
    // After the membership row went, so the rule reads the workspace without them.
    assignments: clearLostAssignmentsSteps(db, workspaceId, actor.id, now),
    // Only once they are out of it (not when made its owner meanwhile).
    sessions: fallBackToPersonalStep(
      db,
      workspaceId,
      actor.id,
      not(inWorkspaceSql(workspaceId, actor.id, false)),
    ),
  })
  if (left.rowsAffected === 0) {
    // Made its owner meanwhile, or no longer in it.
    const now = await getWorkspace(db, actor, workspaceId)
    if (now.role === 'owner') throw new Forbidden(OWNER_CANNOT_LEAVE)
  }
  return { workspace }
}

/**
 * Hands a workspace to one of its admins; the owner stays, as an admin. Demoted first, then
 * promoted, in one commit: a workspace has one owner at every statement (its unique index).
 */
export async function transferOwnership(
  db: Database,
  actor: Actor,
  workspaceId: string,
  toUserId: string,
): Promise<WorkspaceView> {
  const workspace = await getWorkspace(db, actor, workspaceId)
  if (workspace.isPersonal) throw new Forbidden(PERSONAL_CANNOT_TRANSFER)
  if (workspace.role !== 'owner') throw new Forbidden(OWNER_ONLY_TRANSFER)
  const chooseAnAdmin = new Invalid(CHOOSE_AN_ADMIN, [{ path: ['toUserId'], message: CHOOSE_AN_ADMIN }])
  const { toUserId: to } = parsed(TransferWorkspaceSchema, { toUserId })
  const [target] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, to)))
  if (target?.role !== 'admin') throw chooseAnAdmin
  const { demoted } = await commit(db, {
    demoted: db
      .update(workspaceMembers)
      .set({ role: 'admin' })
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          eq(workspaceMembers.userId, actor.id),
          eq(workspaceMembers.role, 'owner'),
          holdsSql(workspaceId, to, 'admin'),
        ),
      ),
    promoted: db
      .update(workspaceMembers)
      .set({ role: 'owner' })
      .where(
        and(
          eq(workspaceMembers.workspaceId, workspaceId),
          eq(workspaceMembers.userId, to),
          eq(workspaceMembers.role, 'admin'),
          wroteJustBefore,
        ),
      ),
  })
  if (demoted.rowsAffected === 0) {
    const now = await getWorkspace(db, actor, workspaceId)
    if (now.role !== 'owner') throw new Forbidden(OWNER_ONLY_TRANSFER)
    throw chooseAnAdmin
  }
  return getWorkspace(db, actor, workspaceId)
}

/**
 * Deletes a team workspace: its owner, typing its name exactly. It is gone for everyone at once;
 * its tasks follow in batches (deletion.server.ts).
 */
export async function deleteWorkspace(db: Database, actor: Actor, workspaceId: string, typedName: string) {
  const workspace = await getWorkspace(db, actor, workspaceId)
  if (workspace.isPersonal) throw new Forbidden(PERSONAL_CANNOT_DELETE)
  if (workspace.role !== 'owner') throw new Forbidden(OWNER_ONLY_DELETE)
  const wrongName = new Invalid(CONFIRM_NAME_MESSAGE, [
    { path: ['confirmName'], message: CONFIRM_NAME_MESSAGE },
  ])
  const { confirmName } = parsed(DeleteWorkspaceSchema, { confirmName: typedName })
  if (confirmName !== workspace.name) throw wrongName
  const audience = (await readWorkspaceAudience(db, workspaceId)) ?? { members: [], admins: [] }
  const { marked } = await commit(
    db,
    startDeletionSteps(
      db,
      { workspaceId, deletedBy: actor.id, ...audience },
      and(
        holdsSql(workspaceId, actor.id, 'owner'),
        eq(workspaces.name, confirmName),
        sql`${workspaces.personalOf} IS NULL`,
      ) as SQL,
      new Date(),
    ),
  )
  if (marked.rowsAffected === 0) {
    const now = await getWorkspace(db, actor, workspaceId)
    if (now.role !== 'owner') throw new Forbidden(OWNER_ONLY_DELETE)
    throw wrongName
  }
  return { workspace }
}
