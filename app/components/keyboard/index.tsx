import { lazy, Suspense } from 'react'

/**
 * The listener loads after the page hydrates, like the mention toasts: it renders nothing until a
 * key asks for a dialog, so no page pays for it on first load (docs/decisions/029-first-load-javascript.md),
 * and its dialogs and the command palette load only when first opened.
 */
const Listener = lazy(() => import('./keyboard-shortcuts'))

/** The app's keyboard shortcuts and command palette, mounted once in the root layout. */
export function KeyboardShortcuts({ isSignedIn }: { isSignedIn: boolean }) {
  return (
    <Suspense fallback={null}>
      <Listener isSignedIn={isSignedIn} />
    </Suspense>
  )
}
