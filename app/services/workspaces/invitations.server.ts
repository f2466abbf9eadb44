import { and, count, desc, eq, gt, lte, type SQL, sql } from 'drizzle-orm'
import { alias } from 'drizzle-orm/sqlite-core'
import type { Database, Executor } from '~/db/client.server'
import { users, workspaceInvitations, workspaceMembers, workspaces } from '~/db/schema'
import { commit, insertIf, wroteJustBefore } from '~/db/write.server'
import { activePlan, entitlementsFor, workspaceLimitMessage } from '~/domain/entitlements'
import {
  type InvitationRole,
  type InvitationStatus,
  mayInviteAs,
  WORKSPACE_LIMITS,
  WORKSPACE_ROLES,
  type WorkspaceRole,
} from '~/domain/workspaces'
import { emailStatement } from '~/email/outbox.server'
import { workspaceInvitationMessage } from '~/email/templates.server'
import { env } from '~/env.server'
import { planName } from '~/pricing'
import { Conflict, Forbidden, NotFound } from '../errors'
import { consumeRateLimit, type RateLimitRule } from '../rate-limit.server'
import type { Actor } from '../session-user'
import type { InviteMember } from './invitation-schemas'
import { holdsRoleSql, requireManager } from './members.server'
import { getWorkspace, type WorkspaceView } from './reads.server'

/**
 * Invitations to a team workspace (docs/product-rules.md §1). Its owner and admins invite by
 * e-mail address, as a member or (the owner only) as an admin; the invitee gets an e-mail with a
 * link to `/invitations/<id>`, valid `WORKSPACE_LIMITS.invitationDays` days. Only the person who
 * verified that address sees the invitation there — to anyone else it does not exist — and
 * accepts it (once: the member is added in the commit that marks it accepted) or declines it.
 * A personal workspace has its owner alone and is never shared.
 *
 * Limits: a workspace holds as many people as its owner's plan allows, pending invitations
 * counted (`membersPerWorkspace`); one person has at most `pendingPerInviter` invitations
 * waiting for an answer; a workspace sends at most `invitationsPerDay` invitation e-mails a day,
 * resent ones counted. An invitation is pending until answered, revoked or expired; an expired
 * one counts for nothing and may be sent again.
 */

export const INVITATION_NOT_FOUND = 'Invitation not found'

export const INVITATION_REFUSALS = {
  invite: 'Only the workspace’s owner and admins invite people.',
  list: 'Only the workspace’s owner and admins see its invitations.',
  manage: 'Only the workspace’s owner and admins revoke or resend invitations.',
  inviteAdmin: 'Only the workspace’s owner invites admins.',
  personal:
    'A personal workspace is yours alone and cannot be shared. Create a team workspace to invite people.',
  pendingPerInviter: `You have ${WORKSPACE_LIMITS.pendingPerInviter} invitations waiting for an answer. Revoke one, or wait for answers, before inviting more.`,
  verify: 'Verify your e-mail address to see this invitation: it was sent to the address of your account.',
} as const

const INVITATIONS_PER_DAY: RateLimitRule = {
  limit: WORKSPACE_LIMITS.invitationsPerDay,
  windowMs: 24 * 60 * 60 * 1000,
  message: `This workspace has sent its ${WORKSPACE_LIMITS.invitationsPerDay} invitations for today. Try again tomorrow.`,
}

const CHANGED_MEANWHILE = 'The workspace changed meanwhile. Reload the page and try again.'
const DAY_MS = 24 * 60 * 60 * 1000

function alreadyMember(email: string) {
  return `${email} is already a member.`
}

function alreadyInvited(email: string) {
  return `${email} is already invited.`
}

/** A pending invitation as the members page lists it. */
export type PendingInvitationView = {
  id: string
  email: string
  role: InvitationRole
  inviterId: string
  inviterName: string
  createdAt: string
  expiresAt: string
  /** No longer accepted: resend it, or revoke it. */
  isExpired: boolean
}

