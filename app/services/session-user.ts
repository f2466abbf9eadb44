/** The signed-in user as the session resolves them, for pages, RPC procedures and MCP tools alike. */
export type SessionUser = {
  id: string
  name: string
  email: string
  image: string | null
  emailVerified: boolean
}

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
