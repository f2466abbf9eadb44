import type { SubmissionResult } from '@conform-to/react'
import { data } from 'react-router'
import { isDomainError, RateLimited } from '~/services/errors'

type Replyable = { reply: (options?: { formErrors?: string[]; hideFields?: string[] }) => SubmissionResult }

/**
 * Turns a service's domain error into the form's answer: its message above the form, the
 * matching HTTP status (and Retry-After when rate-limited). Anything else is a bug and rethrows.
 */
export function replyWithError(submission: Replyable, error: unknown, hideFields: string[] = []) {
  if (!isDomainError(error)) throw error
  const headers = error instanceof RateLimited ? { 'Retry-After': String(error.retryAfter) } : undefined
  return data(
    { result: submission.reply({ formErrors: [error.message], hideFields }) },
    { status: error.status, headers },
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
