import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { findSession } from '~/services/sessions.server'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { getAuthApi as get, postAuthApi as post } from '../../../tests/helpers/better-auth'
import { createTeamWorkspace, createUser } from '../../../tests/helpers/factories'

/**
 * /api/auth/organization/*: better-auth's organization plugin on Threadwork's workspaces. Each
 * endpoint is called as `organizationClient()` calls it, and what it answers is pinned down; the
 * rules behind it are the workspace services' (their own tests hold them).
 */

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
const NOT_FOUND = { status: 404, data: { code: 'NOT_FOUND', message: 'Workspace not found' } }

async function person(overrides: Parameters<typeof createUser>[1] = {}) {
  const db = database()
  const user = await createUser(db, overrides)
  const browser = await signedInBrowser(db, user.id)
  return { user, browser, headers: { Cookie: browser.cookie } }
}

/** Olga owns Acme, with Bob as a member; Sam is in neither. */
async function acme() {
  const db = database()
  const olga = await person({ name: 'Olga' })
  const bob = await person({ name: 'Bob' })
  const sam = await person({ name: 'Sam' })
  const team = await createTeamWorkspace(db, {
    ownerId: olga.user.id,
    members: [{ userId: bob.user.id, role: 'member' }],
    name: 'Acme',
  })
  return { db, olga, bob, sam, team }
}

const pick = (answer: { status: number; data: unknown }) => ({ status: answer.status, data: answer.data })

