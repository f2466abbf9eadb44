import { database } from '~/db/client.server'
import { env } from '~/env.server'
import { stripeClient } from '~/services/payments/stripe.server'
import { handleStripeEvent } from '~/services/payments/webhook.server'
import type { Route } from './+types/stripe-webhook'

/**
 * Stripe's events. The signature covers the exact bytes Stripe sent, so the body is read raw, as
 * the server buffered it (bounded to 512 KiB by server/body-limits.ts), and verified before
 * anything parses it. The answer comes as soon as the event's change is committed: e-mail and the
 * repository invitation were queued with it and run afterwards. What each event does:
 * app/services/payments/webhook.server.ts.
 */

const refuse = (status: number, code: string, message: string) =>
  Response.json({ code, message }, { status, headers: { 'Cache-Control': 'no-store' } })

export async function action({ request }: Route.ActionArgs) {
  const stripe = stripeClient()
  const secret = env().STRIPE_WEBHOOK_SECRET
  if (!stripe || !secret) return refuse(404, 'NOT_FOUND', 'Stripe is not configured here.')
  if (request.method !== 'POST') return refuse(405, 'METHOD_NOT_ALLOWED', 'Stripe posts its events.')

  const signature = request.headers.get('stripe-signature')
  if (!signature) return refuse(400, 'BAD_REQUEST', 'Missing the Stripe-Signature header.')
  const payload = Buffer.from(await request.arrayBuffer())
  let event: ReturnType<typeof stripe.webhooks.constructEvent>
  try {
    event = stripe.webhooks.constructEvent(payload, signature, secret)
  } catch {
    return refuse(400, 'BAD_REQUEST', 'The signature does not match this body, or it is too old.')
  }

  const outcome = await handleStripeEvent(database(), event)
  return Response.json({ received: true, outcome }, { headers: { 'Cache-Control': 'no-store' } })
}
