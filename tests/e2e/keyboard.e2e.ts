import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { focused } from './focus'
import { createTaskThroughApi } from './rpc-calls'
import { group, listReady, modal } from './task-page'
import { expectTheme, THEMES } from './theme-cookie'
import { uniqueTitle } from './unique'

/**
 * The keyboard, driven by the keyboard only: the shortcuts list (`?`), going places (`g t`),
 * a new task (`c`), moving through the task list (`j`, `k`, Enter, Escape) and the command
 * palette (Ctrl-K), each dialog axe-clean in both themes. Without JavaScript the pages are the
 * same pages and nothing of the keyboard's shows.
 */

const shortcutsDialog = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' })
const palette = (page: Page) => page.getByRole('dialog', { name: 'Command palette' })
const paletteInput = (page: Page) => palette(page).getByRole('combobox')

/**
 * The shortcuts load just after the page hydrates: `?` is pressed until their list opens, and
 * Escape closes it again, so the test starts with them listening.
 */
async function shortcutsListening(page: Page) {
  await expect(async () => {
    await page.keyboard.press('?')
    await expect(shortcutsDialog(page)).toBeVisible({ timeout: 1_000 })
  }).toPass()
  await page.keyboard.press('Escape')
  await expect(shortcutsDialog(page)).toBeHidden()
}

