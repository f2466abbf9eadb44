import { useEffect, useState } from 'react'
import { useFetcher } from 'react-router'
import { ActionForm } from '~/components/action-form'
import { Button } from '~/components/ui/button'
import { Icon } from '~/components/ui/icon'
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
      // The command palette's "toggle theme" submits this form (app/components/keyboard/).
      id="theme-switch"
      fetcher={fetcher}
      action="/resources/theme"
      redirectTo
      onSubmit={() => {
        applyTheme(next)
        setTheme(next)
      }}
    >
      <input type="hidden" name="theme" value={next} />
      <Button
        type="submit"
        variant="ghost"
        size="icon"
        aria-label={`Switch to ${next} mode`}
        title={`Switch to ${next} mode`}
        data-theme={theme}
      >
        <Icon name={theme === 'dark' ? 'sun' : 'moon'} className="size-5" />
      </Button>
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
