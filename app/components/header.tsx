import { type KeyboardEvent, lazy, type ToggleEvent, useRef } from 'react'
import { Link, useLocation, useNavigation } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { Avatar, initials } from '~/components/avatar'
import { SiteSearch } from '~/components/site-search'
import { ThemeSwitch } from '~/components/theme-switch'
import { Button, buttonClasses } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'
import { Skeleton } from '~/components/ui/skeleton'
import type { WorkspaceChoice } from '~/components/workspace-switcher'
import { INBOX_PATH } from '~/inbox'
import type { SessionUser } from '~/services/session-user'
import type { Theme } from '~/theme'
import { cn } from '~/utils/cn'

type NavLinkItem = { to: string; label: string }

export const SIGNED_OUT_LINKS: NavLinkItem[] = [
  { to: '/showcase', label: 'Showcase' },
  { to: '/blog', label: 'Blog' },
  { to: '/docs', label: 'Docs' },
  { to: '/changelog', label: 'Changelog' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/support', label: 'Support' },
]

const SIGNED_IN_LINKS: NavLinkItem[] = [
  { to: '/blog', label: 'Blog' },
  { to: '/docs', label: 'Docs' },
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/task', label: 'Task List' },
  { to: '/chat', label: 'AI Chat' },
  { to: '/pricing', label: 'Pricing' },
]

/** A link is active when the path equals it or starts with it (docs/product-rules.md §4). */
export function isActivePath(pathname: string, to: string) {
  return pathname === to || pathname.startsWith(to)
}

const MOBILE_NAV_ID = 'mobile-navigation'
/*
 * The workspace switcher loads after the page's own JavaScript, as the banners of root.tsx do,
 * with no Suspense boundary around it: the server's shell waits for it, so it is there without
 * JavaScript too, and the task list's first load stays within its budget (docs/performance.md).
 */
const WorkspaceSwitcher = lazy(() =>
  import('~/components/workspace-switcher').then((module) => ({ default: module.WorkspaceSwitcher })),
)

const ACCOUNT_MENU_ID = 'account-menu'
const SESSION_ACTIONS = ['/login', '/signup', '/logout']

export function Header({
  user,
  theme,
  unreadMentions = 0,
  workspaces = [],
  activeWorkspaceId,
}: {
  user: SessionUser | null
  theme: Theme | null
  /** The signed-in person's unread mentions, for the badge on the inbox link. */
  unreadMentions?: number
  /** The signed-in person's workspaces, for the switcher, and the one their session works in. */
  workspaces?: WorkspaceChoice[]
  activeWorkspaceId?: string
}) {
  const { pathname } = useLocation()
  const navigation = useNavigation()
  // While signing in or out, who is signed in is about to change: show placeholders, not stale data.
  const isSessionChanging =
    navigation.state !== 'idle' && SESSION_ACTIONS.some((path) => navigation.formAction?.startsWith(path))
  const links = user ? SIGNED_IN_LINKS : SIGNED_OUT_LINKS
  const drawer = useRef<HTMLDivElement>(null)
  const menuButton = useRef<HTMLButtonElement>(null)

  return (
    <header className="sticky top-0 z-40 h-16 border-b bg-background/90 backdrop-blur supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-full max-w-6xl items-center gap-4 px-4">
        {/* The drawer is a native popover: it opens, closes on Escape and outside clicks, and
            sits in the top layer without JavaScript. */}
        <Button
          ref={menuButton}
          popoverTarget={MOBILE_NAV_ID}
          variant="ghost"
          size="icon"
          className="md:hidden"
          aria-label="Open navigation menu"
        >
          <Icon name="menu" className="size-5" />
        </Button>

        {/* Named by its visible text: an aria-label that differs from it fails voice control
            users, who say what they see (WCAG 2.5.3). */}
        <Link to="/" prefetch="intent" className="flex items-baseline gap-2">
          <span className="text-lg font-bold tracking-tight">Threadwork</span>
          <span className="hidden text-sm text-muted-foreground lg:inline">Tasks, talked through.</span>
        </Link>

        <nav aria-label="Main" className="hidden flex-1 items-center gap-1 md:flex">
          {links.map((link) => (
            <HeaderLink key={link.to} link={link} isActive={isActivePath(pathname, link.to)} />
          ))}
        </nav>

        <div className="ml-auto flex min-w-0 items-center gap-2 md:ml-0">
          {/* The field where the header has room for it; below, the drawer has one (and `/` opens /search). */}
          {user && !isSessionChanging && activeWorkspaceId && workspaces.length > 0 ? (
            <WorkspaceSwitcher workspaces={workspaces} activeWorkspaceId={activeWorkspaceId} />
          ) : null}
          {user && !isSessionChanging ? <SiteSearch className="hidden w-36 lg:block xl:w-44" /> : null}
          <ThemeSwitch serverTheme={theme} />
          {user && !isSessionChanging ? (
            <InboxLink unread={unreadMentions} isActive={isActivePath(pathname, INBOX_PATH)} />
          ) : null}
          <AccountControl user={user} isLoading={isSessionChanging} />
        </div>
      </div>

      {/* biome-ignore lint/a11y/noNoninteractiveElementInteractions: a dialog listening for Tab to keep focus inside; its controls are the interactive elements */}
      <div
        id={MOBILE_NAV_ID}
        ref={drawer}
        popover="auto"
        role="dialog"
        aria-labelledby={`${MOBILE_NAV_ID}-title`}
        onToggle={(event) => moveFocusWithDrawer(event, menuButton.current)}
        onKeyDown={keepTabInside}
        className="fixed inset-y-0 left-0 right-auto m-0 h-dvh max-h-none w-64 border-r bg-background p-4 text-foreground shadow-xl backdrop:bg-black/40"
      >
        <div className="mb-4 flex items-center justify-between">
          <h2 id={`${MOBILE_NAV_ID}-title`} className="text-base font-semibold">
            Mobile Navigation
          </h2>
          <Button
            popoverTarget={MOBILE_NAV_ID}
            popoverTargetAction="hide"
            variant="ghost"
            size="icon-sm"
            aria-label="Close navigation menu"
          >
            <Icon name="close" className="size-4" />
          </Button>
        </div>
        {user ? <SiteSearch id="mobile-site-search" className="mb-4" /> : null}
        <nav aria-label="Mobile" className="flex flex-col gap-1">
          {links.map((link) => (
            <HeaderLink
              key={link.to}
              link={link}
              isActive={isActivePath(pathname, link.to)}
              onNavigate={() => drawer.current?.hidePopover()}
            />
          ))}
        </nav>
      </div>
    </header>
  )
}

/**
 * The drawer behaves as a dialog for the keyboard: opening it moves focus inside, and closing it
 * (Escape, the close button, a click on the backdrop, a link) gives focus back to the menu
 * button unless the browser already put it somewhere else.
 */
function moveFocusWithDrawer(event: ToggleEvent<HTMLDivElement>, menuButton: HTMLButtonElement | null) {
  const drawer = event.currentTarget
  if (event.newState === 'open') {
    tabStops(drawer)[0]?.focus()
    return
  }
  const focused = document.activeElement
  if (!focused || focused === document.body || drawer.contains(focused)) menuButton?.focus()
}

/** While the drawer is open, Tab and Shift+Tab cycle through its own controls only. */
function keepTabInside(event: KeyboardEvent<HTMLDivElement>) {
  if (event.key !== 'Tab') return
  const stops = tabStops(event.currentTarget)
  const first = stops[0]
  const last = stops.at(-1)
  if (!first || !last) return
  const focused = document.activeElement
  if (event.shiftKey && (focused === first || !event.currentTarget.contains(focused))) {
    event.preventDefault()
    last.focus()
  } else if (!event.shiftKey && focused === last) {
    event.preventDefault()
    first.focus()
  }
}

function tabStops(container: HTMLElement) {
  return [
    ...container.querySelectorAll<HTMLElement>(
      'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), [tabindex]:not([tabindex="-1"])',
    ),
  ]
}

function HeaderLink({
  link,
  isActive,
  onNavigate,
}: {
  link: NavLinkItem
  isActive: boolean
  onNavigate?: () => void
}) {
  return (
    <Link
      to={link.to}
      prefetch="intent"
      onClick={onNavigate}
      aria-current={isActive ? 'page' : undefined}
      className={cn(
        'rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-muted hover:text-foreground',
        isActive ? 'bg-muted text-foreground' : 'text-muted-foreground',
      )}
    >
      {link.label}
    </Link>
  )
}

/** What the badge shows: the count, up to 99. */
function unreadBadgeText(unread: number) {
  return unread > 99 ? '99+' : String(unread)
}

/**
 * The bell: a plain link to the inbox, so the person learns of mentions on every page, with or
 * without JavaScript. Its name holds what the badge shows ("Notifications, 3 unread"), so voice
 * control users can say what they see.
 */
function InboxLink({ unread, isActive }: { unread: number; isActive: boolean }) {
  const badge = unreadBadgeText(unread)
  return (
    <Link
      to={INBOX_PATH}
      prefetch="intent"
      aria-label={unread > 0 ? `Notifications, ${badge} unread` : 'Notifications'}
      aria-current={isActive ? 'page' : undefined}
      className={buttonClasses('ghost', 'icon', cn('relative', isActive && 'bg-muted'))}
    >
      <Icon name="bell" className="size-5" />
      {unread > 0 ? (
        <span
          data-testid="unread-badge"
          className="absolute -top-0.5 -right-0.5 min-w-4 rounded-full bg-destructive px-1 text-center text-[0.6875rem] leading-4 font-semibold text-destructive-foreground"
        >
          {badge}
        </span>
      ) : null}
    </Link>
  )
}

function AccountControl({ user, isLoading }: { user: SessionUser | null; isLoading: boolean }) {
  if (isLoading) {
    return (
      <div className="flex items-center gap-2" data-testid="account-skeleton">
        <Skeleton shape="circle" className="size-8" />
        <Skeleton className="hidden h-4 w-20 sm:block" />
      </div>
    )
  }
  if (!user) {
    return (
      <Link to="/login?redirect=%2Fdashboard" prefetch="intent" className={buttonClasses('default', 'sm')}>
        Sign In
      </Link>
    )
  }
  return (
    <>
      <button
        type="button"
        popoverTarget={ACCOUNT_MENU_ID}
        className="inline-flex items-center gap-2 rounded-full focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        // Starts with the initials the button shows, so a voice-control user can say what they
        // see (WCAG 2.5.3, label in name).
        aria-label={`${initials(user.name)}, account menu for ${user.name || user.email}`}
      >
        <Avatar name={user.name} image={user.image} />
      </button>
      {/* A native popover (like the drawer): it opens, closes on Escape and outside clicks, and
          its Sign Out is a real form, all without JavaScript. */}
      <div
        id={ACCOUNT_MENU_ID}
        popover="auto"
        className="fixed inset-auto top-16 right-4 m-0 w-64 rounded-lg border bg-background p-2 text-foreground shadow-lg"
      >
        <div className="border-b px-3 py-2">
          <p className="truncate text-sm font-medium">{user.name || 'Your account'}</p>
          <p className="truncate text-xs text-muted-foreground">{user.email}</p>
        </div>
        <nav aria-label="Account" className="flex flex-col py-1">
          <AccountMenuLink to="/settings">Settings</AccountMenuLink>
          <AccountMenuLink to="/settings/billing">Billing</AccountMenuLink>
          <AccountMenuLink to="/settings/developer">Developer</AccountMenuLink>
          <ActionForm
            // The command palette's "sign out" submits this form (app/components/keyboard/).
            id="sign-out"
            action="/logout"
            onSubmit={(event) => event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover()}
          >
            <button type="submit" className="w-full rounded-md px-3 py-2 text-left text-sm hover:bg-muted">
              Sign Out
            </button>
          </ActionForm>
        </nav>
      </div>
    </>
  )
}

/** A link of the account menu; following it closes the menu. */
function AccountMenuLink({ to, children }: { to: string; children: string }) {
  return (
    <Link
      to={to}
      prefetch="intent"
      className="rounded-md px-3 py-2 text-sm hover:bg-muted"
      onClick={(event) => event.currentTarget.closest<HTMLElement>('[popover]')?.hidePopover()}
    >
      {children}
    </Link>
  )
}
