import { startOAuthProvider } from '../fixtures/oauth-provider'

/**
 * Starts the local OAuth provider (the GitHub and Google stand-in) in the runner, on the port the
 * config chose and handed to the app server, for the whole run. The app calls it only during a
 * sign-in, so whether the app server starts before or after it does not matter.
 */
export default async function startLocalOAuthProvider() {
  const provider = await startOAuthProvider({
    appBaseUrl: `http://127.0.0.1:${process.env.E2E_PORT}`,
    port: Number(process.env.E2E_OAUTH_PORT),
  })
  return () => provider.close()
}
