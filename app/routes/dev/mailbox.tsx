import { Fragment, type ReactNode } from 'react'
import { data } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import { Badge } from '~/components/ui/badge'
import { database } from '~/db/client.server'
import { listRecentEmails } from '~/email/mailbox.server'
import { env } from '~/env.server'
import type { Route } from './+types/mailbox'

export const meta: Route.MetaFunction = () => [
  { title: 'Mailbox (development) | Threadwork' },
  { name: 'robots', content: 'noindex' },
]

/**
 * Every e-mail the app queued, for developers without an SMTP server: open the verification or
 * reset link straight from here. Production has real mail and real people's messages, so there
 * this page does not exist.
 */
export async function loader() {
  if (env().isProduction) throw data({ backHref: '/' }, { status: 404 })
  return data({ emails: await listRecentEmails(database()) }, { headers: { 'Cache-Control': 'no-store' } })
}

export default function Mailbox({ loaderData }: Route.ComponentProps) {
  const { emails } = loaderData
  return (
    <main className="mx-auto flex max-w-5xl flex-col gap-6 px-4 py-10">
      <header className="flex flex-col gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">Mailbox</h1>
        <p className="text-sm text-muted-foreground">
          The outbox, newest first ({emails.length}). Only outside production; with <code>SMTP_URL</code> set,
          these also go to the SMTP server.
        </p>
      </header>
      {emails.length === 0 ? (
        <p className="rounded-md border p-6 text-center text-sm text-muted-foreground">No e-mails yet.</p>
      ) : (
        <ol className="flex flex-col gap-4">
          {emails.map((email, index) => (
            <li key={email.id} className="rounded-lg border bg-card shadow-sm">
              <details open={index === 0}>
                <summary className="flex cursor-pointer flex-wrap items-baseline gap-x-4 gap-y-1 p-4">
                  <span className="font-medium">{email.subject}</span>
                  <span className="text-sm text-muted-foreground">to {email.to}</span>
                  <span className="ml-auto flex items-baseline gap-3 text-xs text-muted-foreground">
                    <StatusBadge status={email.status} />
                    <span>
                      {email.attempts} attempt{email.attempts === 1 ? '' : 's'}
                    </span>
                    <time dateTime={email.createdAt}>
                      {email.createdAt.replace('T', ' ').slice(0, 19)} UTC
                    </time>
                  </span>
                </summary>
                <div className="flex flex-col gap-4 border-t p-4">
                  {email.lastError ? (
                    <p className="text-sm text-destructive">Last error: {email.lastError}</p>
                  ) : null}
                  <section aria-label="Text part" className="flex flex-col gap-2">
                    <h2 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                      Text
                    </h2>
                    <pre className="whitespace-pre-wrap break-words rounded-md bg-muted p-3 text-sm">
                      <LinkedText text={email.text} />
                    </pre>
                  </section>
                  <section aria-label="HTML part" className="flex flex-col gap-2">
                    <h2 className="text-xs font-semibold uppercase tracking-wide text-muted-foreground">
                      HTML
                    </h2>
                    {/* An empty sandbox: no scripts, no forms, an opaque origin, whatever the e-mail holds. */}
                    <iframe
                      title={`HTML part of "${email.subject}"`}
                      srcDoc={email.html}
                      sandbox=""
                      className="h-[28rem] w-full rounded-md border bg-white"
                    />
                  </section>
                </div>
              </details>
            </li>
          ))}
        </ol>
      )}
    </main>
  )
}

const STATUS_TONES = { sent: 'emerald', pending: 'amber', failed: 'destructive' } as const

function StatusBadge({ status }: { status: 'pending' | 'sent' | 'failed' }) {
  return (
    <Badge tone={STATUS_TONES[status]} weight="medium">
      {status}
    </Badge>
  )
}

/** The text part with its URLs clickable: the sandboxed HTML part cannot open links. */
function LinkedText({ text }: { text: string }) {
  const pieces: ReactNode[] = []
  let offset = 0
  for (const match of text.matchAll(/https?:\/\/\S+/g)) {
    pieces.push(<Fragment key={offset}>{text.slice(offset, match.index)}</Fragment>)
    pieces.push(
      <a key={match.index} href={match[0]} className="text-primary underline underline-offset-2">
        {match[0]}
      </a>,
    )
    offset = match.index + match[0].length
  }
  pieces.push(<Fragment key={offset}>{text.slice(offset)}</Fragment>)
  return pieces
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
