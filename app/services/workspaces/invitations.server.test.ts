import { and, eq, inArray } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox, users, workspaceInvitations, workspaceMembers } from '~/db/schema'
import { WORKSPACE_LIMITS } from '~/domain/workspaces'
import { Conflict, Forbidden, NotFound, RateLimited } from '~/services/errors'
import { createTask, createTeamWorkspace, createUser } from '../../../tests/helpers/factories'
import { getTask } from '../tasks/reads.server'
import {
  acceptInvitation,
  getInvitation,
  getWorkspaceInvitation,
  INVITATION_NOT_FOUND,
  INVITATION_REFUSALS,
  inviteMember,
  listInvitations,
  peopleAllowance,
  rejectInvitation,
  resendInvitation,
  revokeInvitation,
} from './invitations.server'

const db = database()
const DAY = 24 * 60 * 60 * 1000

type User = Awaited<ReturnType<typeof createUser>>
const as = (user: User) => ({ id: user.id, email: user.email, emailVerified: user.emailVerifiedAt !== null })

/** Olga owns a team with Ada as its admin and Bob as a member; `plan` is Olga's, Solo unless given. */
async function team(plan: Partial<Pick<User, 'plan' | 'accessUntil'>> = {}) {
  const olga = await createUser(db, { name: 'Olga', plan: 'tier1', accessUntil: null, ...plan })
  const ada = await createUser(db, { name: 'Ada' })
  const bob = await createUser(db, { name: 'Bob' })
  const workspace = await createTeamWorkspace(db, {
    ownerId: olga.id,
    members: [
      { userId: ada.id, role: 'admin' },
      { userId: bob.id, role: 'member' },
    ],
    name: 'Acme',
  })
  return { olga, ada, bob, workspace }
}

let addresses = 0
const newAddress = () => {
  addresses += 1
  return `invitee${addresses}@example.test`
}

const mailTo = (email: string) => db.select().from(emailOutbox).where(eq(emailOutbox.to, email))

async function statusOf(id: string) {
  const [row] = await db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, id))
  return row?.status
}

async function roleIn(workspaceId: string, userId: string) {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
  return row?.role ?? null
}

