import { answerBetterAuth } from '~/auth/better-auth/api.server'
import type { Route } from './+types/auth'

/** /api/auth/*: the better-auth-compatible JSON API (app/auth/better-auth/). */

export async function loader(args: Route.LoaderArgs) {
  return answerBetterAuth(args)
}

/** POST, and the other methods React Router hands an action (PUT, PATCH, DELETE): those are 405. */
export async function action(args: Route.ActionArgs) {
  return answerBetterAuth(args)
}
