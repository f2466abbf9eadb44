import { lazy, type ReactNode, Suspense, useEffect, useSyncExternalStore } from 'react'
import type { ExternalToast } from 'sonner'
import type { Toast } from '~/toast.server'

/*
 * Toasts load on demand: sonner and the toast area are ~10 KB gzip that most page views never
 * need, so they arrive with the first toast a page shows instead of with every page
 * (docs/product-rules.md §6). sonner keeps toasts raised before its area mounts and shows them
 * once it does.
 */
const loadSonner = () => import('sonner')
const ToasterHost = lazy(() => import('~/components/toaster-host'))

let isToasterWanted = false
const listeners = new Set<() => void>()

function wantToaster() {
  if (isToasterWanted) return
  isToasterWanted = true
  for (const listener of listeners) listener()
}

type ToastType = 'success' | 'error' | 'info' | 'warning'

function show(type: ToastType | 'default', title: ReactNode, options?: ExternalToast) {
  wantToaster()
  loadSonner()
    .then(({ toast }) => (type === 'default' ? toast : toast[type])(title, options))
    .catch((error: unknown) => console.error('Showing a toast failed', error))
}

/** Shows a toast: sonner's `toast`, with its area and code loaded on first use. */
export const toast = Object.assign(
  (title: ReactNode, options?: ExternalToast) => show('default', title, options),
  {
    success: (title: ReactNode, options?: ExternalToast) => show('success', title, options),
    error: (title: ReactNode, options?: ExternalToast) => show('error', title, options),
    info: (title: ReactNode, options?: ExternalToast) => show('info', title, options),
    warning: (title: ReactNode, options?: ExternalToast) => show('warning', title, options),
  },
)

function subscribe(listener: () => void) {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** The toast area, rendered once a toast has been asked for. */
export function Toaster({ theme }: { theme: 'light' | 'dark' | 'system' }) {
  const isWanted = useSyncExternalStore(
    subscribe,
    () => isToasterWanted,
    () => false,
  )
  if (!isWanted) return null
  return (
    <Suspense fallback={null}>
      <ToasterHost theme={theme} />
    </Suspense>
  )
}

/** Shows a toast the server flashed across a redirect, once. */
export function useServerToast(flashed: Toast | null) {
  useEffect(() => {
    if (!flashed) return
    const options = { id: flashed.id, description: flashed.description }
    if (flashed.type === 'default') toast(flashed.title, options)
    else toast[flashed.type](flashed.title, options)
  }, [flashed])
}

/**
 * The flashed message without JavaScript, where toasts cannot show: a banner at the top of the
 * page, or of the task modal while one is open (its overlay covers the page).
 */
export function NoscriptToast({ toast }: { toast: Toast }) {
  return (
    <noscript>
      <div role="status" className="border-b bg-muted px-4 py-3 text-center text-sm">
        <strong>{toast.title}</strong>
        {toast.description ? ` ${toast.description}` : null}
      </div>
    </noscript>
  )
}