describe('inviteMember', () => {
  test('records a pending invitation for 7 days and e-mails the address its link, in one commit', async () => {
    const { olga, workspace } = await team()
    const email = newAddress()
    const now = new Date('2030-01-01T12:00:00Z')
    const invitation = await inviteMember(db, as(olga), workspace.id, { email, role: 'member' }, now)

    expect(invitation).toMatchObject({ email, role: 'member', inviterName: 'Olga', isExpired: false })
    expect(new Date(invitation.expiresAt).getTime() - now.getTime()).toBe(
      WORKSPACE_LIMITS.invitationDays * DAY,
    )
    expect(await statusOf(invitation.id)).toBe('pending')
    const [mail, ...more] = await mailTo(email)
    expect(more).toEqual([])
    expect(mail?.subject).toBe('Olga invited you to Acme on Threadwork')
    const link = `http://localhost:3000/invitations/${invitation.id}`
    expect(mail?.text).toContain(link)
    expect(mail?.html).toContain(`href="${link}"`)
    expect(mail?.text).toContain('as a member')
    expect(mail?.text).toContain('The invitation expires in 7 days.')
  })

  test('the owner invites admins; an admin invites members only; a member invites nobody; an outsider finds no workspace', async () => {
    const { olga, ada, bob, workspace } = await team()
    const eve = await createUser(db)
    expect(
      (await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'admin' })).role,
    ).toBe('admin')
    expect(
      (await inviteMember(db, as(ada), workspace.id, { email: newAddress(), role: 'member' })).role,
    ).toBe('member')
    const refused = newAddress()
    await expect(inviteMember(db, as(ada), workspace.id, { email: refused, role: 'admin' })).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.inviteAdmin),
    )
    await expect(inviteMember(db, as(bob), workspace.id, { email: refused, role: 'member' })).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.invite),
    )
    await expect(inviteMember(db, as(eve), workspace.id, { email: refused, role: 'member' })).rejects.toEqual(
      new NotFound('Workspace not found'),
    )
    expect(await mailTo(refused)).toEqual([])
  })

  test('a personal workspace cannot be shared', async () => {
    const eve = await createUser(db)
    const email = newAddress()
    await expect(inviteMember(db, as(eve), eve.id, { email, role: 'member' })).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.personal),
    )
    expect(await db.$count(workspaceInvitations, eq(workspaceInvitations.email, email))).toBe(0)
  })

  test('a member’s address “is already a member”; an invited one “is already invited”', async () => {
    const { olga, bob, workspace } = await team()
    await expect(
      inviteMember(db, as(olga), workspace.id, { email: bob.email, role: 'member' }),
    ).rejects.toEqual(new Conflict(`${bob.email} is already a member.`))
    await expect(
      inviteMember(db, as(olga), workspace.id, { email: olga.email, role: 'admin' }),
    ).rejects.toEqual(new Conflict(`${olga.email} is already a member.`))
    const email = newAddress()
    await inviteMember(db, as(olga), workspace.id, { email, role: 'member' })
    await expect(inviteMember(db, as(olga), workspace.id, { email, role: 'admin' })).rejects.toEqual(
      new Conflict(`${email} is already invited.`),
    )
    expect(await mailTo(email)).toHaveLength(1)
  })

  test('an expired invitation makes way for a new one', async () => {
    const { olga, workspace } = await team()
    const email = newAddress()
    const first = await inviteMember(
      db,
      as(olga),
      workspace.id,
      { email, role: 'member' },
      new Date(Date.now() - 8 * DAY),
    )
    const second = await inviteMember(db, as(olga), workspace.id, { email, role: 'member' })
    expect(await statusOf(first.id)).toBe('canceled')
    expect(await statusOf(second.id)).toBe('pending')
  })

  describe('the owner’s plan limits the people in a workspace, pending invitations counted', () => {
    test('Free: 3 people — the owner, the admin, the member: nobody more until an invitation is revoked', async () => {
      const { olga, ada, bob, workspace } = await team({ plan: 'free' })
      const email = newAddress()
      const refusal = new Forbidden(
        'The Free plan allows 3 people in a workspace (pending invitations count). Revoke a pending invitation, or the workspace’s owner can move to a larger plan.',
      )
      await expect(inviteMember(db, as(olga), workspace.id, { email, role: 'member' })).rejects.toEqual(
        refusal,
      )
      // Bob leaves a place; a pending invitation takes it, and counts as the third person.
      await db.delete(workspaceMembers).where(eq(workspaceMembers.userId, bob.id))
      const pending = await inviteMember(db, as(ada), workspace.id, { email, role: 'member' })
      await expect(
        inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' }),
      ).rejects.toEqual(refusal)
      await revokeInvitation(db, as(olga), workspace.id, pending.id)
      await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' })
    })

    test('invitations sent at the same moment cannot pass it: the limit rides in the statement', async () => {
      const { olga, ada, bob, workspace } = await team({ plan: 'free' })
      await db.delete(workspaceMembers).where(eq(workspaceMembers.userId, bob.id))
      const emails = [newAddress(), newAddress(), newAddress()]
      const outcomes = await Promise.allSettled(
        emails.map((email, n) =>
          inviteMember(db, as(n === 1 ? ada : olga), workspace.id, { email, role: 'member' }),
        ),
      )
      expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected', 'rejected'])
      expect(await db.$count(workspaceInvitations, eq(workspaceInvitations.workspaceId, workspace.id))).toBe(
        1,
      )
      expect(await db.$count(emailOutbox, inArray(emailOutbox.to, emails))).toBe(1)
    })

    test('the members page reads how full the workspace is', async () => {
      const { olga, bob, workspace } = await team({ plan: 'free' })
      const eve = await createUser(db)
      expect(await peopleAllowance(db, as(bob), workspace.id)).toEqual({
        people: 3,
        limit: 3,
        planName: 'Free',
      })
      await db.update(users).set({ plan: 'tier3' }).where(eq(users.id, olga.id))
      await db.delete(workspaceMembers).where(eq(workspaceMembers.userId, bob.id))
      await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' })
      expect(await peopleAllowance(db, as(olga), workspace.id)).toEqual({
        people: 3,
        limit: null,
        planName: 'Agency',
      })
      await expect(peopleAllowance(db, as(eve), workspace.id)).rejects.toEqual(
        new NotFound('Workspace not found'),
      )
    })

    test('a paid owner’s plan decides for everyone in it: Solo 10 people, counted with pending invitations', async () => {
      const { olga, ada, workspace } = await team()
      for (let n = 3; n < 10; n++)
        await inviteMember(db, as(ada), workspace.id, { email: newAddress(), role: 'member' })
      await expect(
        inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' }),
      ).rejects.toThrow('The Solo plan allows 10 people in a workspace (pending invitations count).')
    })

    test('the admin’s own plan does not count, and a lapsed yearly plan is the free one', async () => {
      const { olga, ada, workspace } = await team({ plan: 'tier2', accessUntil: new Date(Date.now() - DAY) })
      await db.update(users).set({ plan: 'tier3', accessUntil: null }).where(eq(users.id, ada.id))
      await expect(
        inviteMember(db, as(ada), workspace.id, { email: newAddress(), role: 'member' }),
      ).rejects.toThrow('The Free plan allows 3 people')
      await db
        .update(users)
        .set({ accessUntil: new Date(Date.now() + DAY) })
        .where(eq(users.id, olga.id))
      await inviteMember(db, as(ada), workspace.id, { email: newAddress(), role: 'member' })
    })

    test('Team stops at 50 people; Agency has no limit', async () => {
      const { olga, workspace } = await team({ plan: 'tier2', accessUntil: null })
      // One after another: 47 accounts written at once keep a served database's one writer busy.
      const people = []
      for (let n = 0; n < 47; n++) people.push(await createUser(db))
      await db
        .insert(workspaceMembers)
        .values(
          people.map((person) => ({ workspaceId: workspace.id, userId: person.id, role: 'member' as const })),
        )
      await expect(
        inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' }),
      ).rejects.toThrow('The Team plan allows 50 people in a workspace')
      await db.update(users).set({ plan: 'tier3' }).where(eq(users.id, olga.id))
      await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' })
      await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' })
    })
  })

  test(`one person has at most ${WORKSPACE_LIMITS.pendingPerInviter} invitations waiting for an answer, in all their workspaces`, async () => {
    const { olga, ada, workspace } = await team({ plan: 'tier3', accessUntil: null })
    const other = await createTeamWorkspace(db, { ownerId: olga.id })
    const sent = []
    for (let n = 0; n < WORKSPACE_LIMITS.pendingPerInviter; n++) {
      sent.push(
        await inviteMember(db, as(olga), n % 2 ? workspace.id : other.id, {
          email: newAddress(),
          role: 'member',
        }),
      )
    }
    const email = newAddress()
    await expect(inviteMember(db, as(olga), workspace.id, { email, role: 'member' })).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.pendingPerInviter),
    )
    // Someone else's count is their own.
    await inviteMember(db, as(ada), workspace.id, { email, role: 'member' })
    // An answered invitation waits no more.
    const [first] = sent
    if (!first) throw new Error('none sent')
    await db
      .update(workspaceInvitations)
      .set({ status: 'accepted' })
      .where(eq(workspaceInvitations.id, first.id))
    await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' })
  })

  test(`a workspace sends at most ${WORKSPACE_LIMITS.invitationsPerDay} invitations a day, resent ones counted`, async () => {
    const { olga, ada, workspace } = await team({ plan: 'tier3', accessUntil: null })
    const now = new Date('2031-03-01T09:00:00Z')
    const invite = (who: User, at = now) =>
      inviteMember(db, as(who), workspace.id, { email: newAddress(), role: 'member' }, at)
    const sent = []
    for (let n = 0; n < 20; n++) sent.push(await invite(olga))
    for (let n = 0; n < 20; n++) sent.push(await invite(ada))
    for (const invitation of sent.slice(0, 20))
      await revokeInvitation(db, as(olga), workspace.id, invitation.id, now)
    for (let n = 0; n < 9; n++) sent.push(await invite(olga))
    const last = sent.at(-1)
    if (!last) throw new Error('none sent')
    await resendInvitation(db, as(olga), workspace.id, last.id, now)

    const refused = await invite(olga).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(RateLimited)
    expect(refused).toMatchObject({
      message: 'This workspace has sent its 50 invitations for today. Try again tomorrow.',
      status: 429,
    })
    expect((refused as RateLimited).retryAfter).toBeGreaterThan(23 * 60 * 60)
    await expect(resendInvitation(db, as(olga), workspace.id, last.id, now)).rejects.toBeInstanceOf(
      RateLimited,
    )
    // Another workspace has its own allowance, and the next day this one has its own again.
    const other = await createTeamWorkspace(db, { ownerId: olga.id })
    await revokeInvitation(db, as(olga), workspace.id, last.id, now)
    await inviteMember(db, as(olga), other.id, { email: newAddress(), role: 'member' }, now)
    await invite(olga, new Date(now.getTime() + DAY))
  })
})

