import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { emailOutbox, users, workspaceInvitations, workspaceMembers } from '~/db/schema'
import { MEMBER_REFUSALS } from '~/domain/workspaces'
import { toSessionUser } from '~/services/sessions.server'
import { ROLE_REFUSED } from '~/services/workspaces/invitation-schemas'
import { inviteMember } from '~/services/workspaces/invitations.server'
import { readToast } from '~/toast.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createTeamWorkspace, createUser } from '../../../tests/helpers/factories'
import { buttons, renderRoute, textContent, visibleText } from '../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import WorkspaceMembers, { action, loader } from './members'

/**
 * /workspaces/<slug>/members as a browser without JavaScript posts it: every form (invite, change
 * a role, remove someone, resend and revoke an invitation) with the session cookie, what each
 * leaves in the database and the toast it comes back with; what each reader sees of the page.
 */

const db = database()

type Reply = { intent?: string | null; result?: { error?: Record<string, string[] | null> } | null }
const errorsOf = (data: unknown, field = '') => (data as Reply).result?.error?.[field] ?? undefined

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

/** Olga owns Acme, on the Solo plan; Ada is its admin and Bob a member. Each has a browser. */
async function acme() {
  const olga = await createUser(db, { name: 'Olga', plan: 'tier1', accessUntil: null })
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
  const url = `/workspaces/${workspace.slug}/members`
  const browserOf = async (user: typeof olga) => {
    const browser = await signedInBrowser(db, user.id)
    return {
      page: () =>
        callLoader(loader, { url, params: { slug: workspace.slug }, headers: { Cookie: browser.cookie } }),
      post: (fields: Record<string, string>) =>
        callAction(action, {
          url,
          params: { slug: workspace.slug },
          headers: { Cookie: browser.cookie },
          form: browser.form(fields),
        }),
    }
  }
  return { olga, ada, bob, workspace, url, as: browserOf }
}

const render = (loaderData: unknown, actionData?: unknown) =>
  renderRoute(
    { id: 'routes/workspaces/members', path: '/workspaces/acme/members', Component: WorkspaceMembers },
    { loaderData, actionData },
  )

async function roleOf(workspaceId: string, userId: string) {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
  return row?.role ?? null
}

