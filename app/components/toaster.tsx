import { useEffect } from 'react'
import { Toaster as Sonner, toast as showToast } from 'sonner'
import type { Toast } from '~/toast.server'

/**
 * The toast area, with the spec's settings (§9): 4000 ms, three visible, 14 px gap, Alt+T,
 * 24/16 px offsets. The issue places it top-right.
 */
export function Toaster({ theme }: { theme: 'light' | 'dark' | 'system' }) {
  return (
    <Sonner
      position="top-right"
      theme={theme}
      duration={4000}
      visibleToasts={3}
      gap={14}
      hotkey={['altKey', 'KeyT']}
      offset={24}
      mobileOffset={16}
      closeButton
      richColors
    />
  )
}

/** Shows a toast the server flashed across a redirect, once. */
export function useServerToast(toast: Toast | null) {
  useEffect(() => {
    if (!toast) return
    const show = toast.type === 'default' ? showToast : showToast[toast.type]
    show(toast.title, { id: toast.id, description: toast.description })
  }, [toast])
}
