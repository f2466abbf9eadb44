import { startStripeStandIn } from '../fixtures/stripe-api'

/**
 * Starts the Stripe stand-in in the runner, on the port the config chose and handed to the app
 * server, for the whole run. Its hosted checkout posts the signed webhooks to the app under test.
 */
export default async function startLocalStripe() {
  const stripe = await startStripeStandIn({
    port: Number(process.env.E2E_STRIPE_PORT),
    webhookUrl: `http://127.0.0.1:${process.env.E2E_PORT}/api/stripe/webhook`,
  })
  return () => stripe.close()
}
