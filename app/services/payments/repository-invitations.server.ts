import { and, eq, ne, type SQL } from 'drizzle-orm'
import type { Database, Executor, Transaction } from '~/db/client.server'
import { accounts, purchases, repositoryInvitations } from '~/db/schema'
import { type Builder, commit, wroteJustBefore } from '~/db/write.server'
import { env } from '~/env.server'
import { scheduleJob } from '~/jobs/jobs.server'
import { z } from '~/utils/zod'
import { Conflict, Forbidden } from '../errors'
import type { SessionUser } from '../session-user'

/**
 * Every buyer is invited to the private repository through GitHub's REST API. The invitation is a
 * job (retried with backoff, never slowing or failing the webhook), and its row says how far it
 * got so the buyer can see it: waiting for a GitHub username, pending, or sent.
 */

export const REPOSITORY_INVITATION_JOB = 'repository-invitation'
const GITHUB_TIMEOUT_MS = 15_000
const MAX_ERROR_LENGTH = 500

/** GitHub's rule for usernames: letters, digits and single inner hyphens, at most 39 characters. */
export const GitHubLoginSchema = z.object({
  githubLogin: z
    .string({ error: 'Enter your GitHub username.' })
    .trim()
    .regex(/^[a-z\d](?:[a-z\d]|-(?=[a-z\d])){0,38}$/i, 'Enter a GitHub username, like octocat.'),
})

export function isInvitationConfigured() {
  const e = env()
  return Boolean(e.GITHUB_INVITE_TOKEN && e.GITHUB_INVITE_REPO)
}

function scheduleInvitation(db: Builder, userId: string, now: Date, onlyIf?: SQL) {
  return scheduleJob(
    db,
    {
      id: `${REPOSITORY_INVITATION_JOB}:${userId}`,
      type: REPOSITORY_INVITATION_JOB,
      payload: { userId },
      runAt: now,
    },
    onlyIf,
  )
}

/** Called in a paid order's transaction: invites the buyer once, however many orders they place. */
export async function queueRepositoryInvitation(tx: Transaction, userId: string, now = new Date()) {
  if (!isInvitationConfigured()) return
  const [github] = await tx
    .select({ id: accounts.providerAccountId })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.provider, 'github')))
    .limit(1)
  const [created] = await tx
    .insert(repositoryInvitations)
    .values({ userId, status: github ? 'pending' : 'needs-login' })
    .onConflictDoNothing()
    .returning()
  if (created?.status === 'pending') await scheduleInvitation(tx, userId, now)
}

/** The buyer tells us their GitHub username (none linked, or the linked one was wrong). */
export async function setGitHubLogin(
  db: Database,
  actor: SessionUser,
  githubLogin: string,
  now = new Date(),
) {
  const [paid] = await db
    .select({ id: purchases.id })
    .from(purchases)
    .where(eq(purchases.userId, actor.id))
    .limit(1)
  if (!paid) throw new Forbidden('The repository invitation comes with a purchase.')
  if (!isInvitationConfigured()) throw new Conflict('Repository invitations are not set up yet.')
  const { invitation } = await commit(db, {
    // Not once it was sent: the buyer is in the repository already.
    invitation: db
      .insert(repositoryInvitations)
      .values({ userId: actor.id, githubLogin, status: 'pending' })
      .onConflictDoUpdate({
        target: repositoryInvitations.userId,
        set: { githubLogin, status: 'pending', lastError: null },
        setWhere: ne(repositoryInvitations.status, 'sent'),
      }),
    job: scheduleInvitation(db, actor.id, now, wroteJustBefore),
  })
  if (invitation.rowsAffected === 0) {
    const sent = await getRepositoryInvitation(db, actor.id)
    throw new Conflict(`The invitation already went to ${sent?.githubLogin ?? 'your GitHub account'}.`)
  }
}