/** One invitation as the person it is for reads it. */
export type InvitationView = PendingInvitationView & {
  status: InvitationStatus
  /** Read by the invitee (better-auth's `inviterEmail`), never listed on the members page. */
  inviterEmail: string
  workspace: { id: string; name: string; slug: string }
}

const wi = workspaceInvitations
const inviter = alias(users, 'inviter')

/** Waiting for an answer, and not expired at `now`. */
function isPending(now: Date) {
  return and(eq(wi.status, 'pending'), gt(wi.expiresAt, now)) as SQL
}

function linkTo(invitationId: string) {
  return `${env().BASE_URL}/invitations/${encodeURIComponent(invitationId)}`
}

const viewColumns = {
  id: wi.id,
  email: wi.email,
  role: wi.role,
  status: wi.status,
  inviterId: wi.inviterId,
  inviterName: sql<string>`coalesce(nullif(${inviter.name}, ''), ${inviter.email})`,
  inviterEmail: inviter.email,
  createdAt: wi.createdAt,
  expiresAt: wi.expiresAt,
  workspaceId: workspaces.id,
  workspaceName: workspaces.name,
  workspaceSlug: workspaces.slug,
}

function selectInvitations(db: Executor) {
  return db
    .select(viewColumns)
    .from(wi)
    .innerJoin(workspaces, eq(workspaces.id, wi.workspaceId))
    .innerJoin(inviter, eq(inviter.id, wi.inviterId))
}

type InvitationRow = Awaited<ReturnType<typeof selectInvitations>>[number]

function toView(row: InvitationRow, now: Date): InvitationView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    status: row.status,
    inviterId: row.inviterId,
    inviterName: row.inviterName,
    inviterEmail: row.inviterEmail,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    isExpired: row.expiresAt.getTime() <= now.getTime(),
    workspace: { id: row.workspaceId, name: row.workspaceName, slug: row.workspaceSlug },
  }
}

function toPendingView({
  status: _status,
  workspace: _workspace,
  inviterEmail: _inviterEmail,
  ...view
}: InvitationView): PendingInvitationView {
  return view
}

async function readInvitation(db: Executor, invitationId: string, now: Date) {
  const [row] = await selectInvitations(db).where(eq(wi.id, invitationId)).limit(1)
  return row ? toView(row, now) : undefined
}

/** One of the workspace's invitations; NotFound for any other id. */
async function invitationIn(db: Executor, workspaceId: string, invitationId: string, now: Date) {
  const invitation = await readInvitation(db, invitationId, now)
  if (!invitation || invitation.workspace.id !== workspaceId) throw new NotFound(INVITATION_NOT_FOUND)
  return invitation
}

// ── Who may be invited, and how many ───────────────────────────────────────

/** A select of one row (`1`) while the address belongs to a member of the workspace. */
function memberWithAddress(db: Executor, workspaceId: string, email: string) {
  return db
    .select({ one: sql`1` })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(users.email, email)))
}

/** Refuses an address that is a member already, or has an invitation waiting for an answer. */
async function checkInvitee(db: Executor, workspaceId: string, email: string, now: Date, except?: string) {
  if ((await memberWithAddress(db, workspaceId, email).limit(1)).length > 0) {
    throw new Conflict(alreadyMember(email))
  }
  const [pending] = await db
    .select({ id: wi.id })
    .from(wi)
    .where(and(eq(wi.workspaceId, workspaceId), eq(wi.email, email), isPending(now)))
    .limit(1)
  if (pending && pending.id !== except) throw new Conflict(alreadyInvited(email))
}

/** People in the workspace and invitations of it waiting for an answer, as one count. */
function peopleSql(db: Executor, workspaceId: string, now: Date) {
  const members = db
    .select({ n: count() })
    .from(workspaceMembers)
    .where(eq(workspaceMembers.workspaceId, workspaceId))
  const invited = db
    .select({ n: count() })
    .from(wi)
    .where(and(eq(wi.workspaceId, workspaceId), isPending(now)))
  return sql<number>`(${members} + ${invited})`
}

