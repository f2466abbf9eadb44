import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'
import { cn } from '~/utils/cn'
import { isPlainLeftClick } from '~/utils/plain-click'
import './prose.css'

/**
 * Compiled content as the server rendered it (docs/decisions/018-content-html-on-the-server.md).
 * The HTML comes from our own MDX files through the content service, never from visitors. Links
 * inside it are plain anchors; with JavaScript, same-origin ones become client-side navigations.
 */
export function Prose({ html, className }: { html: string; className?: string }) {
  const container = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()

  useEffect(() => {
    const element = container.current
    if (!element) return
    // Delegated from the container: the links keep their own keyboard behaviour (Enter clicks).
    function followInternalLink(event: MouseEvent) {
      if (!isPlainLeftClick(event)) return
      const anchor = (event.target as Element | null)?.closest('a')
      if (!anchor || anchor.target || anchor.hasAttribute('download')) return
      const url = new URL(anchor.href, window.location.href)
      if (url.origin !== window.location.origin) return
      // Jumps within the page (heading anchors, the table of contents) stay with the browser.
      if (url.pathname === window.location.pathname && url.search === window.location.search) return
      event.preventDefault()
      void navigate(url.pathname + url.search + url.hash)
    }
    element.addEventListener('click', followInternalLink)
    return () => element.removeEventListener('click', followInternalLink)
  }, [navigate])

  return (
    <div
      ref={container}
      className={cn('prose', className)}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: HTML compiled from our own content files on the server
      dangerouslySetInnerHTML={{ __html: html }}
    />
  )
}
