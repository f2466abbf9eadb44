import { lazy, type ReactNode, Suspense, useLayoutEffect } from 'react'
import {
  data,
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from 'react-router'
import { csrfTokenFor, getAuth } from '~/auth/context.server'
import { authMiddleware } from '~/auth/middleware.server'
import { RouteErrorScreen } from '~/components/error-screens'
import { Header } from '~/components/header'
import { PendingIndicator } from '~/components/pending-indicator'
import type { TaskModalData } from '~/components/task-modal'
import { NoscriptToast, Toaster, useServerToast } from '~/components/toaster'
import type { WorkspaceChoice } from '~/components/workspace-switcher'
import { nonceContext } from '~/context'
import { database } from '~/db/client.server'
import { outboxMiddleware } from '~/email/middleware.server'
import { clientConfig } from '~/env.server'
import { eventLogHead } from '~/events/log.server'
import { openDiscussion } from '~/services/comment-views.server'
import { NotFound } from '~/services/errors'
import { countUnreadMentions } from '~/services/notifications.server'
import type { SessionUser, SignedInUser } from '~/services/session-user'
import { getTaskDetails } from '~/services/tasks/reads.server'
import { listWorkspaces } from '~/services/workspaces/reads.server'
import { themeBootScript } from '~/theme'
import { themeFromRequest } from '~/theme.server'
import { readToast } from '~/toast.server'
import { timeZoneBootScript } from '~/utils/calendar'
import { todayFor } from '~/utils/time-zone.server'
import { restoreTextTypedBeforeHydration } from '~/utils/typed-before-hydration'
import type { Route } from './+types/root'
import './app.css'

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const title = 'Threadwork — tasks, talked through'
  const description =
    'Keep tasks with priority and status, share them with the people who need them, and talk them through in threaded comments with mentions and reactions.'
  const baseUrl = loaderData?.config.baseUrl ?? ''
  return [
    { title },
    { name: 'description', content: description },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: 'Threadwork' },
    { property: 'og:title', content: title },
    { property: 'og:description', content: description },
    { property: 'og:image', content: `${baseUrl}/og-image.png` },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: title },
    { name: 'twitter:description', content: description },
  ]
}

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.ico', sizes: '32x32' },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
]

/*
 * Loaded only by pages that open a task (`?task=`): the modal, its forms and the comments are
 * JavaScript most pages never need (docs/product-rules.md §6). No Suspense boundary around it:
 * the server's shell and the client's navigation wait for it instead of showing a page without
 * the modal, so it also works without JavaScript.
 */
const OpenTaskModal = lazy(() => import('~/components/open-task-modal'))

/*
 * Banners only some people see — an unverified address, a support session ("sign in as", /admin) —
 * load only for them; like the task modal, with no Suspense boundary around them, so the server's
 * shell waits for them and they are there without JavaScript too.
 */
const VerifyEmailBanner = lazy(() => import('~/components/verify-email-banner'))
const SupportSessionBanner = lazy(() => import('~/components/support-session-banner'))

/**
 * The keyboard's shortcuts and command palette (app/components/keyboard/): the listener renders
 * nothing until a key asks for a dialog, so it loads after the page hydrates, and its dialogs load
 * only when first opened.
 */
const KeyboardShortcuts = lazy(() => import('~/components/keyboard/keyboard-shortcuts'))

/** Mention toasts for signed-in people: it renders nothing, so it loads after the page hydrates. */
const MentionNotifications = lazy(() => import('~/components/mention-notifications'))

export const middleware: Route.MiddlewareFunction[] = [authMiddleware, outboxMiddleware]

/** The task modal's data when the URL names a task (`?task=<id>`), on any page. */
async function loadTaskModal(
  user: SessionUser | null,
  taskId: string | null,
  today: string,
): Promise<TaskModalData | null> {
  if (!taskId) return null
  const db = database()
  try {
    const [details, discussion] = await Promise.all([
      getTaskDetails(db, user, taskId),
      openDiscussion(db, user, taskId),
    ])
    return { ...details, discussion, today }
  } catch (error) {
    if (error instanceof NotFound) return { error: error.message, taskId }
    throw error
  }
}