describe('the page', () => {
  test('sends a visitor to sign in and back', async () => {
    const answer = await callLoader(loader, { url: '/workspaces/acme/members', params: { slug: 'acme' } })
    expect(answer).toMatchObject({ status: 302, location: '/login?redirect=%2Fworkspaces%2Facme%2Fmembers' })
  })

  test('a workspace the person is not in is a 404, as one that does not exist', async () => {
    const { workspace } = await acme()
    const eve = await signedInBrowser(db, (await createUser(db)).id)
    for (const slug of [workspace.slug, 'no-such-workspace']) {
      const answer = await callLoader(loader, {
        url: `/workspaces/${slug}/members`,
        params: { slug },
        headers: { Cookie: eve.cookie },
      })
      expect(answer).toMatchObject({ status: 404, thrown: true, data: 'Workspace not found' })
    }
  })

  test('the owner sees everyone with roles, the controls for each, the invite form and the empty state', async () => {
    const { olga, ada, bob, as } = await acme()
    const page = await (await as(olga)).page()
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')
    expect(page.data.members.map((member) => [member.name, member.role])).toEqual([
      ['Olga', 'owner'],
      ['Ada', 'admin'],
      ['Bob', 'member'],
    ])
    expect(page.data.invitations).toEqual([])
    expect(page.data.allowance).toEqual({ people: 3, limit: 10, planName: 'Solo' })

    const html = render(page.data)
    const text = visibleText(html)
    expect(text).toContain('People of Acme')
    expect(text).toContain(
      '3 people of the 10 the Solo plan allows, pending invitations counted. You are its owner.',
    )
    expect(text).toContain('No pending invitations.')
    expect(textContent(html)).toContain('Olga You')
    expect(html).toContain(`aria-label="Change role of ${ada.name}"`)
    expect(html).toContain(`aria-label="Remove ${bob.name}"`)
    expect(html).not.toContain('aria-label="Remove Olga"')
    expect(html).not.toContain('aria-label="Change role of Olga"')
    expect(buttons(html)).toContain('Send invitation')
    expect(html).toContain('<option value="admin">Admin</option>')
  })

  test('an admin removes members only, changes no role and invites members only', async () => {
    const { ada, as } = await acme()
    const html = render((await (await as(ada)).page()).data)
    expect(html).toContain('aria-label="Remove Bob"')
    expect(html).not.toContain('aria-label="Remove Olga"')
    expect(html).not.toContain('Change role')
    expect(html).not.toContain('<option value="admin">')
    expect(visibleText(html)).toContain('Only the workspace’s owner invites admins.')
  })

  test('a member reads the list and nothing more', async () => {
    const { olga, bob, workspace, as } = await acme()
    await inviteMember(db, toSessionUser(olga), workspace.id, {
      email: 'someone@example.test',
      role: 'member',
    })
    const page = await (await as(bob)).page()
    expect(page.data.invitations).toEqual([])
    const html = render(page.data)
    expect(buttons(html)).toEqual([])
    expect(visibleText(html)).toContain(
      'The workspace’s owner and admins invite people and change who is in it.',
    )
    expect(visibleText(html)).not.toContain('someone@example.test')
    expect(visibleText(html)).toContain('Olga')
  })

  test('a personal workspace shows its one person and says it cannot be shared', async () => {
    const eve = await createUser(db, { name: 'Eve' })
    const browser = await signedInBrowser(db, eve.id)
    const [personal] = await db.select().from(workspaceMembers).where(eq(workspaceMembers.userId, eve.id))
    const slug = (
      await db.query.workspaces.findFirst({ where: (w, { eq }) => eq(w.id, personal?.workspaceId ?? '') })
    )?.slug
    const page = await callLoader(loader, {
      url: `/workspaces/${slug}/members`,
      params: { slug: slug ?? '' },
      headers: { Cookie: browser.cookie },
    })
    const html = render(page.data)
    expect(visibleText(html)).toContain('it is yours alone and cannot be shared')
    expect(buttons(html)).toEqual([])
  })
})

