import { expect, test } from './fixtures'

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

test.describe('with the keyboard', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'moving and keeping focus needs JavaScript')

  test('opening moves focus into the drawer, Tab stays inside, Escape gives focus back to the menu button', async ({
    page,
  }) => {
    await page.goto('/')
    // Once the app has hydrated, as a person would act after the page settled.
    await page.waitForLoadState('networkidle')
    const drawer = page.getByRole('dialog', { name: 'Mobile Navigation' })
    const menuButton = page.getByRole('button', { name: 'Open navigation menu' })
    const isFocusInDrawer = () => drawer.evaluate((element) => element.contains(document.activeElement))

    await menuButton.focus()
    await page.keyboard.press('Enter')
    await expect(drawer).toBeVisible()
    await expect(drawer.getByRole('button', { name: 'Close navigation menu' })).toBeFocused()

    // Around twice, forwards: the close button and six links, never the page behind.
    for (let press = 0; press < 2 * (LINKS.length + 1); press++) {
      await page.keyboard.press('Tab')
      expect(await isFocusInDrawer()).toBe(true)
    }
    await expect(drawer.getByRole('button', { name: 'Close navigation menu' })).toBeFocused()
    // Backwards from the first stop goes to the last.
    await page.keyboard.press('Shift+Tab')
    await expect(drawer.getByRole('link', { name: LINKS.at(-1) })).toBeFocused()
    for (let press = 0; press < LINKS.length + 1; press++) {
      await page.keyboard.press('Shift+Tab')
      expect(await isFocusInDrawer()).toBe(true)
    }

    await page.keyboard.press('Escape')
    await expect(drawer).toBeHidden()
    await expect(menuButton).toBeFocused()
  })

  test('closing with the close button or a click on the backdrop also gives focus back', async ({ page }) => {
    await page.goto('/')
    // Once the app has hydrated, as a person would act after the page settled.
    await page.waitForLoadState('networkidle')
    const drawer = page.getByRole('dialog', { name: 'Mobile Navigation' })
    const menuButton = page.getByRole('button', { name: 'Open navigation menu' })

    await menuButton.click()
    await expect(drawer.getByRole('button', { name: 'Close navigation menu' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(drawer).toBeHidden()
    await expect(menuButton).toBeFocused()

    await menuButton.click()
    await expect(drawer).toBeVisible()
    await page.mouse.click(350, 600)
    await expect(drawer).toBeHidden()
    await expect(menuButton).toBeFocused()
  })
})
