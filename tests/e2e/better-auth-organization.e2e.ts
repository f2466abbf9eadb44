import { linkIn } from '../fixtures/smtp-server'
import { authClient, type Result } from './better-auth-client'
import { expect, test } from './fixtures'
import { waitForEmail } from './smtp-inbox'
import { uniqueAddress } from './unique'

/**
 * docs/product-rules.md §1 and §5: workspaces answer better-auth's organization plugin at
 * /api/auth/organization/*, so its own `organizationClient()` works unchanged. Three people drive
 * it through a workspace's life: Olga owns it, Dan and Eve are invited.
 */
test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'no browser involved; runs once')

const PASSWORD = 'a long enough password'

/** A person with their own client, signed up and (for an invitee) with a verified address. */
async function signedUp(baseURL: string, name: string, project: string, { verified = false } = {}) {
  const { client, refreshCsrf } = await authClient(baseURL, { withOrganization: true })
  const email = uniqueAddress(name.toLowerCase(), project)
  const signUp = (await client.signUp.email({ name, email, password: PASSWORD })) as Result<{
    user: { id: string }
  }>
  expect(signUp.error).toBeNull()
  await refreshCsrf()
  if (verified) {
    const link = linkIn(await waitForEmail(email, 'Verify your e-mail address'), '/email/verify-email')
    const token = link.searchParams.get('token') ?? ''
    expect((await client.verifyEmail({ query: { token } })).data).toMatchObject({ status: true })
  }
  return { client, email, id: signUp.data.user.id, organization: client.organization }
}

const dataOf = <Data>(result: Result) => {
  expect(result.error).toBeNull()
  return result.data as Data
}

test('organizationClient(): create, invite, answer, manage members, leave and delete', async ({
  baseURL,
}, testInfo) => {
  test.setTimeout(120_000)
  const url = baseURL as string
  const project = testInfo.project.name
  const olga = await signedUp(url, 'Olga', project)
  const dan = await signedUp(url, 'Dan', project, { verified: true })
  const eve = await signedUp(url, 'Eve', project, { verified: true })

  const slug = `org-${Date.now().toString(36)}`
  const created = dataOf<{ id: string; members: { role: string }[] }>(
    await olga.organization.create({ name: 'Olga Org', slug }),
  )
  expect(created).toMatchObject({ name: 'Olga Org', slug, logo: null, members: [{ role: 'owner' }] })
  const organizationId = created.id
  const listed = dataOf<{ id: string }[]>(await olga.organization.list())
  // Her personal workspace is an organization like any other.
  expect(listed.map((organization) => organization.id).sort()).toEqual([olga.id, organizationId].sort())

  expect(dataOf(await olga.organization.setActive({ organizationId }))).toMatchObject({ id: organizationId })
  expect(dataOf(await olga.client.getSession())).toMatchObject({
    session: { activeOrganizationId: organizationId },
  })
  expect(dataOf(await olga.organization.getFullOrganization())).toMatchObject({
    id: organizationId,
    members: [{ userId: olga.id, role: 'owner', user: { name: 'Olga' } }],
  })
  expect(dataOf(await olga.organization.update({ data: { name: 'Olga & Co' } }))).toMatchObject({
    name: 'Olga & Co',
  })

  const invite = async (email: string) =>
    dataOf<{ id: string }>(await olga.organization.inviteMember({ email, role: 'member' })).id
  const forDan = await invite(dan.email)
  const pending = dataOf<{ id: string; status: string }[]>(await olga.organization.listInvitations())
  expect(pending).toEqual([expect.objectContaining({ id: forDan, email: dan.email, status: 'pending' })])
  expect(dataOf(await dan.organization.getInvitation({ query: { id: forDan } }))).toMatchObject({
    organizationId,
    organizationName: 'Olga & Co',
    inviterEmail: olga.email,
  })
  expect(dataOf(await dan.organization.acceptInvitation({ invitationId: forDan }))).toMatchObject({
    invitation: { status: 'accepted' },
    member: { userId: dan.id, role: 'member' },
  })
  expect(dataOf(await dan.organization.getActiveMember())).toMatchObject({ organizationId, role: 'member' })
  expect(dataOf(await olga.organization.updateMemberRole({ memberId: dan.id, role: 'admin' }))).toMatchObject(
    {
      userId: dan.id,
      role: 'admin',
    },
  )

  const declined = await invite(eve.email)
  expect(dataOf(await eve.organization.rejectInvitation({ invitationId: declined }))).toMatchObject({
    invitation: { status: 'rejected' },
    member: null,
  })
  const revoked = await invite(uniqueAddress('nobody', project))
  expect(dataOf(await dan.organization.cancelInvitation({ invitationId: revoked }))).toMatchObject({
    status: 'canceled',
  })
  // Someone outside it reads an invitation of it as unknown.
  expect((await eve.organization.cancelInvitation({ invitationId: forDan })).error).toMatchObject({
    status: 404,
  })

  const forEve = await invite(eve.email)
  dataOf(await eve.organization.acceptInvitation({ invitationId: forEve }))
  expect(dataOf(await olga.organization.removeMember({ memberIdOrEmail: dan.id }))).toMatchObject({
    member: { userId: dan.id },
  })
  expect(dataOf(await eve.organization.leave({ organizationId }))).toMatchObject({ userId: eve.id })
  expect(dataOf(await eve.client.getSession())).toMatchObject({ session: { activeOrganizationId: eve.id } })

  expect(dataOf(await olga.organization.delete({ organizationId }))).toMatchObject({ id: organizationId })
  const after = dataOf<{ id: string }[]>(await olga.organization.list())
  expect(after.map((organization) => organization.id)).toEqual([olga.id])
  expect((await olga.organization.getFullOrganization({ query: { organizationId } })).error).toMatchObject({
    status: 404,
  })
})
