import { and, eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { workspaceInvitations, workspaceMembers } from '~/db/schema'
import { toSessionUser } from '~/services/sessions.server'
import { inviteMember, revokeInvitation } from '~/services/workspaces/invitations.server'
import { readToast } from '~/toast.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createTeamWorkspace, createUser } from '../../../tests/helpers/factories'
import { buttons, links, renderRoute, visibleText } from '../../../tests/helpers/html'
import { buildRequest, callAction, callLoader, cookieHeaderFrom } from '../../../tests/helpers/route'
import Invitation, { action, loader } from './invitation'

/**
 * /invitations/<id>, the link of an invitation e-mail, for every kind of reader: a visitor, the
 * invited person (verified or not), anyone else; and its two forms, Accept and Decline, as a
 * browser without JavaScript posts them.
 */

const db = database()
const DAY = 24 * 60 * 60 * 1000

type Reply = { intent?: string | null; result?: { error?: Record<string, string[] | null> } | null }
const errorsOf = (data: unknown) => (data as Reply).result?.error?.[''] ?? undefined

async function toastOf(headers: Headers) {
  return (await readToast(buildRequest({ headers: { Cookie: cookieHeaderFrom(headers) } }))).toast
}

/** Olga invites Dan to Acme, as an admin; `at` backdates the invitation. */
async function invitation({ at, verified = true }: { at?: Date; verified?: boolean } = {}) {
  const olga = await createUser(db, { name: 'Olga', plan: 'tier1', accessUntil: null })
  const dan = await createUser(db, { name: 'Dan', emailVerifiedAt: verified ? new Date() : null })
  const workspace = await createTeamWorkspace(db, { ownerId: olga.id, members: [], name: 'Acme' })
  const invited = await inviteMember(
    db,
    toSessionUser(olga),
    workspace.id,
    { email: dan.email, role: 'admin' },
    at,
  )
  const url = `/invitations/${invited.id}`
  const params = { invitationId: invited.id }
  const browserOf = async (user: { id: string }) => {
    const browser = await signedInBrowser(db, user.id)
    return {
      page: () => callLoader(loader, { url, params, headers: { Cookie: browser.cookie } }),
      post: (intent: string) =>
        callAction(action, {
          url,
          params,
          headers: { Cookie: browser.cookie },
          form: browser.form({ intent }),
        }),
    }
  }
  return { olga, dan, workspace, invited, url, params, as: browserOf }
}

const render = (loaderData: unknown, actionData?: unknown) =>
  renderRoute(
    { id: 'routes/invitations/invitation', path: '/invitations/abc', Component: Invitation },
    { loaderData, actionData },
  )

async function memberRole(workspaceId: string, userId: string) {
  const [row] = await db
    .select({ role: workspaceMembers.role })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.workspaceId, workspaceId), eq(workspaceMembers.userId, userId)))
  return row?.role ?? null
}

describe('who sees what', () => {
  test('a visitor is asked to sign in or sign up, each coming back here, and learns nothing of it', async () => {
    const { url, params } = await invitation()
    const page = await callLoader(loader, { url, params })
    expect(page.status).toBe(200)
    expect(page.headers.get('Cache-Control')).toBe('private, no-store')
    const back = encodeURIComponent(url)
    expect(page.data).toEqual({
      state: 'signed-out',
      signInHref: `/login?redirect=${back}`,
      signUpHref: `/signup?redirect=${back}`,
    })
    const html = render(page.data)
    expect(links(html)).toEqual(
      expect.arrayContaining([
        { text: 'Sign in', href: `/login?redirect=${back}` },
        { text: 'Create an account', href: `/signup?redirect=${back}` },
      ]),
    )
    expect(visibleText(html)).not.toContain('Acme')
  })

  test('the invited person sees the workspace, who invited them, the role, and Accept and Decline', async () => {
    const { dan, as } = await invitation()
    const page = await (await as(dan)).page()
    expect(page.status).toBe(200)
    const html = render(page.data)
    const text = visibleText(html)
    expect(text).toContain('Join Acme')
    expect(text).toContain('Workspace Acme')
    expect(text).toContain('Invited by Olga')
    expect(text).toContain('Role Admin')
    expect(buttons(html)).toEqual(['Accept', 'Decline'])
  })

  test('anyone else is told it is not theirs, exactly as for an id that does not exist', async () => {
    const { olga, url, params } = await invitation()
    const eve = await createUser(db)
    const browser = await signedInBrowser(db, eve.id)
    const theirs = await callLoader(loader, { url, params, headers: { Cookie: browser.cookie } })
    const unknown = await callLoader(loader, {
      url: '/invitations/no-such-invitation',
      params: { invitationId: 'no-such-invitation' },
      headers: { Cookie: browser.cookie },
    })
    expect(theirs).toMatchObject({ status: 404, data: { state: 'not-found', email: eve.email } })
    expect(unknown.status).toBe(404)
    expect(unknown.data).toEqual(theirs.data)
    const text = visibleText(render(theirs.data))
    expect(text).toContain('Invitation not found')
    expect(text).not.toMatch(/Acme|Olga/)
    // The inviter too: it is not their invitation to answer.
    const inviter = await signedInBrowser(db, olga.id)
    expect((await callLoader(loader, { url, params, headers: { Cookie: inviter.cookie } })).status).toBe(404)
  })

  test('the invited address, not verified yet: asked to verify it, and told nothing of the workspace', async () => {
    const { dan, as } = await invitation({ verified: false })
    const page = await (await as(dan)).page()
    expect(page).toMatchObject({ status: 403, data: { state: 'unverified', email: dan.email } })
    const html = render(page.data)
    expect(visibleText(html)).toContain('Verify that address to see it')
    expect(visibleText(html)).not.toMatch(/Acme|Olga/)
    expect(buttons(html)).toEqual(['Send a new verification link'])
    expect(html).toContain('action="/email/request-verification"')
  })
})

