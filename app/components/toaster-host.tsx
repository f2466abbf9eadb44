import { useEffect, useState } from 'react'
import { createPortal } from 'react-dom'
import { Toaster as Sonner } from 'sonner'

/**
 * The toast area, with the product's settings (docs/product-rules.md §3): 4000 ms, three
 * visible, 14 px gap, Alt+T, 24/16 px offsets, top-right. It lives in the top layer, above the task
 * modal, the drawer and the account menu (see `useTopLayerHost`). Loaded with the page's first
 * toast (`~/components/toaster`), so pages that show none never download sonner.
 */
export default function ToasterHost({ theme }: { theme: 'light' | 'dark' | 'system' }) {
  const host = useTopLayerHost()
  if (!host) return null
  return createPortal(
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
    />,
    host,
  )
}

/**
 * An element that stays the topmost thing on the page. The task modal is a modal <dialog> and
 * the drawer and account menu are popovers: all three sit in the browser's top layer, which no
 * z-index reaches, and a modal dialog makes everything outside it inert. So the host is itself a
 * popover (`popover="manual"`, which closes nothing else), shown again each time something else
 * enters the top layer so that it is the newest there, and placed inside the open modal dialog,
 * if any, so that it is not inert. Toasts shown meanwhile survive the move: sonner keeps them.
 */
function useTopLayerHost() {
  const [host, setHost] = useState<HTMLElement | null>(null)

  useEffect(() => {
    const element = document.createElement('div')
    element.dataset.toasterHost = ''
    const canPop = typeof element.showPopover === 'function'
    if (canPop) element.popover = 'manual'
    // Not the popover's default box: no size, no border or background; the toasts place themselves.
    Object.assign(element.style, {
      position: 'fixed',
      inset: '0 auto auto 0',
      width: '0',
      height: '0',
      margin: '0',
      padding: '0',
      border: '0',
      overflow: 'visible',
      background: 'transparent',
    })

    const openModal = () => {
      const modals = document.querySelectorAll('dialog:modal')
      return modals[modals.length - 1] ?? null
    }
    const raise = () => {
      const container = openModal() ?? document.body
      if (element.parentElement !== container) container.append(element)
      if (!canPop) return
      if (element.matches(':popover-open')) element.hidePopover()
      element.showPopover()
    }
    const isMisplaced = () => element.parentElement !== (openModal() ?? document.body)

    // Popovers (the drawer, the account menu) say they opened with a `toggle` event.
    const onToggle = (event: Event) => {
      if (event.target === element) return
      if ((event as ToggleEvent).newState === 'open' || isMisplaced()) raise()
    }
    // A dialog opening or closing changes its `open` attribute; one taken out of the page (the
    // modal closing by navigation) takes the host with it.
    const observer = new MutationObserver((records) => {
      const hasDialogChanged = records.some(
        (record) => record.type === 'attributes' && record.target instanceof HTMLDialogElement,
      )
      if (hasDialogChanged || isMisplaced()) raise()
    })

    raise()
    document.addEventListener('toggle', onToggle, true)
    observer.observe(document.body, {
      subtree: true,
      childList: true,
      attributes: true,
      attributeFilter: ['open'],
    })
    setHost(element)
    return () => {
      observer.disconnect()
      document.removeEventListener('toggle', onToggle, true)
      element.remove()
    }
  }, [])

  return host
}
