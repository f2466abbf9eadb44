import { useEffect, useState } from 'react'
import { useFetcher } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { THEME_STORAGE_KEY, type Theme } from '~/theme'

/** Flips light/dark. A real form (works without JavaScript); with JavaScript it switches at once. */
export function ThemeSwitch({ serverTheme }: { serverTheme: Theme | null }) {
  const fetcher = useFetcher()
  // The server may not know the system preference; after hydration the <html> class does.
  const [theme, setTheme] = useState<Theme>(serverTheme ?? 'light')
  useEffect(() => {
    setTheme(document.documentElement.classList.contains('dark') ? 'dark' : 'light')
  }, [])
  const next: Theme = theme === 'dark' ? 'light' : 'dark'

  return (
    <ActionForm
      fetcher={fetcher}
      action="/resources/theme"
      redirectTo
      onSubmit={() => {
        applyTheme(next)
        setTheme(next)
      }}
    >
      <input type="hidden" name="theme" value={next} />
      <button
        type="submit"
        className="inline-flex size-9 items-center justify-center rounded-md hover:bg-muted focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        aria-label={`Switch to ${next} mode`}
        title={`Switch to ${next} mode`}
        data-theme={theme}
      >
        {theme === 'dark' ? <SunIcon /> : <MoonIcon />}
      </button>
    </ActionForm>
  )
}

function applyTheme(theme: Theme) {
  const root = document.documentElement
  root.classList.add('theme-transition')
  root.classList.toggle('dark', theme === 'dark')
  root.classList.toggle('light', theme === 'light')
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme)
  } catch {
    // Private mode may refuse storage; the cookie still records the choice.
  }
  window.setTimeout(() => root.classList.remove('theme-transition'), 300)
}

function SunIcon() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.93 4.93l1.41 1.41M17.66 17.66l1.41 1.41M2 12h2M20 12h2M6.34 17.66l-1.41 1.41M19.07 4.93l-1.41 1.41" />
    </svg>
  )
}

function MoonIcon() {
  return (
    <svg aria-hidden viewBox="0 0 24 24" className="size-5" fill="none" stroke="currentColor" strokeWidth="2">
      <path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z" />
    </svg>
  )
}