/** The invitations of one person waiting for an answer, in any workspace. */
function pendingBySql(db: Executor, inviterId: string, now: Date) {
  return sql<number>`${db
    .select({ n: count() })
    .from(wi)
    .where(and(eq(wi.inviterId, inviterId), isPending(now)))}`
}

/** How many people the owner's plan allows in the workspace (null: no limit), and its name. */
async function workspaceAllowance(db: Executor, workspaceId: string, now: Date) {
  const [owner] = await db
    .select({ plan: users.plan, accessUntil: users.accessUntil })
    .from(workspaceMembers)
    .innerJoin(users, eq(users.id, workspaceMembers.userId))
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.role, 'owner')))
    .limit(1)
  const holder = owner ?? { plan: 'free' as const, accessUntil: null }
  return {
    limit: entitlementsFor(holder, now).membersPerWorkspace,
    planName: planName(activePlan(holder, now)),
  }
}

type Counting = {
  /** The invitation adds one to the people of the workspace (a new one, or an expired one renewed). */
  addsPerson: boolean
  /** It adds one to the actor's invitations waiting for an answer. */
  addsForInviter: boolean
}

/**
 * Refuses what would pass the owner's plan or the inviter's pending invitations; answers the
 * conditions that hold the same as the commit reaches its statement, so invitations sent at once
 * cannot pass them either.
 */
async function checkLimits(db: Executor, actor: Actor, workspaceId: string, now: Date, counting: Counting) {
  const { limit, planName } = await workspaceAllowance(db, workspaceId, now)
  const [counts] = await db
    .select({ people: peopleSql(db, workspaceId, now), byInviter: pendingBySql(db, actor.id, now) })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
  if (counting.addsPerson && limit !== null && Number(counts?.people ?? 0) >= limit) {
    throw new Forbidden(workspaceLimitMessage(planName, limit))
  }
  if (counting.addsForInviter && Number(counts?.byInviter ?? 0) >= WORKSPACE_LIMITS.pendingPerInviter) {
    throw new Forbidden(INVITATION_REFUSALS.pendingPerInviter)
  }
  return and(
    counting.addsPerson && limit !== null ? sql`${peopleSql(db, workspaceId, now)} < ${limit}` : undefined,
    counting.addsForInviter
      ? sql`${pendingBySql(db, actor.id, now)} < ${WORKSPACE_LIMITS.pendingPerInviter}`
      : undefined,
  )
}

/** The roles that may send an invitation of this role (`mayInviteAs`), for a statement's guard. */
function invitersOf(role: InvitationRole): WorkspaceRole[] {
  return WORKSPACE_ROLES.filter((inviter) => mayInviteAs(inviter, role))
}

async function requireInviter(
  db: Executor,
  actor: Actor,
  workspaceId: string,
  role: InvitationRole,
  refusal: string,
) {
  const workspace = await requireManager(db, actor, workspaceId, refusal)
  if (workspace.isPersonal) throw new Forbidden(INVITATION_REFUSALS.personal)
  if (!mayInviteAs(workspace.role, role)) throw new Forbidden(INVITATION_REFUSALS.inviteAdmin)
  return workspace
}

async function nameOf(db: Executor, userId: string) {
  const [row] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
  return row?.name || row?.email || 'Someone'
}

function invitationEmail(
  workspace: WorkspaceView,
  inviterName: string,
  invitation: { id: string; email: string; role: InvitationRole },
) {
  return workspaceInvitationMessage(
    invitation.email,
    {
      workspaceName: workspace.name,
      inviterName,
      role: invitation.role,
      expiresInDays: WORKSPACE_LIMITS.invitationDays,
    },
    linkTo(invitation.id),
  )
}

function expiryFrom(now: Date) {
  return new Date(now.getTime() + WORKSPACE_LIMITS.invitationDays * DAY_MS)
}

// ── The owner's and admins' side ────────────────────────────────────────────