describe('listInvitations, revokeInvitation, resendInvitation', () => {
  test('lists the invitations waiting for an answer, newest first, expired ones flagged', async () => {
    const { olga, ada, bob, workspace } = await team()
    const old = await inviteMember(
      db,
      as(olga),
      workspace.id,
      { email: newAddress(), role: 'admin' },
      new Date(Date.now() - 8 * DAY),
    )
    const fresh = await inviteMember(db, as(ada), workspace.id, { email: newAddress(), role: 'member' })
    const revoked = await inviteMember(db, as(ada), workspace.id, { email: newAddress(), role: 'member' })
    await revokeInvitation(db, as(ada), workspace.id, revoked.id)
    const listed = await listInvitations(db, as(ada), workspace.id)
    expect(listed.map((invitation) => [invitation.id, invitation.inviterName, invitation.isExpired])).toEqual(
      [
        [fresh.id, 'Ada', false],
        [old.id, 'Olga', true],
      ],
    )
    await expect(listInvitations(db, as(bob), workspace.id)).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.list),
    )
  })

  test('revoking cancels it once; a member may not; another workspace’s invitation is unknown', async () => {
    const { olga, ada, bob, workspace } = await team()
    const invitation = await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' })
    await expect(revokeInvitation(db, as(bob), workspace.id, invitation.id)).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.manage),
    )
    const elsewhere = await createTeamWorkspace(db, { ownerId: olga.id })
    await expect(revokeInvitation(db, as(olga), elsewhere.id, invitation.id)).rejects.toEqual(
      new NotFound(INVITATION_NOT_FOUND),
    )
    await revokeInvitation(db, as(ada), workspace.id, invitation.id)
    expect(await statusOf(invitation.id)).toBe('canceled')
    await expect(revokeInvitation(db, as(ada), workspace.id, invitation.id)).rejects.toEqual(
      new Conflict('This invitation was already revoked.'),
    )
  })

  test('resending gives it a new expiry in the sender’s name and e-mails it again; an answered one is not resent', async () => {
    const { olga, ada, bob, workspace } = await team()
    const email = newAddress()
    const then = new Date(Date.now() - 8 * DAY)
    const invitation = await inviteMember(db, as(olga), workspace.id, { email, role: 'member' }, then)
    expect((await listInvitations(db, as(olga), workspace.id))[0]?.isExpired).toBe(true)
    const resent = await resendInvitation(db, as(ada), workspace.id, invitation.id)
    expect(resent).toMatchObject({ id: invitation.id, isExpired: false, inviterName: 'Ada' })
    expect(new Date(resent.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * DAY)
    const mails = await mailTo(email)
    expect(mails.map((mail) => mail.subject)).toEqual([
      'Olga invited you to Acme on Threadwork',
      'Ada invited you to Acme on Threadwork',
    ])
    expect(mails[1]?.text).toContain(`/invitations/${invitation.id}`)
    await expect(resendInvitation(db, as(bob), workspace.id, invitation.id)).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.manage),
    )
    await db
      .update(workspaceInvitations)
      .set({ status: 'rejected' })
      .where(eq(workspaceInvitations.id, invitation.id))
    await expect(resendInvitation(db, as(ada), workspace.id, invitation.id)).rejects.toEqual(
      new Conflict(`${email} declined this invitation.`),
    )
    expect(await mailTo(email)).toHaveLength(2)
  })

  test('renewing an expired invitation counts it again toward the plan', async () => {
    const { olga, bob, workspace } = await team({ plan: 'free' })
    await db.delete(workspaceMembers).where(eq(workspaceMembers.userId, bob.id))
    const expired = await inviteMember(
      db,
      as(olga),
      workspace.id,
      { email: newAddress(), role: 'member' },
      new Date(Date.now() - 8 * DAY),
    )
    await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'member' })
    await expect(resendInvitation(db, as(olga), workspace.id, expired.id)).rejects.toThrow(
      'The Free plan allows 3 people',
    )
  })

  test('an admin invitation is the owner’s to resend', async () => {
    const { olga, ada, workspace } = await team()
    const invitation = await inviteMember(db, as(olga), workspace.id, { email: newAddress(), role: 'admin' })
    await expect(resendInvitation(db, as(ada), workspace.id, invitation.id)).rejects.toEqual(
      new Forbidden(INVITATION_REFUSALS.inviteAdmin),
    )
    await resendInvitation(db, as(olga), workspace.id, invitation.id)
  })
})

