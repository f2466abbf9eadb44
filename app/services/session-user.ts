/** The signed-in user as the session resolves them, for pages, RPC procedures and MCP tools alike. */
export type SessionUser = {
  id: string
  name: string
  email: string
  image: string | null
  emailVerified: boolean
}

/**
 * The signed-in person as a session resolves them for pages: the `SessionUser`, and the workspace
 * that session works in (the header's switcher), read with the session in the same statement
 * (sessions.server.ts). A session's choice counts only while the person is in that workspace; else,
 * and before any choice, it is their personal workspace. Services never take this: a page passes
 * `activeWorkspaceId` to the service that works in a workspace, and the person as an `Actor`.
 */
export type SignedInUser = SessionUser & { activeWorkspaceId: string }

/**
 * The signed-in person a service acts for, reduced to what its rules read: who they are, and the
 * address through which shares reach them once verified. Every service whose rules ask who may see
 * what (tasks, comments, mentions, search, notifications, chats) takes this type, and a
 * `SessionUser` is one, so a caller passes what the session gave it. A service about one
 * person's own account (profile, sessions, two-factor, passkeys, access) takes their `userId`
 * instead: no one else's rule applies there.
 */
export type Actor = Pick<SessionUser, 'id' | 'email' | 'emailVerified'>

/** Who reads: the signed-in person, or a visitor who is not signed in (`null`). */
export type Viewer = Actor | null