/** Invites an address into a team workspace, and e-mails it the link, in one commit. */
export async function inviteMember(
  db: Database,
  actor: Actor,
  workspaceId: string,
  { email, role }: InviteMember,
  now = new Date(),
): Promise<PendingInvitationView> {
  const workspace = await requireInviter(db, actor, workspaceId, role, INVITATION_REFUSALS.invite)
  await checkInvitee(db, workspaceId, email, now)
  const withinLimits = await checkLimits(db, actor, workspaceId, now, {
    addsPerson: true,
    addsForInviter: true,
  })
  await consumeRateLimit(db, `workspace-invitations:${workspaceId}`, INVITATIONS_PER_DAY, now.getTime())
  const id = crypto.randomUUID()
  const inviterName = await nameOf(db, actor.id)
  const mayInvite = and(
    holdsRoleSql(workspaceId, actor.id, invitersOf(role)),
    withinLimits,
    // drizzle puts a subquery in parentheses of its own
    sql`NOT EXISTS ${memberWithAddress(db, workspaceId, email)}`,
  ) as SQL
  const { invitation } = await commit(db, {
    // An expired invitation of the address makes way: one pending invitation per address.
    expired: db
      .update(wi)
      .set({ status: 'canceled' })
      .where(
        and(
          eq(wi.workspaceId, workspaceId),
          eq(wi.email, email),
          eq(wi.status, 'pending'),
          lte(wi.expiresAt, now),
          mayInvite,
        ),
      ),
    invitation: insertIf(
      db,
      wi,
      {
        id,
        workspaceId,
        email,
        role,
        inviterId: actor.id,
        status: 'pending',
        expiresAt: expiryFrom(now),
        createdAt: now,
      },
      mayInvite,
    ).onConflictDoNothing(),
    email: emailStatement(db, invitationEmail(workspace, inviterName, { id, email, role }), wroteJustBefore),
  })
  if (invitation.rowsAffected === 0) {
    // Why, as a fresh read tells it: a role, a member, an invitation or a limit that changed.
    await requireInviter(db, actor, workspaceId, role, INVITATION_REFUSALS.invite)
    await checkInvitee(db, workspaceId, email, now)
    await checkLimits(db, actor, workspaceId, now, { addsPerson: true, addsForInviter: true })
    throw new Conflict(CHANGED_MEANWHILE)
  }
  return toPendingView(await invitationIn(db, workspaceId, id, now))
}

/** The workspace's invitations waiting for an answer (the expired ones too, to resend), newest first. */
export async function listInvitations(
  db: Executor,
  actor: Actor,
  workspaceId: string,
  now = new Date(),
): Promise<PendingInvitationView[]> {
  await requireManager(db, actor, workspaceId, INVITATION_REFUSALS.list)
  const rows = await selectInvitations(db)
    .where(and(eq(wi.workspaceId, workspaceId), eq(wi.status, 'pending')))
    .orderBy(desc(wi.createdAt), desc(wi.id))
  return rows.map((row) => toPendingView(toView(row, now)))
}

/**
 * One invitation, by its id alone, for the owner and admins of its workspace (an API names no
 * workspace to revoke one): to anyone outside that workspace it does not exist, as an unknown id;
 * a plain member of it is refused as for the list.
 */
export async function getWorkspaceInvitation(
  db: Executor,
  actor: Actor,
  invitationId: string,
  now = new Date(),
): Promise<InvitationView> {
  const [row] = await db
    .select({ workspaceId: wi.workspaceId })
    .from(wi)
    .innerJoin(
      workspaceMembers,
      and(eq(workspaceMembers.workspaceId, wi.workspaceId), eq(workspaceMembers.userId, actor.id)),
    )
    .where(eq(wi.id, invitationId))
    .limit(1)
  if (!row) throw new NotFound(INVITATION_NOT_FOUND)
  await requireManager(db, actor, row.workspaceId, INVITATION_REFUSALS.list)
  return invitationIn(db, row.workspaceId, invitationId, now)
}

