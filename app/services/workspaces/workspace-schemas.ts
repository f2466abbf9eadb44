import { WORKSPACE_LIMITS } from '~/domain/workspaces'
import { z } from '~/utils/zod'

/**
 * A workspace's fields as every entry point accepts them: the /workspaces forms (conform) and the
 * service, which parses again whatever it is handed. Messages are what people read next to the
 * field. An address (slug) is taken as typed or refused: never lower-cased, trimmed or otherwise
 * rewritten, so the address a person reads back is the one they chose.
 */
const { name, slug } = WORKSPACE_LIMITS

export const SLUG_TAKEN = 'That address is taken.'
/** Refusals the pages also say before anyone tries (a member's settings, the owner's). */
export const MANAGERS_ONLY = "Only the workspace's owner and admins can change its name and address."
export const OWNER_CANNOT_LEAVE = 'Transfer the workspace to an admin before you leave.'
export const CONFIRM_NAME_MESSAGE = "Type the workspace's name to delete it."

const WorkspaceNameSchema = z
  .string({ error: 'Name is required' })
  .trim()
  .min(name.minLength, 'Name is required')
  .max(name.maxLength, `Name must be at most ${name.maxLength} characters`)

const WorkspaceSlugSchema = z
  .string({ error: 'Address is required' })
  .min(slug.minLength, `Address must be ${slug.minLength} to ${slug.maxLength} characters`)
  .max(slug.maxLength, `Address must be ${slug.minLength} to ${slug.maxLength} characters`)
  .regex(new RegExp(`^${slug.pattern}$`), 'Address may hold only lower-case letters, digits and hyphens')

export const CreateWorkspaceSchema = z.object({ name: WorkspaceNameSchema, slug: WorkspaceSlugSchema })
export type NewWorkspace = z.input<typeof CreateWorkspaceSchema>

/** A rename: the name, the address, or both; what is left out stays as it is. */
export const UpdateWorkspaceSchema = z.object({
  name: WorkspaceNameSchema.optional(),
  slug: WorkspaceSlugSchema.optional(),
})
export type WorkspaceChanges = z.input<typeof UpdateWorkspaceSchema>

export const TransferWorkspaceSchema = z.object({
  toUserId: z.string({ error: 'Choose an admin' }).min(1, 'Choose an admin'),
})

/** The name typed to confirm a deletion, compared exactly as typed. */
export const DeleteWorkspaceSchema = z.object({
  confirmName: z.string({ error: CONFIRM_NAME_MESSAGE }).min(1, CONFIRM_NAME_MESSAGE),
})