describe('invite', () => {
  test('sends the invitation, e-mails it and comes back with a toast; it is then listed', async () => {
    const { ada, workspace, as } = await acme()
    const browser = await as(ada)
    const answer = await browser.post({ intent: 'invite', email: ' Dan@Example.TEST ', role: 'member' })
    expect(answer).toMatchObject({ status: 302, location: `/workspaces/${workspace.slug}/members` })
    expect(await toastOf(answer.headers)).toMatchObject({
      type: 'success',
      title: 'Invitation sent',
      description: 'dan@example.test has 7 days to accept it.',
    })
    const [invitation] = await db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.workspaceId, workspace.id))
    expect(invitation).toMatchObject({ email: 'dan@example.test', role: 'member', status: 'pending' })
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'dan@example.test'))
    expect(mail?.text).toContain(`/invitations/${invitation?.id}`)

    const html = render((await browser.page()).data)
    expect(visibleText(html)).toContain('dan@example.test')
    expect(visibleText(html)).toContain('Invited by Ada')
    expect(textContent(html)).toContain('dan@example.test Member')
    expect(html).toContain('aria-label="Resend the invitation to dan@example.test"')
    expect(html).toContain('aria-label="Revoke the invitation to dan@example.test"')
  })

  test('a bad address, or a role that is not admin or member, answers 400 beside the field', async () => {
    const { olga, as } = await acme()
    const browser = await as(olga)
    const bad = await browser.post({ intent: 'invite', email: 'not an address', role: 'member' })
    expect(bad.status).toBe(400)
    expect(bad.data).toMatchObject({ intent: 'invite' })
    expect(errorsOf(bad.data, 'email')).toEqual(['Enter a valid e-mail address'])
    const owner = await browser.post({ intent: 'invite', email: 'dan@example.test', role: 'owner' })
    expect(owner.status).toBe(400)
    expect(errorsOf(owner.data, 'role')).toEqual([ROLE_REFUSED])
    expect(await db.$count(workspaceInvitations, eq(workspaceInvitations.inviterId, olga.id))).toBe(0)
  })

  test('a member’s address: 409, “is already a member.”, shown above the form', async () => {
    const { olga, bob, as } = await acme()
    const browser = await as(olga)
    const answer = await browser.post({ intent: 'invite', email: bob.email, role: 'member' })
    expect(answer.status).toBe(409)
    expect(errorsOf(answer.data)).toEqual([`${bob.email} is already a member.`])
    expect(visibleText(render((await browser.page()).data, answer.data))).toContain(
      `${bob.email} is already a member.`,
    )
  })

  test('an admin inviting an admin, or a member inviting anyone: 403 with the reason', async () => {
    const { ada, bob, as } = await acme()
    const admin = await (await as(ada)).post({ intent: 'invite', email: 'dan@example.test', role: 'admin' })
    expect(admin.status).toBe(403)
    expect(errorsOf(admin.data)).toEqual(['Only the workspace’s owner invites admins.'])
    const member = await (await as(bob)).post({ intent: 'invite', email: 'dan@example.test', role: 'member' })
    expect(member.status).toBe(403)
    expect(errorsOf(member.data)).toEqual(['Only the workspace’s owner and admins invite people.'])
  })

  test('past the owner’s plan: 403 naming the plan', async () => {
    const { olga, as } = await acme()
    await db.update(users).set({ plan: 'free' }).where(eq(users.id, olga.id))
    const answer = await (await as(olga)).post({
      intent: 'invite',
      email: 'dan@example.test',
      role: 'member',
    })
    expect(answer.status).toBe(403)
    expect(errorsOf(answer.data)?.[0]).toMatch(
      /^The Free plan allows 3 people in a workspace \(pending invitations count\)\./,
    )
  })

  test('a workspace the person is not in: 404, and nothing is sent', async () => {
    const { workspace } = await acme()
    const email = 'nobody-invited@example.test'
    const eve = await signedInBrowser(db, (await createUser(db)).id)
    const answer = await callAction(action, {
      url: `/workspaces/${workspace.slug}/members`,
      params: { slug: workspace.slug },
      headers: { Cookie: eve.cookie },
      form: eve.form({ intent: 'invite', email, role: 'member' }),
    })
    expect(answer.status).toBe(404)
    expect(errorsOf(answer.data)).toEqual(['Workspace not found'])
    expect(await db.$count(emailOutbox, eq(emailOutbox.to, email))).toBe(0)
  })
})

