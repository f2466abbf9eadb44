import { Link } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import { buttonClasses } from '~/components/ui/button'
import type { Route } from './+types/home'

const FEATURES = [
  {
    title: 'Tasks with a shape',
    body: 'Priority, status and hours on every task; subtasks with progress; public links when the world should see it.',
  },
  {
    title: 'Shared on purpose',
    body: 'Share a task with the e-mail addresses that need it. Access follows a verified address, never a guess.',
  },
  {
    title: 'Threads that stay on topic',
    body: 'Comment, reply, react and @mention the people on the task. Mentions notify; threads survive edits.',
  },
  {
    title: 'Works without JavaScript',
    body: 'Every action is a real form. JavaScript adds optimistic updates and live streams on top.',
  },
]

export default function Home() {
  return (
    <main className="mx-auto max-w-6xl px-4">
      <section className="py-20 text-center sm:py-28">
        <h1 className="mx-auto max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">
          Tasks, talked through.
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
          Threadwork keeps your tasks, the people they are shared with, and the conversation about them in one
          place — and it is a full-stack React Router starter you can read end to end.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Link
            to="/login?redirect=%2Fdashboard"
            prefetch="intent"
            className={buttonClasses('default', 'lg')}
          >
            Sign In
          </Link>
          <Link to="/tss" prefetch="intent" className={buttonClasses('outline', 'lg')}>
            System status
          </Link>
        </div>
      </section>
      <section aria-labelledby="features" className="pb-24">
        <h2 id="features" className="sr-only">
          Features
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {FEATURES.map((feature) => (
            <li key={feature.title} className="rounded-lg border bg-card p-5">
              <h3 className="font-semibold">{feature.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{feature.body}</p>
            </li>
          ))}
        </ul>
      </section>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
