import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'

/**
 * Small readers for server-rendered markup, so a test can assert what a person sees (text,
 * links, buttons) instead of class names. Good for `renderToString` output, not a browser DOM.
 */

function decode(text: string) {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
}

function plain(html: string) {
  return decode(html.replace(/<[^>]*>/g, ' ').replace(/\s+/g, ' ')).trim()
}

/** The page's text with tags removed and whitespace collapsed. */
export function visibleText(html: string): string {
  return plain(html.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/gi, ' '))
}

/**
 * The page's text as the DOM's `textContent` has it: tags removed with nothing put in their place,
 * whitespace collapsed. Where `visibleText` would part "CI" and a badge beside it, this keeps what
 * the markup says, so a name run into its badge ("CIRead only") shows.
 */
export function textContent(html: string): string {
  return decode(html.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ')).trim()
}

/** Every link as a person would read it: its text and where it goes. */
export function links(html: string): { text: string; href: string | null }[] {
  return [...html.matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a>/gi)].map(([, attributes = '', inner = '']) => ({
    text: plain(inner),
    href: /\bhref="([^"]*)"/.exec(attributes)?.[1] ?? null,
  }))
}

/** The labels of every button. */
export function buttons(html: string): string[] {
  return [...html.matchAll(/<button\b[^>]*>([\s\S]*?)<\/button>/gi)].map(([, inner = '']) => plain(inner))
}

/**
 * A route's page as the server renders it for the data its loader (and action) answered, without
 * a browser: what a person without JavaScript receives.
 */
export function renderRoute(
  route: { id: string; path: string; Component: unknown },
  data: { loaderData: unknown; actionData?: unknown },
) {
  const Page = createRoutesStub([{ id: route.id, path: route.path, Component: route.Component as never }])
  return renderToString(
    createElement(Page, {
      initialEntries: [route.path],
      hydrationData: {
        loaderData: { [route.id]: data.loaderData },
        ...(data.actionData === undefined ? {} : { actionData: { [route.id]: data.actionData } }),
      },
    }),
  )
}
