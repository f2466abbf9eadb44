import { data, Link } from 'react-router'
import { requireAdmin } from '~/auth/admin.server'
import { startSupportSession } from '~/auth/sign-in-as.server'
import { ActionButton } from '~/components/action-form'
import { RouteErrorScreen } from '~/components/error-screens'
import { Badge } from '~/components/ui/badge'
import { database } from '~/db/client.server'
import { listAudit } from '~/services/admin/audit.server'
import {
  disablePerson,
  enablePerson,
  endAllSessions,
  getPerson,
  resendVerification,
} from '~/services/admin/people.server'
import { NotFound } from '~/services/errors'
import { describeUserAgent } from '~/utils/user-agent'
import { z } from '~/utils/zod'
import { adminAction } from './+parts/admin-actions.server'
import { AdminPage, When } from './+parts/admin-page'
import { AuditTable } from './+parts/audit-table'
import type { Route } from './+types/person'

/**
 * /admin/people/:userId: one person's account (no task, comment or chat of theirs) and the support
 * actions on it, each audited: resend the verification e-mail, end every session, disable or
 * enable, and "sign in as".
 */

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `${loaderData?.person.email ?? 'Person'} | Admin | Threadwork` },
]

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context)
  const db = database()
  try {
    const [person, audit] = await Promise.all([
      getPerson(db, params.userId),
      listAudit(db, { userId: params.userId }),
    ])
    return { person, audit }
  } catch (error) {
    if (error instanceof NotFound) throw data(error.message, { status: 404 })
    throw error
  }
}

const Intent = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('resend-verification') }),
  z.object({ intent: z.literal('end-sessions') }),
  z.object({ intent: z.literal('disable') }),
  z.object({ intent: z.literal('enable') }),
  z.object({ intent: z.literal('sign-in-as') }),
])

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context)
  const db = database()
  const { userId } = params
  return adminAction(request, Intent, `/admin/people/${encodeURIComponent(userId)}`, {
    'resend-verification': async () => {
      await resendVerification(db, admin, userId)
      return { type: 'success', title: 'Verification e-mail sent' }
    },
    'end-sessions': async () => {
      await endAllSessions(db, admin, userId)
      return { type: 'success', title: 'Every session ended' }
    },
    disable: async () => {
      await disablePerson(db, admin, userId)
      return { type: 'success', title: 'Account disabled', description: 'Every session has ended.' }
    },
    enable: async () => {
      await enablePerson(db, admin, userId)
      return { type: 'success', title: 'Account enabled' }
    },
    'sign-in-as': async () => startSupportSession(admin, userId, request, context),
  })
}

export default function AdminPerson({ loaderData, actionData }: Route.ComponentProps) {
  const { person, audit } = loaderData
  return (
    <AdminPage title={person.name || person.email} description={person.email} refusal={actionData?.refusal}>
      <section aria-labelledby="admin-person-account" className="rounded-lg border p-4">
        <h2 id="admin-person-account" className="text-lg font-semibold">
          Account
        </h2>
        <dl className="mt-3 grid grid-cols-1 gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
          <dt className="text-muted-foreground">Signed up</dt>
          <dd>
            <When at={person.createdAt} />
          </dd>
          <dt className="text-muted-foreground">E-mail</dt>
          <dd>
            {person.emailVerifiedAt ? (
              <>
                Verified <When at={person.emailVerifiedAt} />
              </>
            ) : (
              <Badge tone="amber">Unverified</Badge>
            )}
          </dd>
          <dt className="text-muted-foreground">Plan</dt>
          <dd>
            {person.plan}
            {person.planKind ? ` (${person.planKind})` : ''}
            {person.accessUntil ? (
              <>
                {' '}
                until <When at={person.accessUntil} />
              </>
            ) : null}
          </dd>
          <dt className="text-muted-foreground">Status</dt>
          <dd>
            {person.disabledAt ? (
              <Badge tone="red">
                Disabled <When at={person.disabledAt} />
              </Badge>
            ) : (
              'Active'
            )}{' '}
            {person.isAdmin ? (
              <Badge tone="sky" className="ml-1">
                Admin
              </Badge>
            ) : null}
          </dd>
        </dl>
        <div className="mt-4 flex flex-wrap gap-2">
          {person.emailVerifiedAt ? null : (
            <ActionButton
              intent="resend-verification"
              label="Resend verification e-mail"
              pendingText="Sending…"
            />
          )}
          <ActionButton intent="end-sessions" label="End all sessions" pendingText="Ending…" />
          {person.disabledAt ? (
            <ActionButton intent="enable" label="Enable account" pendingText="Enabling…" />
          ) : (
            <ActionButton
              intent="disable"
              label="Disable account"
              pendingText="Disabling…"
              variant="destructive"
            />
          )}
          {person.isAdmin || person.disabledAt ? null : (
            <ActionButton intent="sign-in-as" label="Sign in as this person" pendingText="Signing in…" />
          )}
        </div>
      </section>

      <section aria-labelledby="admin-person-sessions">
        <h2 id="admin-person-sessions" className="text-lg font-semibold">
          Sessions
        </h2>
        {person.sessions.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">No live sessions.</p>
        ) : (
          <ul className="mt-3 divide-y rounded-md border text-sm">
            {person.sessions.map((session) => (
              <li key={session.id} className="flex flex-wrap justify-between gap-2 p-3">
                <span>
                  {describeUserAgent(session.userAgent)}{' '}
                  {session.impersonatorId ? (
                    <Badge tone="sky" className="ml-1">
                      Support
                    </Badge>
                  ) : null}
                </span>
                <span className="text-muted-foreground">
                  {session.ip ?? 'unknown address'} · last seen <When at={session.lastSeenAt} />
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="admin-person-purchases">
        <h2 id="admin-person-purchases" className="text-lg font-semibold">
          Purchases
        </h2>
        {person.purchases.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">None.</p>
        ) : (
          <p className="mt-2 text-sm">
            {person.purchases.length} {person.purchases.length === 1 ? 'purchase' : 'purchases'}
            {person.invitation ? `; repository invitation ${person.invitation.status}` : ''}.{' '}
            <Link to={`/admin/purchases?q=${encodeURIComponent(person.email)}`} className="underline">
              See purchases
            </Link>
          </p>
        )}
      </section>

      <section aria-labelledby="admin-person-audit">
        <h2 id="admin-person-audit" className="text-lg font-semibold">
          Admin actions on this account
        </h2>
        <AuditTable entries={audit} />
      </section>
    </AdminPage>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
