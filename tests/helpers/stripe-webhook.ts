import { action as webhookAction } from '~/routes/api/stripe-webhook'
import type { StripeStandIn } from '../fixtures/stripe-api'
import { clientContext, respondThroughMiddleware } from './auth'
import { serveFetch, type TestServer } from './http-server'

/**
 * The app's Stripe webhook endpoint over HTTP, through the root middleware (which must let Stripe in without
 * a CSRF token), with the Stripe stand-in delivering its events to it.
 */
export async function serveStripeWebhook(stripe: StripeStandIn): Promise<TestServer> {
  const app = await serveFetch((request) =>
    respondThroughMiddleware(webhookAction, {
      request,
      url: new URL(request.url),
      params: {},
      context: clientContext(),
      pattern: '/api/stripe/webhook',
    }),
  )
  stripe.setWebhookUrl(`${app.origin}/api/stripe/webhook`)
  return app
}
