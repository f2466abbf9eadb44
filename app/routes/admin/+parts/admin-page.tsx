import type { ReactNode } from 'react'
import { Form, NavLink } from 'react-router'
import { Alert } from '~/components/ui/alert'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { cn } from '~/utils/cn'

/** The console's sections, in the order its navigation lists them. */
const SECTIONS = [
  { to: '/admin', label: 'People', end: true },
  { to: '/admin/purchases', label: 'Purchases', end: false },
  { to: '/admin/workspaces', label: 'Workspaces', end: false },
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

/** A page's search: one field named `q`, sent by GET so the results have an address. */
export function AdminSearch({ id, label, query }: { id: string; label: string; query: string }) {
  return (
    <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <Input id={id} type="search" name="q" defaultValue={query} className="w-72 max-w-full" />
      </div>
      <Button type="submit" variant="outline">
        Search
      </Button>
    </Form>
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
