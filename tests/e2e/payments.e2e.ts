import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { uniqueAddress } from './unique'

/**
 * Buying, with JavaScript on and off, against the local Stripe stand-in (the app's SDK points at
 * it): the pricing page's Buy button posts to /payment/checkout, which sends the browser to the
 * stand-in's hosted checkout; paying there posts signed webhooks to the app and returns to the
 * success page, which reads the order from the database; the billing page then shows the plan,
 * the receipt and the customer-portal button.
 */

test.describe.configure({ timeout: 90_000 })

/** Someone who is not signed in buys Solo on the pricing page and pays as `email` on the hosted page. */
async function buyAsVisitor(page: Page, kind: 'yearly' | 'lifetime', email: string) {
  await page.goto(`/pricing?billing=${kind}`)
  await page.getByRole('button', { name: `Buy Solo ${kind}` }).click()
  await page.getByLabel('E-mail').fill(email)
  await page.getByRole('button', { name: 'Pay' }).click()
}

test('a signed-in person buys Solo yearly and finds it on the billing page', async ({
  signedInPage: page,
  person,
  javaScriptEnabled,
}) => {
  await page.goto('/pricing')
  await page.getByRole('article', { name: 'Solo' }).getByRole('button', { name: 'Buy Solo yearly' }).click()

  // The stand-in's hosted checkout, with the person's address filled in by the session.
  await expect(page.getByRole('heading', { name: 'Test checkout' })).toBeVisible()
  await expect(page.getByText('Threadwork Solo, yearly')).toBeVisible()
  await expect(page.getByLabel('E-mail')).toHaveValue(person.email)
  await page.getByRole('button', { name: 'Pay' }).click()

  await expect(page).toHaveURL(/\/payment\/success\?session_id=cs_test_/)
  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'paid')
  await expect(page.getByText('Payment received — thank you!')).toBeVisible()
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page)

  await page.getByRole('link', { name: 'Go to billing' }).click()
  await expect(page).toHaveURL(/\/settings\/billing$/)
  await expect(page.getByTestId('current-plan')).toHaveText('Solo, yearly')
  await expect(page.getByTestId('plan-term')).toHaveText(/^Renews on \w+ \d+, \d{4}\.$/)
  const purchases = page.getByRole('list', { name: 'Purchases' })
  await expect(purchases.getByText('Solo, yearly')).toBeVisible()
  await expect(purchases.getByText(/\$79\.00/)).toBeVisible()
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page)

  await purchases.getByRole('link', { name: /^Receipt for Solo, yearly/ }).click()
  await expect(page.getByTestId('receipt-amount')).toHaveText('$79.00')
  await page.getByRole('link', { name: '← Billing' }).click()

  await page.getByRole('button', { name: 'Manage billing in Stripe' }).click()
  await expect(page.getByRole('heading', { name: 'Customer portal' })).toBeVisible()
})

test('a visitor buys Solo lifetime without an account: the account is created and paid', async ({
  pageFor,
}, testInfo) => {
  const page = await pageFor('visitor')
  await buyAsVisitor(page, 'lifetime', uniqueAddress('visitor', testInfo.project.name))

  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'paid')
  await expect(page.getByText('We e-mailed you a link to set a password')).toBeVisible()
  await expect(page.getByRole('link', { name: 'Sign in' }).last()).toHaveAttribute(
    'href',
    '/login?redirect=/settings/billing',
  )
})

test('a success page for an order we never made is not found', async ({ page }) => {
  const response = await page.goto('/payment/success?session_id=cs_test_made_up')
  expect(response?.status()).toBe(404)
})

test('while Stripe’s events are on their way the order is pending, then paid', async ({
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  const page = await pageFor('visitor')
  await buyAsVisitor(page, 'yearly', uniqueAddress('slow+later', testInfo.project.name))

  await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'pending')
  await expect(page.getByText('Waiting for the payment to be confirmed')).toBeVisible()
  if (javaScriptEnabled) {
    // The page asks again by itself.
    await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'paid', { timeout: 15_000 })
  } else {
    await expect(page.getByText('This page does not refresh itself without JavaScript')).toBeVisible()
    await expect(async () => {
      await page.getByRole('link', { name: 'Check again' }).click()
      await expect(page.getByTestId('order-status')).toHaveAttribute('data-status', 'paid', {
        timeout: 1_000,
      })
    }).toPass({ timeout: 15_000 })
  }
})
