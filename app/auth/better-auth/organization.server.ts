import { database } from '~/db/client.server'
import { managesWorkspace } from '~/domain/workspaces'
import { NotFound } from '~/services/errors'
import type { SignedInUser } from '~/services/session-user'
import { setActiveWorkspace } from '~/services/sessions.server'
import { WorkspaceIdSchema } from '~/services/tasks/task-schemas'
import { listInvitations } from '~/services/workspaces/invitations.server'
import { MEMBER_NOT_FOUND } from '~/services/workspaces/members.server'
import { personalWorkspaceId } from '~/services/workspaces/membership.server'
import {
  getWorkspace,
  getWorkspaceBySlug,
  listMembers,
  listWorkspaces,
} from '~/services/workspaces/reads.server'
import { createWorkspace, deleteWorkspace, updateWorkspace } from '~/services/workspaces/workspaces.server'
import { z } from '~/utils/zod'
import { type BetterAuthArgs, requireSession } from './endpoints.server'
import { invitationJson, memberJson, NoLogo, NoMetadata, organizationJson } from './organization-json.server'
import { body, json, query } from './responses.server'

/**
 * better-auth's organization plugin (`organizationClient()`) on Threadwork's workspaces: its paths,
 * inputs and answers, each endpoint one call of the workspace service the /workspaces pages use,
 * so permissions, limits and refusals are theirs. A workspace the caller is not in answers as an
 * unknown one (404 NOT_FOUND). Where better-auth defaults to the session's active organization,
 * so does this: the workspace the session works in, the personal one until another is chosen.
 */

export type Endpoint = (args: BetterAuthArgs) => Promise<Response>

/** The organization named by id or slug, else the session's: as the person stands in it. */
export function organizationFor(
  user: SignedInUser,
  input: { organizationId?: string | undefined; organizationSlug?: string | undefined },
) {
  const db = database()
  if (input.organizationSlug !== undefined) return getWorkspaceBySlug(db, user, input.organizationSlug)
  return getWorkspace(db, user, input.organizationId ?? user.activeWorkspaceId)
}

/** The person's own membership of a workspace they are in, as better-auth's member. */
export async function ownMember(user: SignedInUser, organizationId: string) {
  const members = await listMembers(database(), user, organizationId)
  const member = members.find((candidate) => candidate.userId === user.id)
  if (!member) throw new NotFound(MEMBER_NOT_FOUND)
  return memberJson(organizationId, member)
}

const OrganizationQuery = z.object({
  organizationId: WorkspaceIdSchema.optional(),
  organizationSlug: z.string().max(100).optional(),
})

const ORGANIZATION_GET_ENDPOINTS: Record<string, Endpoint> = {
  'organization/list': async (args) => {
    const { user } = await requireSession(args)
    return json((await listWorkspaces(database(), user)).map(organizationJson))
  },

  'organization/get-full-organization': async (args) => {
    const { user } = await requireSession(args)
    const input = query(
      args.request,
      OrganizationQuery.extend({ membersLimit: z.coerce.number().int().min(1).optional() }),
    )
    const db = database()
    const workspace = await organizationFor(user, input)
    const members = await listMembers(db, user, workspace.id)
    // Only its owner and admins see its invitations, as on the members page.
    const invitations = managesWorkspace(workspace.role) ? await listInvitations(db, user, workspace.id) : []
    return json({
      ...organizationJson(workspace),
      members: members.slice(0, input.membersLimit).map((member) => memberJson(workspace.id, member)),
      invitations: invitations.map((invitation) => invitationJson(workspace.id, invitation)),
    })
  },

  'organization/get-active-member': async (args) => {
    const { user } = await requireSession(args)
    return json(await ownMember(user, user.activeWorkspaceId))
  },
}

const ORGANIZATION_POST_ENDPOINTS: Record<string, Endpoint> = {
  'organization/create': async (args) => {
    const { user, session } = await requireSession(args)
    const input = await body(
      args.request,
      z.object({
        name: z.string(),
        slug: z.string(),
        logo: NoLogo,
        metadata: NoMetadata,
        keepCurrentActiveOrganization: z.boolean().optional(),
      }),
    )
    const db = database()
    const workspace = await createWorkspace(db, user, { name: input.name, slug: input.slug })
    if (!input.keepCurrentActiveOrganization)
      await setActiveWorkspace(db, { id: session.id, userId: user.id }, workspace.id)
    return json({ ...organizationJson(workspace), members: [await ownMember(user, workspace.id)] })
  },

  /**
   * `organizationId: null` unsets better-auth's active organization; a Threadwork session always
   * works in one workspace, so it goes back to the personal one, and answers it.
   */
  'organization/set-active': async (args) => {
    const { user, session } = await requireSession(args)
    const input = await body(
      args.request,
      z.object({
        organizationId: WorkspaceIdSchema.nullable().optional(),
        organizationSlug: z.string().max(100).optional(),
      }),
    )
    const workspace = await organizationFor(user, {
      organizationId: input.organizationId === null ? personalWorkspaceId(user) : input.organizationId,
      organizationSlug: input.organizationId ? undefined : input.organizationSlug,
    })
    await setActiveWorkspace(database(), { id: session.id, userId: user.id }, workspace.id)
    return json(organizationJson(workspace))
  },

  'organization/update': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(
      args.request,
      z.object({
        data: z.object({
          name: z.string().optional(),
          slug: z.string().optional(),
          logo: NoLogo,
          metadata: NoMetadata,
        }),
        organizationId: WorkspaceIdSchema.optional(),
      }),
    )
    const workspace = await updateWorkspace(
      database(),
      user,
      input.organizationId ?? user.activeWorkspaceId,
      { name: input.data.name, slug: input.data.slug },
    )
    return json(organizationJson(workspace))
  },

  /**
   * The owner deletes it, as on its settings page; the name the page has them type is the one it
   * has now (an API client confirms by calling).
   */
  'organization/delete': async (args) => {
    const { user } = await requireSession(args)
    const input = await body(args.request, z.object({ organizationId: WorkspaceIdSchema }))
    const db = database()
    const workspace = await getWorkspace(db, user, input.organizationId)
    await deleteWorkspace(db, user, workspace.id, workspace.name)
    return json(organizationJson(workspace))
  },
}

/** Its organizations, by method; their people are in organization-people.server.ts. */
export const ORGANIZATION_ENDPOINTS = { GET: ORGANIZATION_GET_ENDPOINTS, POST: ORGANIZATION_POST_ENDPOINTS }