describe('accept', () => {
  test('joins the workspace with the invited role and lands on its members page with a toast', async () => {
    const { dan, workspace, as } = await invitation()
    const browser = await as(dan)
    const answer = await browser.post('accept')
    expect(answer).toMatchObject({ status: 302, location: `/workspaces/${workspace.slug}/members` })
    expect(await toastOf(answer.headers)).toMatchObject({ type: 'success', title: 'You joined Acme' })
    expect(await memberRole(workspace.id, dan.id)).toBe('admin')

    const after = await browser.page()
    const html = render(after.data)
    expect(visibleText(html)).toContain('You already accepted this invitation.')
    expect(buttons(html)).toEqual([])
    expect(links(html)).toContainEqual({ text: 'Open Acme', href: `/workspaces/${workspace.slug}/members` })

    const again = await browser.post('accept')
    expect(again.status).toBe(409)
    expect(errorsOf(again.data)).toEqual(['You already accepted this invitation.'])
  })

  test('an expired invitation says so, offers no buttons, and accepting it does nothing', async () => {
    const { dan, workspace, as } = await invitation({ at: new Date(Date.now() - 8 * DAY) })
    const browser = await as(dan)
    const page = await browser.page()
    const html = render(page.data)
    expect(visibleText(html)).toContain(
      'This invitation has expired. Ask whoever invited you to send it again.',
    )
    expect(buttons(html)).toEqual([])
    const answer = await browser.post('accept')
    expect(answer.status).toBe(409)
    expect(await memberRole(workspace.id, dan.id)).toBeNull()
  })

  test('a revoked invitation says so', async () => {
    const { olga, dan, workspace, invited, as } = await invitation()
    await revokeInvitation(db, toSessionUser(olga), workspace.id, invited.id)
    const browser = await as(dan)
    expect(visibleText(render((await browser.page()).data))).toContain('This invitation was revoked.')
    const answer = await browser.post('accept')
    expect(answer.status).toBe(409)
    expect(errorsOf(answer.data)).toEqual(['This invitation was revoked.'])
  })

  test('someone else’s invitation: 404, nothing changes; a visitor is sent to sign in', async () => {
    const { workspace, invited, url, params } = await invitation()
    const eve = await createUser(db)
    const browser = await signedInBrowser(db, eve.id)
    const answer = await callAction(action, {
      url,
      params,
      headers: { Cookie: browser.cookie },
      form: browser.form({ intent: 'accept' }),
    })
    expect(answer.status).toBe(404)
    expect(errorsOf(answer.data)).toEqual(['Invitation not found'])
    expect(await memberRole(workspace.id, eve.id)).toBeNull()
    const visitor = await callAction(action, { url, params, form: { intent: 'accept' } })
    expect(visitor).toMatchObject({ status: 302, location: `/login?redirect=${encodeURIComponent(url)}` })
    const [row] = await db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, invited.id))
    expect(row?.status).toBe('pending')
  })
})

describe('decline', () => {
  test('marks it declined and comes back here, where the page says so', async () => {
    const { dan, workspace, invited, url, as } = await invitation()
    const browser = await as(dan)
    const answer = await browser.post('decline')
    expect(answer).toMatchObject({ status: 302, location: url })
    expect(await toastOf(answer.headers)).toMatchObject({ type: 'info', title: 'Invitation declined' })
    const [row] = await db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, invited.id))
    expect(row?.status).toBe('rejected')
    expect(visibleText(render((await browser.page()).data))).toContain('You declined this invitation.')
    expect((await browser.post('accept')).status).toBe(409)
    expect(await memberRole(workspace.id, dan.id)).toBeNull()
  })

  test('an answer the page does not know: 400, and nothing changes', async () => {
    const { dan, invited, as } = await invitation()
    const answer = await (await as(dan)).post('maybe')
    expect(answer).toMatchObject({ status: 400, data: { intent: null, result: null } })
    const [row] = await db.select().from(workspaceInvitations).where(eq(workspaceInvitations.id, invited.id))
    expect(row?.status).toBe('pending')
  })
})
