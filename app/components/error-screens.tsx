import { Form, isRouteErrorResponse, Link, useLocation, useNavigate, useRevalidator } from 'react-router'
import { Button, buttonClasses } from '~/components/ui/button'

/**
 * The error screen (docs/product-rules.md §4): the error, 'Try Again' (revalidates), and a link to '/' that reads
 * 'Home' for errors of the root route and 'Go Back' (history back) elsewhere. Production servers
 * never send stack traces, so only the message is shown.
 */
function ErrorScreen({ error, isRoot }: { error: unknown; isRoot: boolean }) {
  const revalidator = useRevalidator()
  const navigate = useNavigate()
  const location = useLocation()
  const { title, detail } = describeError(error)

  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-6 px-4 py-24 text-center">
      {/* The alert is the title alone: role="alert" on <main> would hide the main landmark. */}
      <div role="alert">
        <h1 className="text-2xl font-semibold">{title}</h1>
      </div>
      {detail ? (
        <details className="group w-full rounded-md border p-3 text-left text-sm">
          <summary className="cursor-pointer select-none font-medium">
            <span className="group-open:hidden">Show Error</span>
            <span className="hidden group-open:inline">Hide Error</span>
          </summary>
          <pre className="mt-3 whitespace-pre-wrap break-words text-muted-foreground">{detail}</pre>
        </details>
      ) : null}
      <div className="flex gap-3">
        {/* A GET of the same URL without JavaScript; a revalidation with it. */}
        <Form
          method="get"
          action={location.pathname}
          onSubmit={(event) => {
            event.preventDefault()
            void revalidator.revalidate()
          }}
        >
          {[...new URLSearchParams(location.search)].map(([name, value]) => (
            <input key={`${name}=${value}`} type="hidden" name={name} value={value} />
          ))}
          <Button type="submit" disabled={revalidator.state === 'loading'}>
            Try Again
          </Button>
        </Form>
        <Link
          to="/"
          className={buttonClasses('outline')}
          onClick={
            isRoot
              ? undefined
              : (event) => {
                  event.preventDefault()
                  void navigate(-1)
                }
          }
        >
          {isRoot ? 'Home' : 'Go Back'}
        </Link>
      </div>
    </main>
  )
}

function describeError(error: unknown): { title: string; detail: string | null } {
  if (isRouteErrorResponse(error)) {
    // A message a route threw on purpose is for people; React Router's own ("Error: You made a
    // POST request…") is for developers, so people get the status text instead.
    const isAuthored = typeof error.data === 'string' && error.data !== '' && !error.data.startsWith('Error:')
    const message = isAuthored ? error.data : error.statusText
    return { title: 'Something went wrong!', detail: `${error.status} ${message}`.trim() }
  }
  if (error instanceof Error) return { title: 'Something went wrong!', detail: error.message }
  return { title: 'Something went wrong!', detail: null }
}

/**
 * The not-found screen (docs/product-rules.md §4). 'Go back' goes back in history with JavaScript; without it, it is
 * a link to where the visitor came from (the Referer the server saw), else home.
 */
export function NotFoundScreen({ backHref = '/', message }: { backHref?: string; message?: string }) {
  const navigate = useNavigate()
  return (
    <main className="mx-auto flex max-w-xl flex-col items-center gap-6 px-4 py-24 text-center">
      <p className="text-6xl font-bold text-muted-foreground">404</p>
      <h1 className="text-2xl font-semibold">{message ?? 'Not Found'}</h1>
      <p className="text-muted-foreground">The page you are looking for does not exist.</p>
      <div className="flex gap-3">
        <a
          href={backHref}
          className={buttonClasses('default')}
          onClick={(event) => {
            if (window.history.length > 1) {
              event.preventDefault()
              void navigate(-1)
            }
          }}
        >
          Go back
        </a>
        <Link to="/" className={buttonClasses('outline')}>
          Home
        </Link>
      </div>
    </main>
  )
}

/** The ErrorBoundary body every route uses: the not-found screen for 404s, else the error screen. */
export function RouteErrorScreen({ error, isRoot = false }: { error: unknown; isRoot?: boolean }) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    const data = error.data as { backHref?: string; message?: string } | string | null
    return typeof data === 'object' && data ? (
      <NotFoundScreen backHref={data.backHref} message={data.message} />
    ) : (
      <NotFoundScreen />
    )
  }
  return <ErrorScreen error={error} isRoot={isRoot} />
}

/**
 * What a form's action shows when JavaScript is off and the change was refused: what went wrong,
 * and the way back to the page the form was on. (With JavaScript the same answer is a toast.)
 */
export function ChangeRefusedScreen({
  title,
  message,
  back,
}: {
  title: string
  message: string
  back: string
}) {
  return (
    <main className="mx-auto flex max-w-lg flex-col items-center gap-6 px-4 py-24 text-center" role="alert">
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted-foreground">{message}</p>
      <Link to={back} className={buttonClasses('default')}>
        Back
      </Link>
    </main>
  )
}
