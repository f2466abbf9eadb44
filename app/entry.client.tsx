import { StrictMode, startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { HydratedRouter } from 'react-router/dom'
import { noteTextTypedBeforeHydration } from '~/utils/typed-before-hydration'

// What was typed into the server's HTML is given back once hydrated (the root's Layout).
noteTextTypedBeforeHydration()

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <HydratedRouter />
    </StrictMode>,
  )
})
