/** The signed-in user as every door sees it (the spec's "Session user"). */
export type SessionUser = {
  id: string
  name: string
  email: string
  image: string | null
  emailVerified: boolean
}