test.describe('with JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'Shortcuts are JavaScript')

  test('? lists the shortcuts; Escape closes the list and gives the focus back', async ({
    signedInPage: page,
  }) => {
    await page.goto('/dashboard')
    await shortcutsListening(page)
    await page.getByRole('link', { name: 'Task List' }).first().focus()
    await page.keyboard.press('?')
    const dialog = shortcutsDialog(page)
    await expect(dialog).toBeVisible()
    await expect(page.locator('dialog:modal')).toHaveCount(1)
    await expect(dialog.getByText('Go to the dashboard')).toBeVisible()
    await expect(dialog.getByText('Open the command palette (⌘+K on a Mac)')).toBeVisible()
    // Its own keys are not shortcuts while it is open.
    await page.keyboard.press('g')
    await page.keyboard.press('t')
    await expect(page).toHaveURL(/\/dashboard$/)
    await page.keyboard.press('Escape')
    await expect(dialog).toBeHidden()
    expect(await focused(page)).toBe('Task List')
  })

  test('g then t, d, n and c go to those pages', async ({ signedInPage: page }) => {
    await page.goto('/dashboard')
    await shortcutsListening(page)
    for (const [key, path] of [
      ['t', '/task'],
      ['d', '/dashboard'],
      ['n', '/notifications'],
      // Last: the chat puts the focus in its message box, where keys are typing.
      ['c', '/chat'],
    ]) {
      await page.keyboard.press('g')
      await page.keyboard.press(key as string)
      await expect(page).toHaveURL(new RegExp(`${path}$`))
    }
  })

  test('c starts a new task, from another page and on /task; typing in a field is only typing', async ({
    signedInPage: page,
  }) => {
    await page.goto('/dashboard')
    await shortcutsListening(page)
    await page.keyboard.press('c')
    await expect(page).toHaveURL(/\/task$/)
    const title = page.getByRole('region', { name: 'New task' }).getByLabel('Title')
    await expect(title).toBeFocused()

    // Every shortcut's key typed into the field is text, not a command.
    await page.keyboard.type('g t c j k ? /')
    await expect(title).toHaveValue('g t c j k ? /')
    await expect(page).toHaveURL(/\/task$/)
    await expect(shortcutsDialog(page)).toBeHidden()

    // On /task itself, `c` takes the focus from wherever it is to the title.
    await title.blur()
    await page.keyboard.press('c')
    await expect(title).toBeFocused()
  })

  test('j and k move a visible focus through the task list, Enter opens the task and Escape closes it', async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const titles = ['Book the venue', 'Send the invitations', 'Order the catering'].map((label) =>
      uniqueTitle(label, testInfo.project.name),
    )
    for (const text of titles) await createTaskThroughApi(person, { text })
    await page.goto('/task')
    await listReady(page, true)
    await shortcutsListening(page)
    // Others' public tasks (from tests running beside this one) may follow under Public: the
    // person's own three come first, as the page lists its groups.
    const rowLinks = page.locator('[data-keyboard-row]')
    await expect(group(page, 'My tasks').locator('[data-keyboard-row]')).toHaveCount(3)
    const order = await rowLinks.allTextContents()

    await page.keyboard.press('j')
    await expect(rowLinks.nth(0)).toBeFocused()
    // A ring the person can see: the browser's focus-visible style applies.
    expect(await rowLinks.nth(0).evaluate((link) => link.matches(':focus-visible'))).toBe(true)
    await page.keyboard.press('k')
    await expect(rowLinks.nth(0)).toBeFocused()
    await page.keyboard.press('j')
    await page.keyboard.press('j')
    await expect(rowLinks.nth(2)).toBeFocused()
    await page.keyboard.press('k')
    await expect(rowLinks.nth(1)).toBeFocused()

    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\?task=/)
    await expect(modal(page).getByRole('heading', { name: order[1] })).toBeVisible()
    // The list's keys wait while the modal is open.
    await page.keyboard.press('j')
    await expect(modal(page)).toBeVisible()

    await page.keyboard.press('Escape')
    await expect(modal(page)).toBeHidden()
    await expect(page).toHaveURL(/\/task$/)
    await expect(rowLinks.nth(1)).toBeFocused()
  })

  test('Ctrl-K opens the palette: a page name and Enter go there; Escape gives the focus back', async ({
    signedInPage: page,
  }) => {
    await page.goto('/dashboard')
    await shortcutsListening(page)
    await page.getByRole('link', { name: 'Docs' }).first().focus()

    await page.keyboard.press('Control+k')
    await expect(palette(page)).toBeVisible()
    await expect(paletteInput(page)).toBeFocused()
    // The query is searched for tasks too: whatever /search answers (a 404 where it is absent),
    // the palette and the page stay as they are.
    const searched = page.waitForResponse((response) =>
      new URL(response.url()).pathname.startsWith('/search'),
    )
    await page.keyboard.type('zzz')
    await searched
    await expect(palette(page).getByRole('status')).toHaveText('Nothing matches. Try another word.')
    await expect(page.getByRole('heading', { name: /^Welcome back/, level: 1 })).toBeAttached()
    await page.keyboard.press('Escape')
    await expect(palette(page)).toBeHidden()
    expect(await focused(page)).toBe('Docs')

    await page.keyboard.press('Control+k')
    await expect(paletteInput(page)).toBeFocused()
    await expect(paletteInput(page)).toHaveValue('')
    await page.keyboard.type('notif')
    const option = palette(page).getByRole('option', { name: /Notifications/ })
    await expect(option).toHaveAttribute('aria-selected', 'true')
    await expect(paletteInput(page)).toHaveAttribute(
      'aria-activedescendant',
      (await option.getAttribute('id')) ?? '',
    )
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(/\/notifications$/)
    await expect(palette(page)).toBeHidden()
  })

  test('the palette moves with the arrows and runs actions: the theme toggles', async ({
    signedInPage: page,
  }) => {
    await page.goto('/dashboard')
    await shortcutsListening(page)
    const wasDark = await page.evaluate(() => document.documentElement.classList.contains('dark'))
    await page.keyboard.press('Control+k')
    await expect(paletteInput(page)).toBeFocused()
    const options = palette(page).getByRole('option')
    await expect(options.first()).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('ArrowDown')
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('ArrowUp')
    await page.keyboard.press('ArrowUp')
    await expect(options.last()).toHaveAttribute('aria-selected', 'true')

    await page.keyboard.type('theme')
    await page.keyboard.press('Enter')
    await expect(palette(page)).toBeHidden()
    await expectTheme(page, wasDark ? 'light' : 'dark')
    // Through the header's own form: the server keeps the choice.
    await page.reload()
    await expectTheme(page, wasDark ? 'light' : 'dark')
  })

  test('the palette signs out through the account menu’s form', async ({ signedInPage: page }) => {
    await page.goto('/dashboard')
    await shortcutsListening(page)
    await page.keyboard.press('Control+k')
    await expect(paletteInput(page)).toBeFocused()
    await page.keyboard.type('sign out')
    await page.keyboard.press('Enter')
    await expect(page.getByRole('link', { name: 'Sign In' })).toBeVisible()
    await page.goto('/dashboard')
    await expect(page).toHaveURL(/\/login/)
  })

  test('the palette finds a task by title through the search and opens it', async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const text = uniqueTitle('Deploy the keyboard palette', testInfo.project.name)
    const { id } = await createTaskThroughApi(person, { text })
    await page.goto('/dashboard')
    await shortcutsListening(page)
    await page.keyboard.press('Control+k')
    await expect(paletteInput(page)).toBeFocused()
    // The title's last word is this test's own.
    await page.keyboard.type(text.split(' ').at(-1) ?? '')
    const option = palette(page).getByRole('option', { name: new RegExp(text) })
    await expect(option).toContainText('Task')
    await page.keyboard.press('ArrowUp')
    await expect(option).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('Enter')
    await expect(page).toHaveURL(new RegExp(`/task\\?task=${id}$`))
    await expect(modal(page).getByRole('heading', { name: text })).toBeVisible()
  })

  for (const theme of THEMES) {
    // Three full axe runs on two shared cores.
    test(`the shortcuts list and the palette are axe-clean, ${theme} theme`, async ({ pageFor, person }) => {
      test.setTimeout(120_000)
      const page = await pageFor(person, { theme })
      await page.goto('/task')
      await expectTheme(page, theme)
      await listReady(page, true)
      await shortcutsListening(page)
      await page.keyboard.press('?')
      await expect(shortcutsDialog(page)).toBeVisible()
      await expectNoSeriousA11yViolations(page, `the shortcuts list, ${theme}`)
      await page.keyboard.press('Escape')
      await expect(shortcutsDialog(page)).toBeHidden()

      await page.keyboard.press('Control+k')
      await expect(paletteInput(page)).toBeFocused()
      await expectNoSeriousA11yViolations(page, `the palette, ${theme}`)
      await page.keyboard.type('zzz')
      await expect(palette(page).getByRole('status')).toBeVisible()
      await expectNoSeriousA11yViolations(page, `the palette with nothing found, ${theme}`)
    })
  }
})

test.describe('without JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'The pages as the server sends them')

  test('the task list works and shows nothing of the keyboard', async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const text = uniqueTitle('Sweep the floor', testInfo.project.name)
    await createTaskThroughApi(person, { text })
    await page.goto('/task')
    await expect(page.getByRole('link', { name: text, exact: true })).toBeVisible()
    await page.keyboard.press('?')
    await page.keyboard.press('Control+k')
    await expect(page.getByRole('dialog')).toHaveCount(0)
    await page.getByRole('link', { name: text, exact: true }).click()
    await expect(modal(page).getByRole('heading', { name: text })).toBeVisible()
  })
})