export async function loader({ request, context, url }: Route.LoaderArgs) {
  const { theme } = themeFromRequest(request)
  const { toast, headers } = await readToast(request)
  const { user, session } = await getAuth(request, context)
  // Read before the page's data, so a stream resuming from it misses nothing written meanwhile.
  const eventCursor = user || url.searchParams.has('task') ? await eventLogHead(database()) : null
  const [modal, workspaces] = await Promise.all([
    loadTaskModal(user, url.searchParams.get('task'), todayFor(request.headers)),
    workspacesOf(user),
  ])
  const taskModal =
    modal && 'task' in modal ? { ...modal, workspace: namedWorkspace(modal.task, user, workspaces) } : modal
  // After the modal, which may have just read some: the header's badge counts what is left.
  const unreadMentions = user ? await countUnreadMentions(database(), user) : 0
  return data(
    {
      user,
      // Signed-in pages carry a token for their forms; anonymous forms (sign-in, support) get
      // theirs from their own route, so public pages stay free of per-visitor data.
      csrfToken: user ? await csrfTokenFor(request, context) : null,
      theme,
      toast,
      taskModal,
      unreadMentions,
      workspaces,
      eventCursor,
      // An admin signed in as this person for support: every page says so (SupportSessionBanner).
      isSupportSession: Boolean(session?.impersonatorId),
      config: clientConfig(),
      nonce: context.get(nonceContext),
    },
    { headers: headers ?? undefined },
  )
}

/** The header's switcher's choices: the signed-in person's workspaces, their personal one first. */
async function workspacesOf(user: SignedInUser | null): Promise<WorkspaceChoice[]> {
  if (!user) return []
  const workspaces = await listWorkspaces(database(), user)
  return workspaces.map(({ id, name, isPersonal }) => ({ id, name, isPersonal }))
}

/**
 * The workspace a task opened in the modal belongs to, named only when it is one of the viewer's
 * (a workspace they are not in stays unknown to them) and not the one they work in.
 */
function namedWorkspace(
  task: { workspaceId: string },
  user: SignedInUser | null,
  workspaces: WorkspaceChoice[],
): WorkspaceChoice | null {
  if (!user || task.workspaceId === user.activeWorkspaceId) return null
  return workspaces.find((workspace) => workspace.id === task.workspaceId) ?? null
}

export function Layout({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>('root')
  const theme = root?.theme ?? null
  const nonce = root?.nonce || undefined
  const analytics = root?.config.analytics
  // After every part of the page has hydrated (effects run from the leaves up).
  useLayoutEffect(restoreTextTypedBeforeHydration, [])

  return (
    <html lang="en" className={theme ?? undefined} suppressHydrationWarning>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme ?? 'light dark'} />
        {/* Before first paint, so a stored or system theme never flashes. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, nonce-guarded */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript }} />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant script, nonce-guarded */}
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: timeZoneBootScript }} />
        <Meta />
        <Links />
        {analytics ? (
          <script defer nonce={nonce} data-domain={analytics.domain} src={analytics.scriptUrl} />
        ) : null}
      </head>
      <body className="min-h-dvh antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-background focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        {children}
        <Toaster theme={theme ?? 'system'} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  )
}

export default function App({ loaderData }: Route.ComponentProps) {
  useServerToast(loaderData.toast)
  return (
    <>
      <PendingIndicator />
      <Suspense fallback={null}>
        <KeyboardShortcuts
          isSignedIn={loaderData.user !== null}
          workspaces={loaderData.workspaces}
          activeWorkspaceId={loaderData.user?.activeWorkspaceId}
        />
        {loaderData.user ? (
          <MentionNotifications user={loaderData.user} unreadCount={loaderData.unreadMentions} />
        ) : null}
      </Suspense>
      {/* Before the page: without JavaScript the open modal is a plain <dialog open> over an
          overlay, and Tab follows the document, so it must come first, not after the page. */}
      {loaderData.taskModal ? (
        <OpenTaskModal
          modal={loaderData.taskModal}
          viewer={loaderData.user}
          notice={loaderData.toast ? <NoscriptToast toast={loaderData.toast} /> : null}
        />
      ) : null}
      <Header
        user={loaderData.user}
        theme={loaderData.theme}
        unreadMentions={loaderData.unreadMentions}
        workspaces={loaderData.workspaces}
        activeWorkspaceId={loaderData.user?.activeWorkspaceId}
      />
      {loaderData.user && loaderData.isSupportSession ? (
        <SupportSessionBanner user={loaderData.user} />
      ) : null}
      {loaderData.user && !loaderData.user.emailVerified ? <VerifyEmailBanner /> : null}
      {loaderData.toast && !loaderData.taskModal ? <NoscriptToast toast={loaderData.toast} /> : null}
      <div id="main">
        <Outlet />
      </div>
    </>
  )
}

export function ErrorBoundary() {
  const error = useRouteError()
  const root = useRouteLoaderData<typeof loader>('root')
  if (!isRouteErrorResponse(error)) console.error(error)
  return (
    <>
      <Header user={root?.user ?? null} theme={root?.theme ?? null} />
      <div id="main">
        <RouteErrorScreen error={error} isRoot />
      </div>
    </>
  )
}
