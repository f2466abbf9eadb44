/** The signed-in user as every door sees it (the spec's "Session user"). */
export type SessionUser = {
  id: string
  name: string
  email: string
  image: string | null
  emailVerified: boolean
}

/**
 * The signed-in person a service acts for, reduced to what its rules read: who they are, and the
 * address through which shares reach them once verified. Every service takes this one type; a
 * `SessionUser` is one, so a door passes what the session gave it.
 */
export type Actor = Pick<SessionUser, 'id' | 'email' | 'emailVerified'>

/** Who reads: the signed-in person, or a visitor who is not signed in (`null`). */
export type Viewer = Actor | null
