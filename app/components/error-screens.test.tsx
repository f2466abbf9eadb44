import { renderToString } from 'react-dom/server'
import { createRoutesStub, UNSAFE_ErrorResponseImpl as ErrorResponse, Outlet } from 'react-router'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { ErrorBoundary as RootErrorBoundary } from '~/root'
import { ErrorBoundary as NotFoundErrorBoundary } from '~/routes/not-found'
import { ErrorBoundary as StatusErrorBoundary } from '~/routes/tss'
import { buttons, links, visibleText } from '../../tests/helpers/html'

/** Never rendered: each test puts an error where a loader would have thrown it. */
function Page() {
  return null
}

/** A route tree shaped like app/routes.ts, with the app's own ErrorBoundary exports. */
const App = createRoutesStub([
  {
    id: 'root',
    path: '/',
    Component: Outlet,
    ErrorBoundary: RootErrorBoundary,
    children: [
      { id: 'routes/tss', path: 'tss', Component: Page, ErrorBoundary: StatusErrorBoundary },
      { id: 'routes/not-found', path: '*', Component: Page, ErrorBoundary: NotFoundErrorBoundary },
    ],
  },
])

/** The error and not-found screens as the server renders them for `url`. */
function renderWithError(url: string, routeId: string, error: unknown) {
  return renderToString(<App initialEntries={[url]} hydrationData={{ errors: { [routeId]: error } }} />)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('error screen', () => {
  test('an error in the root route offers Try Again and a Home link, with the error behind Show Error', () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const html = renderWithError('/', 'root', new Error('Database exploded'))
    const text = visibleText(html)

    expect(text).toContain('Something went wrong!')
    expect(text).toContain('Show Error')
    expect(text).toContain('Database exploded')
    expect(buttons(html)).toContain('Try Again')
    expect(links(html)).toContainEqual({ text: 'Home', href: '/' })
    expect(text).not.toContain('Go Back')
    // The header still renders, so people can navigate away.
    expect(links(html)).toContainEqual({ text: 'Sign In', href: '/login?redirect=%2Fdashboard' })
    // Unexpected errors reach the server log.
    expect(logged).toHaveBeenCalled()
  })

  test('never shows a stack trace, only the message', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const error = new Error('Database exploded')
    const html = renderWithError('/', 'root', error)
    expect(error.stack).toContain('error-screens.test.tsx')
    expect(html).not.toContain('error-screens.test.tsx')
    expect(html).not.toMatch(/\bat .*:\d+:\d+/)
  })

  test('an error in a page offers Go Back instead of Home', () => {
    const html = renderWithError('/tss', 'routes/tss', new Error('Health check failed'))
    const text = visibleText(html)
    expect(text).toContain('Something went wrong!')
    expect(buttons(html)).toContain('Try Again')
    expect(links(html).map((link) => link.text)).toContain('Go Back')
    expect(links(html).map((link) => link.text)).not.toContain('Home')
  })

  test('Try Again works without JavaScript: a GET of the same page, keeping its query', () => {
    const html = renderWithError('/tss?verbose=1', 'routes/tss', new Error('Health check failed'))
    expect(html).toMatch(/<form[^>]*action="\/tss"[^>]*method="get"/)
    expect(html).toContain('name="verbose" value="1"')
  })

  test('a message thrown on purpose is shown with its status', () => {
    const html = renderWithError(
      '/tss',
      'routes/tss',
      new ErrorResponse(403, 'Forbidden', 'You cannot see this task'),
    )
    expect(visibleText(html)).toContain('403 You cannot see this task')
  })

  test("React Router's developer messages are replaced by the status text", () => {
    const html = renderWithError(
      '/tss',
      'routes/tss',
      new ErrorResponse(
        405,
        'Method Not Allowed',
        'Error: You made a POST request to "/tss" but did not provide an `action`',
      ),
    )
    const text = visibleText(html)
    expect(text).toContain('405 Method Not Allowed')
    expect(text).not.toContain('You made a POST request')
  })

  test('without any detail there is nothing to show', () => {
    const html = renderWithError('/tss', 'routes/tss', 'a thrown string')
    expect(visibleText(html)).toContain('Something went wrong!')
    expect(visibleText(html)).not.toContain('Show Error')
  })
})

describe('not-found screen', () => {
  test('a 404 says the page does not exist and offers Go back (to where the visitor came from) and Home', () => {
    const html = renderWithError(
      '/no/such/page',
      'routes/not-found',
      new ErrorResponse(404, 'Not Found', { backHref: '/docs' }),
    )
    const text = visibleText(html)
    expect(text).toContain('Not Found')
    expect(text).toContain('The page you are looking for does not exist.')
    expect(links(html)).toEqual(
      expect.arrayContaining([
        { text: 'Go back', href: '/docs' },
        { text: 'Home', href: '/' },
      ]),
    )
    expect(text).not.toContain('Something went wrong!')
  })

  test("a route's own not-found message replaces the fallback title", () => {
    const html = renderWithError(
      '/tss',
      'routes/tss',
      new ErrorResponse(404, 'Not Found', { message: 'Task not found' }),
    )
    expect(visibleText(html)).toContain('Task not found')
    expect(links(html)).toContainEqual({ text: 'Go back', href: '/' })
  })

  test('a bare 404 falls back to "Not Found" and goes back home', () => {
    const html = renderWithError(
      '/no/such/page',
      'routes/not-found',
      new ErrorResponse(404, 'Not Found', null),
    )
    const text = visibleText(html)
    expect(text).toContain('404 Not Found')
    expect(text).toContain('The page you are looking for does not exist.')
    expect(links(html)).toContainEqual({ text: 'Go back', href: '/' })
  })

  test('a 404 reaching the root boundary gets the same screen, under the header', () => {
    const html = renderWithError('/', 'root', new ErrorResponse(404, 'Not Found', null))
    expect(visibleText(html)).toContain('The page you are looking for does not exist.')
    expect(links(html).map((link) => link.text)).toContain('Sign In')
  })
})
