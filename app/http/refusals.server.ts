import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import { type DomainError, refusalFor } from '~/services/errors'

/**
 * How route modules answer what the domain refused: the one translation of the services' typed
 * errors into HTTP (each error knows its status; a rate limit adds when to retry), and the shapes
 * built on it: the reply of a conform form and the `headers` export that lets Retry-After
 * through. The status and headers come from `refusalFor` (app/services/errors.ts), which
 * /api/auth answers with too; the RPC endpoint has its own translation, into oRPC's codes
 * (app/rpc/base.server.ts). A route's action reaches these through `handleForm`
 * (form-action.server.ts), never by itself.
 */

export { refusalFor }

type Replyable = { reply: (options?: { formErrors?: string[]; hideFields?: string[] }) => SubmissionResult }

type ReplyOptions<Extra> = {
  /** Fields whose values never go back to the page (passwords). */
  hideFields?: string[]
  /** More of the body beside `result`: on a page of several forms, which one answers. */
  body?: Extra
  /** Headers of the answer beside the refusal's own. */
  headers?: Record<string, string>
  /** The words above the form, when the page says more than the error's own message. */
  message?: (error: DomainError) => string
}

/**
 * Turns a service's domain error into the form's answer: its message above the form, with the
 * error's status and headers. Anything else is a bug and rethrows.
 */
export function replyWithError<Extra extends object = object>(
  submission: Replyable,
  error: unknown,
  { hideFields = [], body, headers, message }: ReplyOptions<Extra> = {},
) {
  const { reason, init } = refusalFor(error)
  const formError = message ? message(reason) : reason.message
  return data(
    { ...(body as Extra), result: submission.reply({ formErrors: [formError], hideFields }) },
    { status: init.status, headers: { ...headers, ...init.headers } },
  )
}

/**
 * The `headers` export of a route whose form answers with replyWithError. React Router passes
 * only an action's cookies on to the page unless the route names its headers, so without this a
 * 429's Retry-After never reached the browser.
 */
export function keepRetryAfter({
  actionHeaders,
  loaderHeaders,
  parentHeaders,
}: {
  actionHeaders: Headers
  loaderHeaders?: Headers
  parentHeaders: Headers
}) {
  const headers = new Headers(parentHeaders)
  // The page's own caching rule (e.g. private for pages holding a CSRF token) still applies.
  const cacheControl = loaderHeaders?.get('Cache-Control')
  if (cacheControl) headers.set('Cache-Control', cacheControl)
  const retryAfter = actionHeaders.get('Retry-After')
  if (retryAfter) headers.set('Retry-After', retryAfter)
  return headers
}