/**
 * An invitation tried again from the admin console: back to pending unless it was sent, and its
 * job scheduled now, as statements of the admin's commit (which audits it). The job looks the
 * buyer's GitHub login up again, so a buyer who linked GitHub since is invited.
 */
export function retryInvitationSteps(db: Builder, userId: string, now = new Date()) {
  return {
    invitation: db
      .update(repositoryInvitations)
      .set({ status: 'pending', lastError: null, updatedAt: now })
      .where(and(eq(repositoryInvitations.userId, userId), ne(repositoryInvitations.status, 'sent'))),
    job: scheduleInvitation(db, userId, now, wroteJustBefore),
  }
}

export async function getRepositoryInvitation(db: Executor, userId: string) {
  const [invitation] = await db
    .select({
      status: repositoryInvitations.status,
      githubLogin: repositoryInvitations.githubLogin,
      lastError: repositoryInvitations.lastError,
    })
    .from(repositoryInvitations)
    .where(eq(repositoryInvitations.userId, userId))
    .limit(1)
  return invitation ?? null
}

// ── The job ─────────────────────────────────────────────────────────────────

async function github(path: string, init: RequestInit = {}) {
  const { GITHUB_API_URL, GITHUB_INVITE_TOKEN } = env()
  return fetch(`${GITHUB_API_URL}${path}`, {
    ...init,
    headers: {
      Accept: 'application/vnd.github+json',
      Authorization: `Bearer ${GITHUB_INVITE_TOKEN}`,
      'X-GitHub-Api-Version': '2022-11-28',
      'User-Agent': 'Threadwork',
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    },
    signal: AbortSignal.timeout(GITHUB_TIMEOUT_MS),
  })
}

/** The username of the GitHub account the buyer signed in with (we keep its numeric id). */
async function linkedLogin(db: Database, userId: string): Promise<string | null> {
  const [account] = await db
    .select({ id: accounts.providerAccountId })
    .from(accounts)
    .where(and(eq(accounts.userId, userId), eq(accounts.provider, 'github')))
    .limit(1)
  if (!account) return null
  const response = await github(`/user/${encodeURIComponent(account.id)}`)
  if (!response.ok) throw new Error(`GitHub answered ${response.status} for user ${account.id}`)
  const { login } = (await response.json()) as { login?: unknown }
  return typeof login === 'string' ? login : null
}

/** Runs an invitation; a failure is recorded for the buyer to see and thrown, so the runner retries. */
export async function runRepositoryInvitationJob(db: Database, payload: Record<string, unknown>) {
  const userId = String(payload.userId)
  const [invitation] = await db
    .select()
    .from(repositoryInvitations)
    .where(eq(repositoryInvitations.userId, userId))
    .limit(1)
  if (invitation?.status !== 'pending') return
  const update = (values: Partial<typeof repositoryInvitations.$inferInsert>) =>
    db.update(repositoryInvitations).set(values).where(eq(repositoryInvitations.userId, userId))

  try {
    if (!isInvitationConfigured()) throw new Error('GITHUB_INVITE_TOKEN and GITHUB_INVITE_REPO are not set')
    const login = invitation.githubLogin ?? (await linkedLogin(db, userId))
    if (!login) return await update({ status: 'needs-login' })
    const response = await github(
      `/repos/${env().GITHUB_INVITE_REPO}/collaborators/${encodeURIComponent(login)}`,
      { method: 'PUT', body: JSON.stringify({ permission: 'pull' }) },
    )
    // 201: invited; 204: already a collaborator.
    if (response.status === 201 || response.status === 204) {
      return await update({ status: 'sent', githubLogin: login, lastError: null })
    }
    // No such user: retrying cannot help, the buyer must name another.
    if (response.status === 404) {
      return await update({
        status: 'needs-login',
        githubLogin: null,
        lastError: `GitHub has no user called ${login}.`,
      })
    }
    throw new Error(`GitHub answered ${response.status} to the invitation of ${login}`)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    await update({ lastError: message.slice(0, MAX_ERROR_LENGTH) })
    throw error
  }
}
