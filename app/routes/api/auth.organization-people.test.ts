import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { ROLE_REFUSED } from '~/services/workspaces/invitation-schemas'
import { INVITATION_NOT_FOUND } from '~/services/workspaces/invitations.server'
import { MEMBER_NOT_FOUND } from '~/services/workspaces/members.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { getAuthApi as get, postAuthApi as post } from '../../../tests/helpers/better-auth'
import { createTeamWorkspace, createUser } from '../../../tests/helpers/factories'

/**
 * The people of an organization over /api/auth/organization/*: invitations and members, as
 * `organizationClient()` calls them, on the invitations and members services.
 */

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)

async function person(overrides: Parameters<typeof createUser>[1] = {}) {
  const db = database()
  const user = await createUser(db, overrides)
  const browser = await signedInBrowser(db, user.id)
  return { user, headers: { Cookie: browser.cookie } }
}

/** Olga owns Acme, with Ada as an admin and Bob as a member; Sam is in neither. */
async function acme() {
  const olga = await person({ name: 'Olga', plan: 'tier1', accessUntil: null })
  const ada = await person({ name: 'Ada' })
  const bob = await person({ name: 'Bob' })
  const sam = await person({ name: 'Sam' })
  const team = await createTeamWorkspace(database(), {
    ownerId: olga.user.id,
    members: [
      { userId: ada.user.id, role: 'admin' },
      { userId: bob.user.id, role: 'member' },
    ],
    name: 'Acme',
  })
  return { olga, ada, bob, sam, team }
}

const pick = (answer: { status: number; data: unknown }) => ({ status: answer.status, data: answer.data })

describe('invitations', () => {
  test('invite, list, read, accept: the invitee joins and works in the workspace', async () => {
    const { olga, team } = await acme()
    const dan = await person({ name: 'Dan' })
    const sent = await post(
      'organization/invite-member',
      { organizationId: team.id, email: dan.user.email.toUpperCase(), role: ['member'] },
      { headers: olga.headers },
    )
    expect(sent.status).toBe(200)
    const invitation = sent.data as { id: string }
    expect(invitation).toEqual({
      id: expect.any(String),
      organizationId: team.id,
      email: dan.user.email,
      role: 'member',
      status: 'pending',
      inviterId: olga.user.id,
      expiresAt: ISO,
      createdAt: ISO,
    })
    const listed = await get(`organization/list-invitations?organizationId=${team.id}`, {
      headers: olga.headers,
    })
    expect(listed.data).toEqual([invitation])

    const read = await get(`organization/get-invitation?id=${invitation.id}`, { headers: dan.headers })
    expect(read.data).toEqual({
      ...invitation,
      organizationName: 'Acme',
      organizationSlug: team.slug,
      inviterEmail: olga.user.email,
    })

    const accepted = await post(
      'organization/accept-invitation',
      { invitationId: invitation.id },
      { headers: dan.headers },
    )
    expect(accepted.data).toMatchObject({
      invitation: { id: invitation.id, status: 'accepted' },
      member: { id: dan.user.id, userId: dan.user.id, organizationId: team.id, role: 'member' },
    })
    expect((await get('organization/get-active-member', { headers: dan.headers })).data).toMatchObject({
      organizationId: team.id,
    })
    // Answered once: a second answer is refused.
    expect(
      (
        await post(
          'organization/reject-invitation',
          { invitationId: invitation.id },
          { headers: dan.headers },
        )
      ).status,
    ).toBe(409)
  })

  test('reject and cancel answer the invitation with its new status', async () => {
    const { olga, ada, team } = await acme()
    const dan = await person()
    const invite = async (email: string) =>
      (
        await post(
          'organization/invite-member',
          { organizationId: team.id, email, role: 'member' },
          { headers: olga.headers },
        )
      ).data as {
        id: string
      }
    const first = await invite(dan.user.email)
    expect(
      (await post('organization/reject-invitation', { invitationId: first.id }, { headers: dan.headers }))
        .data,
    ).toMatchObject({
      invitation: { id: first.id, status: 'rejected' },
      member: null,
    })
    const second = await invite('someone.else@example.test')
    expect(
      (await post('organization/cancel-invitation', { invitationId: second.id }, { headers: ada.headers }))
        .data,
    ).toMatchObject({
      id: second.id,
      organizationId: team.id,
      status: 'canceled',
    })
  })

  test('refusals come from the services: a bad role 400, a member 403, an outsider or unknown id 404', async () => {
    const { olga, bob, sam, team } = await acme()
    const owner = await post(
      'organization/invite-member',
      { organizationId: team.id, email: 'new@example.test', role: 'owner' },
      olga,
    )
    expect(pick(owner)).toMatchObject({ status: 400, data: { message: ROLE_REFUSED } })
    const byMember = await post(
      'organization/invite-member',
      { organizationId: team.id, email: 'new@example.test', role: 'member' },
      bob,
    )
    expect(byMember.status).toBe(403)
    expect(
      (await get(`organization/list-invitations?organizationId=${team.id}`, { headers: bob.headers })).status,
    ).toBe(403)

    const sent = (
      await post(
        'organization/invite-member',
        { organizationId: team.id, email: 'x@example.test', role: 'member' },
        olga,
      )
    ).data as { id: string }
    const unknown = { status: 404, data: { code: 'NOT_FOUND', message: INVITATION_NOT_FOUND } }
    for (const invitationId of [sent.id, 'no-such-invitation']) {
      expect(
        pick(await post('organization/cancel-invitation', { invitationId }, { headers: sam.headers })),
      ).toEqual(unknown)
      expect(
        pick(await post('organization/accept-invitation', { invitationId }, { headers: sam.headers })),
      ).toEqual(unknown)
      expect(
        pick(await post('organization/reject-invitation', { invitationId }, { headers: sam.headers })),
      ).toEqual(unknown)
      expect(
        pick(await get(`organization/get-invitation?id=${invitationId}`, { headers: sam.headers })),
      ).toEqual(unknown)
    }
    expect((await get('organization/get-invitation', { headers: sam.headers })).status).toBe(400)
    expect((await post('organization/accept-invitation', {}, { headers: sam.headers })).status).toBe(400)
  })
})