/**
 * How many people the workspace holds, its invitations waiting for an answer counted, and how
 * many its owner's plan allows (`limit` null: no limit), for a person in it.
 */
export async function peopleAllowance(db: Executor, actor: Actor, workspaceId: string, now = new Date()) {
  await getWorkspace(db, actor, workspaceId)
  const { limit, planName } = await workspaceAllowance(db, workspaceId, now)
  const [row] = await db
    .select({ people: peopleSql(db, workspaceId, now) })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
  return { people: Number(row?.people ?? 0), limit, planName }
}

/** What the workspace's side is told of an invitation that is no longer waiting for an answer. */
function answeredMessage(invitation: InvitationView) {
  if (invitation.status === 'accepted') return `${invitation.email} already accepted this invitation.`
  if (invitation.status === 'rejected') return `${invitation.email} declined this invitation.`
  return 'This invitation was already revoked.'
}

/** Revokes an invitation waiting for an answer (expired or not): its link then says so. */
export async function revokeInvitation(
  db: Database,
  actor: Actor,
  workspaceId: string,
  invitationId: string,
  now = new Date(),
) {
  await requireManager(db, actor, workspaceId, INVITATION_REFUSALS.manage)
  const invitation = await invitationIn(db, workspaceId, invitationId, now)
  if (invitation.status !== 'pending') throw new Conflict(answeredMessage(invitation))
  const { revoked } = await commit(db, {
    revoked: db
      .update(wi)
      .set({ status: 'canceled' })
      .where(
        and(
          eq(wi.id, invitationId),
          eq(wi.status, 'pending'),
          holdsRoleSql(workspaceId, actor.id, ['owner', 'admin']),
        ),
      ),
  })
  if (revoked.rowsAffected === 0) {
    await requireManager(db, actor, workspaceId, INVITATION_REFUSALS.manage)
    throw new Conflict(answeredMessage(await invitationIn(db, workspaceId, invitationId, now)))
  }
}

/**
 * Sends an invitation again, in the sender's name: a new expiry from now, and the e-mail again.
 * An expired one counts again from now, toward the owner's plan and the sender's pending ones.
 */
export async function resendInvitation(
  db: Database,
  actor: Actor,
  workspaceId: string,
  invitationId: string,
  now = new Date(),
): Promise<PendingInvitationView> {
  await requireManager(db, actor, workspaceId, INVITATION_REFUSALS.manage)
  const invitation = await invitationIn(db, workspaceId, invitationId, now)
  if (invitation.status !== 'pending') throw new Conflict(answeredMessage(invitation))
  const workspace = await requireInviter(db, actor, workspaceId, invitation.role, INVITATION_REFUSALS.manage)
  await checkInvitee(db, workspaceId, invitation.email, now, invitation.id)
  const counting = {
    addsPerson: invitation.isExpired,
    addsForInviter: invitation.isExpired || invitation.inviterId !== actor.id,
  }
  const withinLimits = await checkLimits(db, actor, workspaceId, now, counting)
  await consumeRateLimit(db, `workspace-invitations:${workspaceId}`, INVITATIONS_PER_DAY, now.getTime())
  const inviterName = await nameOf(db, actor.id)
  const { renewed } = await commit(db, {
    renewed: db
      .update(wi)
      .set({ expiresAt: expiryFrom(now), inviterId: actor.id })
      .where(
        and(
          eq(wi.id, invitationId),
          eq(wi.status, 'pending'),
          holdsRoleSql(workspaceId, actor.id, invitersOf(invitation.role)),
          withinLimits,
        ),
      ),
    email: emailStatement(db, invitationEmail(workspace, inviterName, invitation), wroteJustBefore),
  })
  if (renewed.rowsAffected === 0) {
    const fresh = await invitationIn(db, workspaceId, invitationId, now)
    if (fresh.status !== 'pending') throw new Conflict(answeredMessage(fresh))
    await requireInviter(db, actor, workspaceId, invitation.role, INVITATION_REFUSALS.manage)
    await checkLimits(db, actor, workspaceId, now, counting)
    throw new Conflict(CHANGED_MEANWHILE)
  }
  return toPendingView(await invitationIn(db, workspaceId, invitationId, now))
}

