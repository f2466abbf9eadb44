import QRCode from 'qrcode'
import { data, Link } from 'react-router'
import { clientIp } from '~/auth/client-ip.server'
import { requireUser } from '~/auth/context.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { database } from '~/db/client.server'
import { handleForm } from '~/http/form-action.server'
import { keepRetryAfter } from '~/http/refusals.server'
import { getAccount } from '~/services/profile.server'
import {
  beginTwoFactor,
  confirmTwoFactor,
  type Proof,
  regenerateRecoveryCodes,
  turnOffTwoFactor,
  twoFactorSecret,
  twoFactorStatus,
} from '~/services/two-factor.server'
import {
  ConfirmTwoFactorSchema,
  TurnOnTwoFactorSchema,
  TwoFactorProofSchema,
} from '~/services/two-factor-schemas'
import { redirectWithToast } from '~/toast.server'
import { readFormData } from '~/utils/form-data.server'
import { useKeptActionData } from '~/utils/use-kept-action-data'
import { z } from '~/utils/zod'
import {
  ConfirmSetup,
  ProofForm,
  RecoveryCodes,
  TurnOnForm,
  type TwoFactorActionData,
} from './+parts/two-factor-forms'
import type { Route } from './+types/two-factor'

export const meta: Route.MetaFunction = () => [{ title: 'Two-factor sign-in | Threadwork' }]

export const headers: Route.HeadersFunction = keepRetryAfter

/**
 * /settings/two-factor: turning two-factor sign-in on (a QR code drawn on the server, the URI and
 * secret as text, a code to confirm), the recovery codes (shown once, as a .txt too),
 * regenerating them, and turning it off. Every form works without JavaScript.
 */
export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { user } = await requireUser(request, context, url)
  const db = database()
  const [state, account] = await Promise.all([twoFactorStatus(db, user.id), getAccount(db, user.id)])
  const setup = state.status === 'pending' ? await twoFactorSecret(db, user.id) : null
  return data(
    {
      ...state,
      hasPassword: account.hasPassword,
      setup: setup
        ? { ...setup, qrSvg: await QRCode.toString(setup.uri, { type: 'svg', margin: 1, width: 200 }) }
        : null,
    },
    // The page carries the secret while setting up: never stored by a cache.
    { headers: { 'Cache-Control': 'private, no-store' } },
  )
}

/** The page's forms, each named by its hidden `intent` field. */
const TwoFactorIntent = z.discriminatedUnion('intent', [
  TurnOnTwoFactorSchema.safeExtend({ intent: z.literal('begin') }),
  ConfirmTwoFactorSchema.safeExtend({ intent: z.literal('confirm') }),
  TwoFactorProofSchema.safeExtend({ intent: z.literal('regenerate') }),
  TwoFactorProofSchema.safeExtend({ intent: z.literal('turn-off') }),
])

export async function action({ request, context, url }: Route.ActionArgs) {
  const { user, session } = await requireUser(request, context, url)
  // Wrong codes given as proof count against this address, as at sign-in.
  const proofFrom = ({ password, code }: Proof) => ({ password, code, ip: clientIp(request, context) })
  const db = database()
  return handleForm(
    await readFormData(request),
    TwoFactorIntent,
    {
      begin: async (proof) => {
        const setup = await beginTwoFactor(db, user.id, proofFrom(proof))
        return data({ intent: 'begin' as const, result: null, recoveryCodes: setup.recoveryCodes })
      },
      confirm: async ({ code }) => {
        await confirmTwoFactor(db, user.id, code, session.id)
        return redirectWithToast('/settings/two-factor', {
          type: 'success',
          title: 'Two-factor sign-in is on',
          description: 'Your other devices were signed out.',
        })
      },
      regenerate: async (proof) => {
        const recoveryCodes = await regenerateRecoveryCodes(db, user.id, proofFrom(proof))
        return data({ intent: 'regenerate' as const, result: null, recoveryCodes })
      },
      'turn-off': async (proof) => {
        await turnOffTwoFactor(db, user.id, proofFrom(proof))
        return redirectWithToast('/settings/two-factor', {
          type: 'success',
          title: 'Two-factor sign-in is off',
        })
      },
    },
    { hideFields: ['password', 'code'] },
  )
}

export default function TwoFactorSettings({ loaderData, actionData: answered }: Route.ComponentProps) {
  const { status, setup, hasPassword, recoveryCodesLeft } = loaderData
  const actionData = useKeptActionData(answered) as TwoFactorActionData
  const shownCodes = actionData && 'recoveryCodes' in actionData ? actionData.recoveryCodes : undefined
  return (
    <main className="mx-auto flex max-w-3xl flex-col gap-8 px-4 py-12">
      <div>
        <Link to="/settings" className="text-sm text-primary underline-offset-4 hover:underline">
          ← Settings
        </Link>
        <h1 className="mt-2 text-2xl font-semibold">Two-factor sign-in</h1>
        <p className="text-sm text-muted-foreground">
          {status === 'on'
            ? `On. ${recoveryCodesLeft} of 10 recovery codes left.`
            : 'After your password (or GitHub, or Google), Threadwork asks for a code from an authenticator app.'}
        </p>
      </div>
      {shownCodes ? <RecoveryCodes codes={shownCodes} /> : null}
      {status === 'pending' && setup ? <ConfirmSetup setup={setup} actionData={actionData} /> : null}
      {status !== 'on' ? (
        <TurnOnForm hasPassword={hasPassword} isRestart={status === 'pending'} actionData={actionData} />
      ) : null}
      {status === 'on' ? (
        <>
          <ProofForm
            intent="regenerate"
            title="Recovery codes"
            description="New codes replace the old ones, used or not."
            button="Generate new recovery codes"
            hasPassword={hasPassword}
            actionData={actionData}
          />
          <ProofForm
            intent="turn-off"
            title="Turn off"
            description="Sign-in will ask only for your password (or GitHub, or Google) again."
            button="Turn off two-factor sign-in"
            hasPassword={hasPassword}
            actionData={actionData}
          />
        </>
      ) : null}
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
