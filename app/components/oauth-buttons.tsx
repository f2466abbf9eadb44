import { useNavigation } from 'react-router'
import { type OAuthProvider, oauthStartPath, PROVIDER_NAMES } from '~/auth/oauth-providers'
import { ActionForm } from '~/components/action-form'
import { Button } from '~/components/ui/button'

/**
 * 'Continue with GitHub' / 'Continue with Google': one small form per configured provider, so it
 * works without JavaScript. Pass the providers from `configuredProviders()` (auth/oauth) in
 * the page's loader; an unconfigured provider simply has no button. `redirect` is where the
 * person lands after signing in (a local path; the server checks it again). `divider` adds the
 * "or" line above an e-mail form that follows.
 */
export function OAuthButtons({
  providers,
  redirect,
  divider = false,
}: {
  providers: OAuthProvider[]
  redirect?: string
  divider?: boolean
}) {
  const navigation = useNavigation()
  if (providers.length === 0) return null
  return (
    <>
      <div className="flex flex-col gap-2">
        {providers.map((provider) => {
          const action = oauthStartPath(provider)
          const isPending = navigation.state !== 'idle' && navigation.formAction === action
          const name = PROVIDER_NAMES[provider]
          return (
            <ActionForm key={provider} action={action}>
              {redirect ? <input type="hidden" name="redirect" value={redirect} /> : null}
              {/* Not disabled while pending: after Back from the provider the page may come back as it was left. */}
              <Button type="submit" variant="outline" className="w-full">
                {isPending ? `Opening ${name}…` : `Continue with ${name}`}
              </Button>
            </ActionForm>
          )
        })}
      </div>
      {divider ? <OAuthDivider /> : null}
    </>
  )
}

/** The line between the provider buttons and the e-mail form. */
function OAuthDivider() {
  return (
    <div className="flex items-center gap-3 text-xs uppercase text-muted-foreground">
      <span className="h-px flex-1 bg-border" />
      or
      <span className="h-px flex-1 bg-border" />
    </div>
  )
}