// ── The invitee's side ──────────────────────────────────────────────────────

/**
 * An invitation as the accept page shows it, to the signed-in person whose verified address it
 * was sent to. Anyone else is told it does not exist, as for an unknown id; the person whose
 * address it is, not verified yet, is told to verify it and learns nothing more.
 */
export async function getInvitation(db: Executor, viewer: Actor, invitationId: string, now = new Date()) {
  const invitation = await readInvitation(db, invitationId, now)
  if (!invitation || invitation.email !== viewer.email.toLowerCase()) throw new NotFound(INVITATION_NOT_FOUND)
  if (!viewer.emailVerified) throw new Forbidden(INVITATION_REFUSALS.verify)
  return invitation
}

/** What the invitee is told of an invitation that can no longer be answered; undefined while it can. */
export function closedMessage(invitation: Pick<InvitationView, 'status' | 'isExpired'>) {
  if (invitation.status === 'accepted') return 'You already accepted this invitation.'
  if (invitation.status === 'rejected') return 'You declined this invitation.'
  if (invitation.status === 'canceled') return 'This invitation was revoked.'
  if (invitation.isExpired) return 'This invitation has expired. Ask whoever invited you to send it again.'
  return undefined
}

function refuseUnlessOpen(invitation: InvitationView) {
  const closed = closedMessage(invitation)
  if (closed) throw new Conflict(closed)
}

/** While the actor's account still has the invited address, verified, as the commit reaches it. */
function stillTheAddressSql(actor: Actor, email: string) {
  return sql`EXISTS (SELECT 1 FROM ${users} WHERE ${and(eq(users.id, actor.id), eq(users.email, email))} AND ${users.emailVerifiedAt} IS NOT NULL)`
}

/** The answer to an invitation that is open, as one statement: used up by the first answer. */
function answer(
  db: Database,
  actor: Actor,
  invitation: InvitationView,
  status: 'accepted' | 'rejected',
  now: Date,
) {
  return db
    .update(wi)
    .set({ status })
    .where(and(eq(wi.id, invitation.id), isPending(now), stillTheAddressSql(actor, invitation.email)))
}

/**
 * Accepts an invitation: the person joins with its role in the commit that marks it accepted.
 * Someone already in the workspace keeps the role they have.
 */
export async function acceptInvitation(db: Database, actor: Actor, invitationId: string, now = new Date()) {
  const invitation = await getInvitation(db, actor, invitationId, now)
  refuseUnlessOpen(invitation)
  const { accepted, joined } = await commit(db, {
    accepted: answer(db, actor, invitation, 'accepted', now),
    joined: insertIf(
      db,
      workspaceMembers,
      { workspaceId: invitation.workspace.id, userId: actor.id, role: invitation.role, createdAt: now },
      wroteJustBefore,
    ).onConflictDoNothing(),
  })
  if (accepted.rowsAffected === 0) {
    refuseUnlessOpen(await getInvitation(db, actor, invitationId, now))
    throw new Conflict(CHANGED_MEANWHILE)
  }
  return { workspace: invitation.workspace, role: invitation.role, wasMember: joined.rowsAffected === 0 }
}

/** Declines an invitation: it stays declined, and its link says so. */
export async function rejectInvitation(db: Database, actor: Actor, invitationId: string, now = new Date()) {
  const invitation = await getInvitation(db, actor, invitationId, now)
  refuseUnlessOpen(invitation)
  const { rejected } = await commit(db, { rejected: answer(db, actor, invitation, 'rejected', now) })
  if (rejected.rowsAffected === 0) {
    refuseUnlessOpen(await getInvitation(db, actor, invitationId, now))
    throw new Conflict(CHANGED_MEANWHILE)
  }
}