describe('the invitee: getInvitation, acceptInvitation, rejectInvitation', () => {
  async function invited(role: 'admin' | 'member' = 'member', at?: Date) {
    const setting = await team()
    const dan = await createUser(db, { name: 'Dan' })
    const invitation = await inviteMember(
      db,
      as(setting.olga),
      setting.workspace.id,
      { email: dan.email, role },
      at,
    )
    return { ...setting, dan, invitation }
  }

  test('the invited person, with the verified address, sees the workspace, who invited them and the role', async () => {
    const { dan, invitation, workspace } = await invited('admin')
    expect(await getInvitation(db, as(dan), invitation.id)).toMatchObject({
      id: invitation.id,
      email: dan.email,
      role: 'admin',
      status: 'pending',
      isExpired: false,
      inviterName: 'Olga',
      workspace: { id: workspace.id, name: 'Acme', slug: workspace.slug },
    })
    // The address is compared as stored, whatever its case in the session.
    expect((await getInvitation(db, { ...as(dan), email: dan.email.toUpperCase() }, invitation.id)).id).toBe(
      invitation.id,
    )
  })

  test('anyone else finds nothing, as for an unknown id; the invited address unverified is told to verify it', async () => {
    const { olga, invitation } = await invited()
    const notFound = new NotFound(INVITATION_NOT_FOUND)
    await expect(getInvitation(db, as(olga), invitation.id)).rejects.toEqual(notFound)
    await expect(getInvitation(db, as(olga), 'no-such-invitation')).rejects.toEqual(notFound)
    await expect(acceptInvitation(db, as(olga), invitation.id)).rejects.toEqual(notFound)
    await expect(rejectInvitation(db, as(olga), invitation.id)).rejects.toEqual(notFound)

    const unverified = await createUser(db, { emailVerifiedAt: null })
    const second = await invited()
    await db
      .update(workspaceInvitations)
      .set({ email: unverified.email })
      .where(eq(workspaceInvitations.id, second.invitation.id))
    const verify = new Forbidden(INVITATION_REFUSALS.verify)
    await expect(getInvitation(db, as(unverified), second.invitation.id)).rejects.toEqual(verify)
    await expect(acceptInvitation(db, as(unverified), second.invitation.id)).rejects.toEqual(verify)
    expect(await statusOf(second.invitation.id)).toBe('pending')
    expect(await statusOf(invitation.id)).toBe('pending')
  })

  test('accepting adds them with the role in the commit that marks it accepted, once', async () => {
    const { dan, invitation, workspace, olga } = await invited('admin')
    const task = await createTask(db, { userId: olga.id, workspaceId: workspace.id })
    await expect(getTask(db, as(dan), task.id)).rejects.toBeInstanceOf(NotFound)

    expect(await acceptInvitation(db, as(dan), invitation.id)).toEqual({
      workspace: { id: workspace.id, name: 'Acme', slug: workspace.slug },
      role: 'admin',
      wasMember: false,
    })
    expect(await statusOf(invitation.id)).toBe('accepted')
    expect(await roleIn(workspace.id, dan.id)).toBe('admin')
    expect((await getTask(db, as(dan), task.id)).task.id).toBe(task.id)

    await expect(acceptInvitation(db, as(dan), invitation.id)).rejects.toEqual(
      new Conflict('You already accepted this invitation.'),
    )
    await expect(rejectInvitation(db, as(dan), invitation.id)).rejects.toEqual(
      new Conflict('You already accepted this invitation.'),
    )
    expect(await getInvitation(db, as(dan), invitation.id)).toMatchObject({ status: 'accepted' })
  })

  test('an expired, revoked or declined invitation says so and does nothing', async () => {
    const expired = await invited('member', new Date(Date.now() - 8 * DAY))
    await expect(acceptInvitation(db, as(expired.dan), expired.invitation.id)).rejects.toEqual(
      new Conflict('This invitation has expired. Ask whoever invited you to send it again.'),
    )
    await expect(rejectInvitation(db, as(expired.dan), expired.invitation.id)).rejects.toBeInstanceOf(
      Conflict,
    )
    expect(await getInvitation(db, as(expired.dan), expired.invitation.id)).toMatchObject({
      status: 'pending',
      isExpired: true,
    })

    const revoked = await invited()
    await revokeInvitation(db, as(revoked.olga), revoked.workspace.id, revoked.invitation.id)
    await expect(acceptInvitation(db, as(revoked.dan), revoked.invitation.id)).rejects.toEqual(
      new Conflict('This invitation was revoked.'),
    )

    const declined = await invited()
    await rejectInvitation(db, as(declined.dan), declined.invitation.id)
    expect(await statusOf(declined.invitation.id)).toBe('rejected')
    await expect(acceptInvitation(db, as(declined.dan), declined.invitation.id)).rejects.toEqual(
      new Conflict('You declined this invitation.'),
    )

    for (const { workspace, dan } of [expired, revoked, declined])
      expect(await roleIn(workspace.id, dan.id)).toBeNull()
  })

  test('two answers at once: one of them is the answer', async () => {
    const { dan, invitation, workspace } = await invited()
    const outcomes = await Promise.allSettled([
      acceptInvitation(db, as(dan), invitation.id),
      rejectInvitation(db, as(dan), invitation.id),
      acceptInvitation(db, as(dan), invitation.id),
    ])
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1)
    const status = await statusOf(invitation.id)
    expect(await roleIn(workspace.id, dan.id)).toBe(status === 'accepted' ? 'member' : null)
  })

  test('someone who joined meanwhile keeps the role they have', async () => {
    const { dan, invitation, workspace } = await invited('admin')
    await db.insert(workspaceMembers).values({ workspaceId: workspace.id, userId: dan.id, role: 'member' })
    expect((await acceptInvitation(db, as(dan), invitation.id)).wasMember).toBe(true)
    expect(await roleIn(workspace.id, dan.id)).toBe('member')
    expect(await statusOf(invitation.id)).toBe('accepted')
  })

  test('an account whose address changed since cannot use the invitation of its old one', async () => {
    const { dan, invitation } = await invited()
    const stale = as(dan)
    await db.update(users).set({ email: 'dan.new@example.test' }).where(eq(users.id, dan.id))
    await expect(acceptInvitation(db, stale, invitation.id)).rejects.toBeInstanceOf(Conflict)
    expect(await statusOf(invitation.id)).toBe('pending')
  })
})

describe('getWorkspaceInvitation', () => {
  test('its owner and admins read it by id alone; a member is refused; anyone outside reads it as unknown', async () => {
    const { olga, ada, bob, workspace } = await team()
    const email = newAddress()
    const sent = await inviteMember(db, as(olga), workspace.id, { email, role: 'member' })
    await revokeInvitation(db, as(olga), workspace.id, sent.id)

    const read = await getWorkspaceInvitation(db, as(ada), sent.id)
    expect(read).toMatchObject({ id: sent.id, email, status: 'canceled', inviterEmail: olga.email })
    expect(read.workspace.id).toBe(workspace.id)
    await expect(getWorkspaceInvitation(db, as(bob), sent.id)).rejects.toThrow(INVITATION_REFUSALS.list)
    const stranger = await createUser(db)
    for (const id of [sent.id, 'no-such-invitation']) {
      const refusal = getWorkspaceInvitation(db, as(stranger), id)
      await expect(refusal).rejects.toBeInstanceOf(NotFound)
      await expect(getWorkspaceInvitation(db, as(stranger), id)).rejects.toThrow(INVITATION_NOT_FOUND)
    }
  })
})
