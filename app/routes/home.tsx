import { data, Link } from 'react-router'
import { RouteErrorScreen } from '~/components/error-screens'
import { ProductPreview } from '~/components/marketing/product-preview'
import { buttonClasses } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'
import { publicCacheHeaders, publicPageHeaders } from '~/utils/public-cache.server'
import { seo } from '~/utils/seo'
import type { Route } from './+types/home'

/*
 * The home page. Everything here is static markup: the page's first-load JavaScript is only
 * React Router's and the root's (docs/product-rules.md §6 allows 90 KB gzip for all of it), so nothing
 * heavy — no zod, no form library — may be imported into this module.
 */

export const meta: Route.MetaFunction = ({ matches }) =>
  seo({
    matches,
    title: 'Threadwork — tasks, talked through',
    description:
      'Tasks with priority and status, shared with the people who need them and discussed in threaded comments with mentions and reactions — and a full-stack React Router starter kit you can read end to end.',
    path: '/',
  })

export const headers: Route.HeadersFunction = publicPageHeaders

/** Only cache headers: the page is static, so the build (which the ETag includes) is its version. */
export function loader({ request }: Route.LoaderArgs) {
  return data(null, { headers: publicCacheHeaders(request, 'home') })
}

const FEATURES = [
  {
    title: 'Tasks with a shape',
    body: 'Priority, status and hours on every task, subtasks under their parent, and a public link when the world should see it.',
  },
  {
    title: 'Shared on purpose',
    body: 'Share a task with the e-mail addresses that need it. Access follows a verified address, never a guess.',
  },
  {
    title: 'Threads that stay on topic',
    body: 'Comment, reply, react and @mention the people on the task. A mention notifies them; the thread keeps the context.',
  },
  {
    title: 'Live, without polling',
    body: 'Server-sent events carry new tasks, comments and reactions to everyone looking, across every instance.',
  },
  {
    title: 'A dashboard and an assistant',
    body: 'Statistics and productivity insights over your tasks, and an AI chat whose conversations you can save and share.',
  },
  {
    title: 'Works without JavaScript',
    body: 'Every action is a real form. JavaScript adds optimistic updates, pickers and live streams on top.',
  },
]

const STACK = [
  ['React Router 7', 'framework mode, server rendering, loaders and actions'],
  ['LibSQL + Drizzle', 'a SQLite file locally, a libSQL server when you scale out'],
  ['oRPC', 'a typed API beside the pages, over the same services'],
  ['remix-auth', 'e-mail and password, GitHub and Google, verified e-mail'],
  ['Stripe', 'checkout for yearly and lifetime plans, signed webhooks'],
  ['MDX', 'docs and blog compiled once, with search that works without JavaScript'],
  ['Vitest + Playwright', 'tests against a real database and a real browser'],
  ['Fly.io', 'a Dockerfile and fly.toml for several regions'],
] as const

export default function Home() {
  return (
    <main>
      <section className="mx-auto max-w-6xl px-4 pt-16 pb-12 text-center sm:pt-24">
        <p className="text-sm font-medium text-primary">A full-stack React Router starter kit</p>
        <h1 className="mx-auto mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-6xl">
          Tasks, talked through.
        </h1>
        <p className="mx-auto mt-6 max-w-2xl text-lg text-muted-foreground">
          Threadwork keeps your tasks, the people they are shared with, and the conversation about them in one
          place. Use it as it is, or start your own product from its source.
        </p>
        <div className="mt-10 flex flex-wrap justify-center gap-3">
          <Link to="/signup" prefetch="intent" className={buttonClasses('default', 'lg')}>
            Get started free
            <Icon name="arrow-right" className="size-4" />
          </Link>
          <Link to="/docs" prefetch="intent" className={buttonClasses('outline', 'lg')}>
            Read the docs
          </Link>
          <Link to="/pricing" prefetch="intent" className={buttonClasses('ghost', 'lg')}>
            See pricing
          </Link>
        </div>
      </section>

      <section aria-label="Product preview" className="mx-auto max-w-6xl px-4 pb-20">
        <ProductPreview />
      </section>

      <section aria-labelledby="features-title" className="border-y bg-muted/50 py-20">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="features-title" className="text-center text-3xl font-bold tracking-tight">
            Everything a small team needs to get work done together
          </h2>
          <ul className="mt-12 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((feature) => (
              <li key={feature.title} className="rounded-lg border bg-card p-6">
                <h3 className="font-semibold">{feature.title}</h3>
                <p className="mt-2 text-sm text-muted-foreground">{feature.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        aria-labelledby="kit-title"
        className="mx-auto grid max-w-6xl gap-10 px-4 py-20 lg:grid-cols-2"
      >
        <div>
          <h2 id="kit-title" className="text-3xl font-bold tracking-tight">
            A codebase you can read end to end
          </h2>
          <p className="mt-4 text-muted-foreground">
            Threadwork is also the starter kit it is built from. One route table lists every URL; thin loaders
            and RPC procedures call the same services; every rule lives in one place and is tested against a
            real database and a real browser.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link to="/docs" prefetch="intent" className={buttonClasses('default')}>
              How it is built
            </Link>
            <Link to="/showcase" prefetch="intent" className={buttonClasses('outline')}>
              See what it builds
            </Link>
          </div>
        </div>
        <ul className="grid gap-3 sm:grid-cols-2">
          {STACK.map(([name, note]) => (
            <li key={name} className="flex gap-3 rounded-lg border p-4">
              <Icon name="check" className="mt-0.5 size-4 shrink-0 text-primary" />
              <div>
                <div className="text-sm font-semibold">{name}</div>
                <div className="mt-1 text-sm text-muted-foreground">{note}</div>
              </div>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-title" className="mx-auto max-w-6xl px-4 pb-24">
        <div className="rounded-2xl bg-primary px-6 py-14 text-center text-primary-foreground sm:px-12">
          <h2 id="cta-title" className="text-3xl font-bold tracking-tight">
            Start with your own tasks today
          </h2>
          <p className="mx-auto mt-4 max-w-xl opacity-90">
            Sign up in a minute, or buy the source and ship your product on it — yearly, or once for life.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to="/signup" prefetch="intent" className={buttonClasses('inverse', 'lg')}>
              Create an account
            </Link>
            <Link to="/pricing" prefetch="intent" className={buttonClasses('inverse-outline', 'lg')}>
              Compare plans
            </Link>
          </div>
        </div>
      </section>
    </main>
  )
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  return <RouteErrorScreen error={error} />
}
