import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { CHECKOUT_ENV } from './marketing-checkout'

/** One tier's card, found by its heading. */
function plan(page: Page, name: 'Solo' | 'Team' | 'Agency') {
  return page.getByRole('article', { name })
}

test.describe('pricing', () => {
  test('yearly by default, with each option’s configured checkout link', async ({ page }) => {
    await page.goto('/pricing')
    await expect(page.getByRole('link', { name: /^Yearly/ })).toHaveAttribute('aria-current', 'true')

    await expect(plan(page, 'Solo').getByTestId('price')).toHaveText('$79')
    await expect(plan(page, 'Team').getByTestId('price')).toHaveText('$200')
    await expect(plan(page, 'Agency').getByTestId('price')).toHaveText('$500')
    // Tier 1 is sold through Stripe (a form); tier 2 falls back to the yearly link; tier 3 has its own.
    await expect(plan(page, 'Solo').getByRole('button', { name: 'Buy Solo yearly' })).toBeEnabled()
    await expect(plan(page, 'Team').getByRole('link', { name: 'Buy Team yearly' })).toHaveAttribute(
      'href',
      CHECKOUT_ENV.CHECKOUT_URL_YEARLY,
    )
    await expect(plan(page, 'Agency').getByRole('link', { name: 'Buy Agency yearly' })).toHaveAttribute(
      'href',
      CHECKOUT_ENV.CHECKOUT_URL_TIER_3_YEARLY,
    )
    await expect(page.getByText('% off', { exact: false }).filter({ hasNotText: 'up to' })).toHaveCount(0)
  })

  test('the switch shows lifetime prices, discounts and links, and back again', async ({
    page,
    javaScriptEnabled,
  }) => {
    const switches: string[] = []
    page.on('request', (request) => {
      if (request.resourceType() === 'document' && request.url().includes('billing='))
        switches.push(request.url())
    })
    await page.goto('/pricing')
    // With JavaScript, click once the app has hydrated, as a person would after the page settled.
    if (javaScriptEnabled) await page.waitForLoadState('networkidle')
    await page.getByRole('link', { name: /^Lifetime/ }).click()

    await expect(page).toHaveURL(/\/pricing\?billing=lifetime$/)
    await expect(page.getByRole('link', { name: /^Lifetime/ })).toHaveAttribute('aria-current', 'true')
    await expect(plan(page, 'Solo').getByTestId('price')).toHaveText('$237')
    await expect(plan(page, 'Team').getByTestId('price')).toHaveText('$312')
    await expect(plan(page, 'Agency').getByTestId('price')).toHaveText('$555')

    // Discounts against three years of the yearly price: 312 = 0.52 × 600, 555 = 0.37 × 1500.
    await expect(plan(page, 'Team').getByTestId('price-note')).toHaveText(
      '48% offvs. $600 for 3 years of yearly',
    )
    await expect(plan(page, 'Agency').getByTestId('price-note')).toHaveText(
      '63% offvs. $1,500 for 3 years of yearly',
    )
    await expect(plan(page, 'Solo').getByTestId('price-note')).not.toContainText('% off')

    await expect(plan(page, 'Team').getByRole('link', { name: 'Buy Team lifetime' })).toHaveAttribute(
      'href',
      CHECKOUT_ENV.CHECKOUT_URL_TIER_2_LIFETIME,
    )
    // No lifetime link is configured for tier 3, and none generic: checkout is not open.
    await expect(plan(page, 'Agency').getByRole('button', { name: 'Checkout coming soon' })).toBeDisabled()
    await expect(plan(page, 'Agency').getByRole('link', { name: /^Buy/ })).toHaveCount(0)
    await expect(plan(page, 'Solo').getByRole('button', { name: 'Buy Solo lifetime' })).toBeEnabled()

    await page.getByRole('link', { name: /^Yearly/ }).click()
    await expect(page).toHaveURL(/\/pricing\?billing=yearly$/)
    await expect(plan(page, 'Team').getByTestId('price')).toHaveText('$200')

    // Without JavaScript each flip loads the page; with it, the page switches in place.
    expect(switches).toHaveLength(javaScriptEnabled ? 0 : 2)
  })

  test('a shared lifetime link opens on lifetime prices', async ({ page }) => {
    await page.goto('/pricing?billing=lifetime')
    await expect(plan(page, 'Team').getByTestId('price')).toHaveText('$312')
  })

  test('an unknown billing value shows yearly prices rather than an error', async ({ page }) => {
    const response = await page.goto('/pricing?billing=monthly')
    expect(response?.status()).toBe(200)
    await expect(plan(page, 'Team').getByTestId('price')).toHaveText('$200')
  })
})
