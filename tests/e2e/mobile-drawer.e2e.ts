import { expect, test } from '@playwright/test'

test.use({ viewport: { width: 390, height: 844 } })

const LINKS = ['Showcase', 'Blog', 'Docs', 'Changelog', 'Pricing', 'Support']

test('the menu button opens a 16rem drawer on the left, titled "Mobile Navigation"', async ({ page }) => {
  await page.goto('/')
  const drawer = page.getByRole('dialog', { name: 'Mobile Navigation' })
  await expect(drawer).toBeHidden()
  // The desktop links are hidden at this width: the drawer is the way to them.
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden()

  // A native popover: the button opens it with or without JavaScript.
  await page.getByRole('button', { name: 'Open navigation menu' }).click()
  await expect(drawer).toBeVisible()
  await expect(drawer).toHaveAttribute('id', 'mobile-navigation')
  await expect(page.locator('#mobile-navigation:popover-open')).toHaveCount(1)
  const box = await drawer.boundingBox()
  expect(box).toMatchObject({ x: 0, y: 0, width: 256, height: 844 })
  await expect(drawer.getByRole('navigation', { name: 'Mobile' }).getByRole('link')).toHaveText(LINKS)

  await page.keyboard.press('Escape')
  await expect(drawer).toBeHidden()

  await page.getByRole('button', { name: 'Open navigation menu' }).click()
  await expect(drawer).toBeVisible()
  await drawer.getByRole('button', { name: 'Close navigation menu' }).click()
  await expect(drawer).toBeHidden()
})

test('choosing a link navigates there and the drawer is closed on the new page', async ({ page }) => {
  await page.goto('/tss')
  const drawer = page.getByRole('dialog', { name: 'Mobile Navigation' })
  await page.getByRole('button', { name: 'Open navigation menu' }).click()
  await expect(drawer).toBeVisible()

  await drawer.getByRole('link', { name: 'Changelog' }).click()
  await expect(page).toHaveURL(/\/changelog$/)
  await expect(drawer).toBeHidden()
  // The header on the new page knows where it is.
  await page.getByRole('button', { name: 'Open navigation menu' }).click()
  await expect(drawer.getByRole('link', { name: 'Changelog' })).toHaveAttribute('aria-current', 'page')
})