describe('change-role and remove-member', () => {
  test('the owner makes Bob an admin, then Ada a member', async () => {
    const { olga, ada, bob, workspace, as } = await acme()
    const browser = await as(olga)
    const promoted = await browser.post({ intent: 'change-role', userId: bob.id, role: 'admin' })
    expect(promoted).toMatchObject({ status: 302, location: `/workspaces/${workspace.slug}/members` })
    expect(await toastOf(promoted.headers)).toMatchObject({ title: 'Role changed' })
    expect(await roleOf(workspace.id, bob.id)).toBe('admin')
    expect((await browser.post({ intent: 'change-role', userId: ada.id, role: 'member' })).status).toBe(302)
    expect(await roleOf(workspace.id, ada.id)).toBe('member')
  })

  test('nobody is made owner: 400 beside the role; an admin making an admin: 403', async () => {
    const { olga, ada, bob, workspace, as } = await acme()
    const owner = await (await as(olga)).post({ intent: 'change-role', userId: bob.id, role: 'owner' })
    expect(owner.status).toBe(400)
    expect(errorsOf(owner.data, 'role')).toEqual([ROLE_REFUSED])
    const admin = await (await as(ada)).post({ intent: 'change-role', userId: bob.id, role: 'admin' })
    expect(admin.status).toBe(403)
    expect(errorsOf(admin.data)).toEqual([MEMBER_REFUSALS.makeAdmin])
    expect(await roleOf(workspace.id, bob.id)).toBe('member')
    expect(visibleText(render((await (await as(ada)).page()).data, admin.data))).toContain(
      MEMBER_REFUSALS.makeAdmin,
    )
  })

  test('an admin removes Bob; nobody removes the owner; an unknown member is a 404', async () => {
    const { olga, ada, bob, workspace, as } = await acme()
    const browser = await as(ada)
    const removed = await browser.post({ intent: 'remove-member', userId: bob.id })
    expect(removed).toMatchObject({ status: 302, location: `/workspaces/${workspace.slug}/members` })
    expect(await toastOf(removed.headers)).toMatchObject({ title: 'Removed from the workspace' })
    expect(await roleOf(workspace.id, bob.id)).toBeNull()
    const owner = await browser.post({ intent: 'remove-member', userId: olga.id })
    expect(owner.status).toBe(403)
    expect(errorsOf(owner.data)).toEqual([MEMBER_REFUSALS.removeOwner])
    const gone = await browser.post({ intent: 'remove-member', userId: bob.id })
    expect(gone.status).toBe(404)
    expect(errorsOf(gone.data)).toEqual(['Member not found'])
  })
})

describe('revoke-invitation and resend-invitation', () => {
  test('resending e-mails it again; revoking takes it off the list', async () => {
    const { olga, workspace, as } = await acme()
    const email = 'resent@example.test'
    const invitation = await inviteMember(db, toSessionUser(olga), workspace.id, { email, role: 'member' })
    const browser = await as(olga)

    const resent = await browser.post({ intent: 'resend-invitation', invitationId: invitation.id })
    expect(resent).toMatchObject({ status: 302, location: `/workspaces/${workspace.slug}/members` })
    expect(await toastOf(resent.headers)).toMatchObject({ title: 'Invitation sent again' })
    expect(await db.$count(emailOutbox, eq(emailOutbox.to, email))).toBe(2)

    const revoked = await browser.post({ intent: 'revoke-invitation', invitationId: invitation.id })
    expect(revoked.status).toBe(302)
    expect(await toastOf(revoked.headers)).toMatchObject({ title: 'Invitation revoked' })
    expect((await browser.page()).data.invitations).toEqual([])

    const again = await browser.post({ intent: 'revoke-invitation', invitationId: invitation.id })
    expect(again.status).toBe(409)
    expect(errorsOf(again.data)).toEqual(['This invitation was already revoked.'])
    const unknown = await browser.post({ intent: 'resend-invitation', invitationId: 'no-such-invitation' })
    expect(unknown.status).toBe(404)
    expect(errorsOf(unknown.data)).toEqual(['Invitation not found'])
  })

  test('a member may do neither', async () => {
    const { olga, bob, workspace, as } = await acme()
    const invitation = await inviteMember(db, toSessionUser(olga), workspace.id, {
      email: 'dan@example.test',
      role: 'member',
    })
    const browser = await as(bob)
    for (const intent of ['resend-invitation', 'revoke-invitation']) {
      const answer = await browser.post({ intent, invitationId: invitation.id })
      expect(answer.status).toBe(403)
    }
    const [row] = await db
      .select()
      .from(workspaceInvitations)
      .where(eq(workspaceInvitations.id, invitation.id))
    expect(row?.status).toBe('pending')
  })

  test('an intent the page does not know: 400, and nothing changes', async () => {
    const { olga, as } = await acme()
    const answer = await (await as(olga)).post({ intent: 'transfer', userId: 'x' })
    expect(answer).toMatchObject({ status: 400, data: { intent: null, result: null } })
  })
})
