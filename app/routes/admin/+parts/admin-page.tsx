import type { ReactNode } from 'react'
import { NavLink } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { Alert } from '~/components/ui/alert'
import { type ButtonVariant, StatusButton } from '~/components/ui/button'
import { cn } from '~/utils/cn'
import { useIsPending } from '~/utils/pending'

/** The console's sections, in the order its navigation lists them. */
const SECTIONS = [
  { to: '/admin', label: 'People', end: true },
  { to: '/admin/purchases', label: 'Purchases', end: false },
  { to: '/admin/queues', label: 'Jobs and e-mail', end: false },
  { to: '/admin/audit', label: 'Audit log', end: false },
] as const

/** Every console page: its title, the sections, and a refused action's message above the content. */
export function AdminPage({
  title,
  description,
  refusal,
  children,
}: {
  title: string
  description: string
  refusal?: string | null
  children: ReactNode
}) {
  return (
    <main className="mx-auto w-full max-w-6xl px-4 py-8">
      <p className="text-sm font-medium text-muted-foreground">Admin console</p>
      <h1 className="mt-1 text-2xl font-semibold">{title}</h1>
      <p className="mt-1 text-sm text-muted-foreground">{description}</p>
      <nav aria-label="Admin sections" className="mt-4 border-b">
        <ul className="-mb-px flex flex-wrap gap-x-4">
          {SECTIONS.map((section) => (
            <li key={section.to}>
              <NavLink
                to={section.to}
                end={section.end}
                className={({ isActive }) =>
                  cn(
                    'inline-block border-b-2 px-1 py-2 text-sm',
                    isActive
                      ? 'border-primary font-medium text-foreground'
                      : 'border-transparent text-muted-foreground hover:text-foreground',
                  )
                }
              >
                {section.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      {refusal ? (
        <Alert tone="error" className="mt-4">
          {refusal}
        </Alert>
      ) : null}
      <div className="mt-6 space-y-8">{children}</div>
    </main>
  )
}

/** One action's form: its intent, the item it acts on, and a button that shows it is pending. */
export function AdminAction({
  intent,
  fields,
  label,
  pendingText,
  variant = 'outline',
  action,
}: {
  intent: string
  fields: Record<string, string>
  label: string
  pendingText: string
  variant?: ButtonVariant
  /** Another route's action (the form goes there, and comes back here). */
  action?: string
}) {
  const isPending = useIsPending({ intent, fields })
  return (
    <ActionForm intent={intent} action={action} redirectTo={action ? true : undefined}>
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <StatusButton isPending={isPending} pendingText={pendingText} variant={variant} size="sm">
        {label}
      </StatusButton>
    </ActionForm>
  )
}

/** A time as the console shows it: UTC, so server and browser render the same text. */
export function When({ at }: { at: Date | string | null }) {
  if (at === null) return <span className="text-muted-foreground">—</span>
  const date = new Date(at)
  const text = new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(date)
  return <time dateTime={date.toISOString()}>{text} UTC</time>
}
