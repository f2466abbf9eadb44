import { expect, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'
import { modal } from './task-page'
import { uniqueTitle } from './unique'

/**
 * Without JavaScript the task modal is a plain <dialog open> over an overlay that covers the
 * page, so Tab follows the document: the modal must come first in it, not after the whole page.
 */
test.describe('without JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'with JavaScript the modal is a real modal dialog')
  test.describe.configure({ timeout: 120_000 })

  test('the open modal is the first thing Tab reaches after the skip link', async ({
    person: owner,
    signedInPage: page,
  }) => {
    const title = uniqueTitle('Keyboard first', 'js-off')
    const { id } = await createTaskThroughApi(owner, { text: title, details: 'Reachable at once.' })

    await page.goto(`/task?task=${id}`)
    await expect(modal(page)).toHaveAttribute('open', '')
    await expect(modal(page).getByRole('heading', { name: title })).toBeVisible()

    const focusIsInModal = () =>
      modal(page).evaluate(
        (dialog) => dialog === document.activeElement || dialog.contains(document.activeElement),
      )

    await page.keyboard.press('Tab')
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused()
    // Next the modal: Chromium stops on the scrollable dialog itself, then on its first control.
    await page.keyboard.press('Tab')
    expect(await focusIsInModal()).toBe(true)
    if (await modal(page).evaluate((dialog) => dialog === document.activeElement))
      await page.keyboard.press('Tab')
    await expect(modal(page).getByRole('link', { name: 'Close' })).toBeFocused()
    // And on through the modal's own controls before anything behind the overlay.
    for (let press = 0; press < 3; press++) {
      await page.keyboard.press('Tab')
      expect(await focusIsInModal()).toBe(true)
    }
  })
})
