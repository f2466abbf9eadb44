import { PassThrough } from 'node:stream'
import { createReadableStreamFromReadable } from '@react-router/node'
import { isbot } from 'isbot'
import type { RenderToPipeableStreamOptions } from 'react-dom/server'
import { renderToPipeableStream } from 'react-dom/server'
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from 'react-router'
import { ServerRouter } from 'react-router'
import { nonceContext } from '~/context'
import { isDatabaseUnavailable, logUnavailable, markUnavailable } from '~/db/unavailable.server'
import { contentSecurityPolicy } from '~/security.server'
import { DocumentCache, documentCacheKey } from '~/utils/document-cache.server'
import { notModifiedResponse } from '~/utils/public-cache.server'

export const streamTimeout = 5_000

/**
 * Every error a loader, action or middleware throws passes here. One that says the database is
 * out of reach marks its request, and the server answers it 503 with Retry-After instead of the
 * error page's 500 (server/app.ts). Others are logged, as React Router does without this export.
 */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (isDatabaseUnavailable(error)) {
    markUnavailable(context as RouterContextProvider)
    logUnavailable(request.method, new URL(request.url).pathname)
    return
  }
  if (!request.signal.aborted) console.error(error)
}

/** Public pages as anonymous visitors get them, rendered once per version (document-cache.server.ts). */
const documents = new DocumentCache()

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  // Public pages carry an ETag; a browser or CDN that already has this version gets no body.
  const notModified = notModifiedResponse(
    request,
    responseStatusCode,
    responseHeaders,
    routerContext.manifest.version,
  )
  if (notModified) return notModified
  // A page that does not say it may be shared (public pages do) is one visitor's: their tasks,
  // their name, a CSRF token bound to them. No shared cache stores it, and a browser asks again.
  if (!responseHeaders.has('Cache-Control')) responseHeaders.set('Cache-Control', 'private, no-cache')

  const nonce = loadContext.get(nonceContext)
  if (nonce) responseHeaders.set('Content-Security-Policy', contentSecurityPolicy(nonce))
  // Ask Chromium for the system theme on every later request. Not Critical-CH: it makes Chromium
  // fetch a first visit's page twice (~600 ms on mobile), and the CSS media query and the boot
  // script already paint that visit in the system theme (docs/decisions/005-theme-without-flash.md).
  responseHeaders.set('Accept-CH', 'Sec-CH-Prefers-Color-Scheme')
  responseHeaders.append('Vary', 'Sec-CH-Prefers-Color-Scheme')
  responseHeaders.set('Content-Type', 'text/html; charset=utf-8')

  if (request.method.toUpperCase() === 'HEAD') {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders })
  }

  const cacheKey = nonce ? documentCacheKey(request, responseStatusCode, responseHeaders) : null
  if (nonce && cacheKey) {
    const cached = documents.get(cacheKey, nonce)
    if (cached !== undefined)
      return new Response(cached, { status: responseStatusCode, headers: responseHeaders })
    return renderWhole(request, routerContext, nonce).then(({ html, hasFailed }) => {
      if (!hasFailed) documents.set(cacheKey, html, nonce)
      return new Response(html, { status: hasFailed ? 500 : responseStatusCode, headers: responseHeaders })
    })
  }

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false
    const userAgent = request.headers.get('user-agent')
    // Crawlers get the whole document at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? 'onAllReady' : 'onShellReady'

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000)

    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce || undefined} />,
      {
        nonce: nonce || undefined,
        [readyOption]() {
          shellRendered = true
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId)
              timeoutId = undefined
              callback()
            },
          })
          pipe(body)
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          )
        },
        onShellError(error: unknown) {
          reject(error)
        },
        onError(error: unknown) {
          responseStatusCode = 500
          // Errors before the shell reject above and are logged by React Router.
          if (shellRendered) console.error(error)
        },
      },
    )
  })
}

/**
 * The whole document as one string, for the document cache: a public page has nothing to stream
 * late, so waiting for all of it costs a visitor nothing. `hasFailed` when a part failed to render
 * (an error boundary shows instead): such a page is answered 500 and never kept.
 */
function renderWhole(request: Request, routerContext: EntryContext, nonce: string) {
  return new Promise<{ html: string; hasFailed: boolean }>((resolve, reject) => {
    let hasFailed = false
    let isShellReady = false
    const timeoutId = setTimeout(() => abort(), streamTimeout + 1000)
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} nonce={nonce} />,
      {
        nonce,
        onAllReady() {
          const chunks: Buffer[] = []
          const body = new PassThrough()
          body.on('data', (chunk: Buffer) => chunks.push(chunk))
          body.on('end', () => {
            clearTimeout(timeoutId)
            resolve({ html: Buffer.concat(chunks).toString('utf8'), hasFailed })
          })
          pipe(body)
        },
        onShellError(error: unknown) {
          clearTimeout(timeoutId)
          reject(error)
        },
        onShellReady() {
          isShellReady = true
        },
        onError(error: unknown) {
          hasFailed = true
          // Errors before the shell reject above and are logged by React Router.
          if (isShellReady) console.error(error)
        },
      },
    )
  })
}