describe('organizations', () => {
  test('create answers the organization with its owner, and the session works in it', async () => {
    const { user, browser, headers } = await person({ name: 'Cleo' })
    const answer = await post(
      'organization/create',
      { name: 'Cleo Co', slug: `cleo-${user.id.slice(0, 8)}` },
      { headers },
    )
    expect(answer.status).toBe(200)
    const created = answer.data as { id: string; members: unknown[] }
    expect(created).toEqual({
      id: expect.any(String),
      name: 'Cleo Co',
      slug: `cleo-${user.id.slice(0, 8)}`,
      logo: null,
      metadata: null,
      createdAt: ISO,
      members: [
        {
          id: user.id,
          organizationId: created.id,
          userId: user.id,
          role: 'owner',
          createdAt: ISO,
          user: { id: user.id, name: 'Cleo', email: user.email, image: null },
        },
      ],
    })
    expect((await findSession(database(), browser.session.token))?.user.activeWorkspaceId).toBe(created.id)
    const list = (await get('organization/list', { headers })).data as { id: string }[]
    // The personal workspace is an organization like any other, listed first.
    expect(list.map((organization) => organization.id)).toEqual([user.id, created.id])
  })

  test('bad input answers 400: a taken or malformed slug, a logo, malformed JSON', async () => {
    const { olga, team } = await acme()
    const { headers } = olga
    expect(
      (await post('organization/create', { name: 'Dup', slug: team.slug }, { headers })).data,
    ).toMatchObject({
      code: 'BAD_REQUEST',
      message: 'That address is taken.',
    })
    expect((await post('organization/create', { name: 'X', slug: 'Not A Slug' }, { headers })).status).toBe(
      400,
    )
    expect(
      (await post('organization/create', { name: 'X', slug: 'logo-co', logo: 'x.png' }, { headers })).status,
    ).toBe(400)
    const malformed = await post('organization/update', undefined, { headers, body: '{not json' })
    expect(pick(malformed)).toMatchObject({
      status: 400,
      data: { message: 'The request body must be JSON.' },
    })
    expect((await post('organization/create', { name: 'X', slug: 'x-x-x' })).status).toBe(401)
  })

  test('set-active, get-full-organization, update; null goes back to the personal workspace', async () => {
    const { olga, bob, team } = await acme()
    const set = await post('organization/set-active', { organizationId: team.id }, { headers: bob.headers })
    expect(set.data).toMatchObject({ id: team.id, name: 'Acme', slug: team.slug })
    expect((await get('get-session', { headers: bob.headers })).data).toMatchObject({
      session: { activeOrganizationId: team.id },
    })
    const sessions = (await get('list-sessions', { headers: bob.headers })).data as {
      activeOrganizationId: string
    }[]
    expect(sessions.map((session) => session.activeOrganizationId)).toEqual([team.id])

    const full = (await get('organization/get-full-organization', { headers: bob.headers })).data as {
      members: { userId: string; role: string }[]
      invitations: unknown[]
    }
    expect(full).toMatchObject({ id: team.id, name: 'Acme' })
    expect(full.members.map((member) => [member.userId, member.role])).toEqual([
      [olga.user.id, 'owner'],
      [bob.user.id, 'member'],
    ])
    expect(full.invitations).toEqual([])
    expect((await get('organization/get-active-member', { headers: bob.headers })).data).toMatchObject({
      id: bob.user.id,
      organizationId: team.id,
      role: 'member',
    })

    // A member may not rename it: the service's refusal.
    expect(
      (await post('organization/update', { data: { name: 'Mine' } }, { headers: bob.headers })).status,
    ).toBe(403)
    const renamed = await post(
      'organization/update',
      { organizationId: team.id, data: { name: 'Acme Ltd' } },
      olga,
    )
    expect(renamed.data).toMatchObject({ id: team.id, name: 'Acme Ltd' })

    const back = await post('organization/set-active', { organizationId: null }, { headers: bob.headers })
    expect(back.data).toMatchObject({ id: bob.user.id })
    expect((await get('get-session', { headers: bob.headers })).data).toMatchObject({
      session: { activeOrganizationId: bob.user.id },
    })
  })

  test('a workspace the caller is not in answers as an unknown one: 404', async () => {
    const { sam, team } = await acme()
    const { headers } = sam
    for (const id of [team.id, 'no-such-workspace']) {
      expect(pick(await post('organization/set-active', { organizationId: id }, { headers }))).toEqual(
        NOT_FOUND,
      )
      expect(pick(await get(`organization/get-full-organization?organizationId=${id}`, { headers }))).toEqual(
        NOT_FOUND,
      )
      expect(
        pick(await post('organization/update', { organizationId: id, data: { name: 'Z' } }, { headers })),
      ).toEqual(NOT_FOUND)
      expect(pick(await post('organization/delete', { organizationId: id }, { headers }))).toEqual(NOT_FOUND)
      expect(pick(await post('organization/leave', { organizationId: id }, { headers }))).toEqual(NOT_FOUND)
      expect(pick(await get(`organization/list-invitations?organizationId=${id}`, { headers }))).toEqual(
        NOT_FOUND,
      )
      const invite = await post(
        'organization/invite-member',
        { organizationId: id, email: 'a@example.test', role: 'member' },
        { headers },
      )
      expect(pick(invite)).toEqual(NOT_FOUND)
      const remove = await post(
        'organization/remove-member',
        { organizationId: id, memberIdOrEmail: sam.user.id },
        { headers },
      )
      expect(pick(remove)).toEqual(NOT_FOUND)
    }
    expect(
      pick(await get(`organization/get-full-organization?organizationSlug=${team.slug}`, { headers })),
    ).toEqual(NOT_FOUND)
  })

  test('delete: only the owner, and the organization is gone', async () => {
    const { olga, bob, team } = await acme()
    expect(
      (await post('organization/delete', { organizationId: team.id }, { headers: bob.headers })).status,
    ).toBe(403)
    const deleted = await post('organization/delete', { organizationId: team.id }, { headers: olga.headers })
    expect(deleted.data).toMatchObject({ id: team.id, name: 'Acme' })
    // Gone for everyone at once: for its owner and its member, as an unknown one.
    for (const { headers } of [olga, bob]) {
      const list = (await get('organization/list', { headers })).data as { id: string }[]
      expect(list.map((organization) => organization.id)).not.toContain(team.id)
      expect(
        pick(await get(`organization/get-full-organization?organizationId=${team.id}`, { headers })),
      ).toEqual(NOT_FOUND)
    }
    // A personal workspace cannot be deleted.
    expect(
      (await post('organization/delete', { organizationId: olga.user.id }, { headers: olga.headers })).status,
    ).toBe(403)
  })
})
