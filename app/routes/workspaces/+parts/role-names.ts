import type { WorkspaceRole } from '~/domain/workspaces'

/** A role as the workspace pages name it. */
export const ROLE_NAMES: Record<WorkspaceRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' }
