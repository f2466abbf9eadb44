import { expect, test } from './fixtures'

test('an unknown URL answers 404 with the not-found screen', async ({ page }) => {
  const response = await page.goto('/no-such-page')
  expect(response?.status()).toBe(404)
  const main = page.getByRole('main')
  await expect(main.getByText('The page you are looking for does not exist.')).toBeVisible()
  await expect(main.getByRole('link', { name: 'Go back' })).toBeVisible()
  await expect(main.getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/')
  // The header still frames the page.
  await expect(page.getByRole('banner')).toBeVisible()
})

test('"Go back" returns to the page the visitor came from', async ({ page, baseURL, javaScriptEnabled }) => {
  await page.goto('/tss')
  // The way a link elsewhere would arrive: with the previous page as Referer.
  await page.goto('/no-such-page', { referer: `${baseURL}/tss` })
  const goBack = page.getByRole('main').getByRole('link', { name: 'Go back' })
  // Without JavaScript the link itself points where the server saw the visitor come from.
  if (!javaScriptEnabled) await expect(goBack).toHaveAttribute('href', '/tss')
  await goBack.click()
  await expect(page).toHaveURL(/\/tss$/)
  await expect(page.getByRole('heading', { name: 'All systems operational' })).toBeVisible()
})

test('"Go back" without JavaScript leads home when the visitor came from nowhere', async ({
  page,
  javaScriptEnabled,
}) => {
  // With JavaScript it goes back in history, and a Playwright tab always has an entry before
  // the first page (about:blank), unlike a tab opened on a URL.
  test.skip(javaScriptEnabled, 'with JavaScript "Go back" follows history')
  await page.goto('/no-such-page')
  await page.getByRole('main').getByRole('link', { name: 'Go back' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('heading', { name: 'Tasks, talked through.' })).toBeVisible()
})

test('"Home" leads home', async ({ page }) => {
  await page.goto('/tss')
  await page.goto('/no-such-page')
  await page.getByRole('main').getByRole('link', { name: 'Home' }).click()
  await expect(page).toHaveURL(/\/$/)
  await expect(page.getByRole('heading', { name: 'Tasks, talked through.' })).toBeVisible()
})