describe('members', () => {
  test('update-member-role and remove-member, by id or address, in the active workspace by default', async () => {
    const { olga, ada, bob, team } = await acme()
    await post('organization/set-active', { organizationId: team.id }, { headers: olga.headers })
    const promoted = await post(
      'organization/update-member-role',
      { memberId: bob.user.id, role: 'admin' },
      olga,
    )
    expect(promoted.data).toMatchObject({
      id: bob.user.id,
      organizationId: team.id,
      role: 'admin',
      user: { name: 'Bob' },
    })

    const removed = await post(
      'organization/remove-member',
      { memberIdOrEmail: ada.user.email },
      { headers: olga.headers },
    )
    expect(removed.data).toMatchObject({ member: { id: ada.user.id, role: 'admin' } })
    const full = (await get('organization/get-full-organization', { headers: olga.headers })).data as {
      members: { id: string }[]
    }
    expect(full.members.map((member) => member.id)).toEqual([olga.user.id, bob.user.id])
  })

  test('refusals: a bad role 400, a member 403, an unknown member 404, the owner cannot leave', async () => {
    const { olga, ada, bob, team } = await acme()
    const organizationId = team.id
    const owner = await post(
      'organization/update-member-role',
      { organizationId, memberId: bob.user.id, role: 'owner' },
      olga,
    )
    expect(pick(owner)).toMatchObject({ status: 400, data: { message: ROLE_REFUSED } })
    const two = await post(
      'organization/update-member-role',
      { organizationId, memberId: bob.user.id, role: ['admin', 'member'] },
      olga,
    )
    expect(two.status).toBe(400)
    expect(
      (
        await post(
          'organization/remove-member',
          { organizationId, memberIdOrEmail: ada.user.id },
          { headers: bob.headers },
        )
      ).status,
    ).toBe(403)
    const nobody = await post(
      'organization/remove-member',
      { organizationId, memberIdOrEmail: 'nobody' },
      olga,
    )
    expect(pick(nobody)).toEqual({ status: 404, data: { code: 'NOT_FOUND', message: MEMBER_NOT_FOUND } })
    expect((await post('organization/leave', { organizationId }, { headers: olga.headers })).status).toBe(403)
    expect((await post('organization/leave', {}, { headers: bob.headers })).status).toBe(400)
  })

  test('leave answers the member who left; their session falls back to the personal workspace', async () => {
    const { bob, team } = await acme()
    await post('organization/set-active', { organizationId: team.id }, { headers: bob.headers })
    const left = await post('organization/leave', { organizationId: team.id }, { headers: bob.headers })
    expect(left.data).toMatchObject({ id: bob.user.id, organizationId: team.id, role: 'member' })
    expect((await get('get-session', { headers: bob.headers })).data).toMatchObject({
      session: { activeOrganizationId: bob.user.id },
    })
    expect((await get('organization/get-active-member', { headers: bob.headers })).data).toMatchObject({
      role: 'owner',
    })
  })
})
