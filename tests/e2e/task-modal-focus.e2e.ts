import { afterNextFrame, gotoBeforeScripts } from './before-scripts'
import { commentsSection, newCommentBox, sendButton } from './comments-section'
import { expect, type Person, test } from './fixtures'
import { focused } from './focus'
import { createTaskThroughApi } from './rpc-calls'
import { modal, modalReady } from './task-page'
import { uniqueTitle } from './unique'

/**
 * The task modal keeps what a person typed and where they were: across hydration (text typed
 * into the server's HTML before the scripts arrive), and across its own views (Edit, Save,
 * Cancel, Delete), where focus would otherwise fall to <body>. Without JavaScript its banner and
 * hint tell only what is true.
 */

/** A task of the owner's, for the modal to show. */
async function taskOf(owner: Person, project: string) {
  const text = uniqueTitle('Plan the retreat', project)
  const { id } = await createTaskThroughApi(owner, { text })
  return { id, text }
}

test.describe('with JavaScript', () => {
  test.skip(
    ({ javaScriptEnabled }) => !javaScriptEnabled,
    'Hydration and view switches in place need JavaScript',
  )

  test('a comment typed before the scripts load survives hydration, with the focus', async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const { id } = await taskOf(person, testInfo.project.name)
    const release = await gotoBeforeScripts(page, `/task?task=${id}`)
    const box = newCommentBox(page)
    await box.click()
    await page.keyboard.type('Typed while the page was loading')
    release()

    // Hydrated: the dialog is modal and the hint (drawn only by the script) is there.
    await expect(page.locator('dialog:modal')).toHaveCount(1)
    await expect(commentsSection(page).getByText('Press Ctrl+Enter to send', { exact: true })).toBeVisible()
    await expect(box).toHaveValue('Typed while the page was loading')
    await expect(box).toBeFocused()
    // It is the state now, not a leftover in the DOM: Send is enabled and sends it.
    await expect(sendButton(page)).toBeEnabled()
    await page.keyboard.type(', and after.')
    await expect(box).toHaveValue('Typed while the page was loading, and after.')
  })

  test('an edit typed before the scripts load survives hydration, with the focus', async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const { id, text } = await taskOf(person, testInfo.project.name)
    const release = await gotoBeforeScripts(page, `/task?task=${id}&view=edit`)
    const title = modal(page).getByLabel('Title')
    const details = modal(page).getByLabel('Details')
    await title.fill(`${text} in May`)
    await details.click()
    await page.keyboard.type('Book the cabins first')
    release()

    await expect(page.locator('dialog:modal')).toHaveCount(1)
    await afterNextFrame(page)
    await expect(title).toHaveValue(`${text} in May`)
    await expect(details).toHaveValue('Book the cabins first')
    await expect(details).toBeFocused()
  })

  test('Edit focuses the title; Cancel and Save return focus to Edit; Delete and its Cancel likewise', async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const { id, text } = await taskOf(person, testInfo.project.name)
    await page.goto(`/task?task=${id}`)
    await modalReady(page, true)
    const dialog = modal(page)
    const edit = dialog.getByRole('link', { name: 'Edit', exact: true })

    await edit.click()
    await expect(dialog.getByLabel('Title')).toBeFocused()
    await dialog.getByRole('link', { name: 'Cancel' }).click()
    await expect(edit).toBeFocused()

    await page.keyboard.press('Enter')
    await expect(dialog.getByLabel('Title')).toBeFocused()
    await page.keyboard.insertText(' (dates fixed)')
    await dialog.getByRole('button', { name: 'Save' }).click()
    await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(`${text} (dates fixed)`)
    await expect(edit).toBeFocused()
    expect(await focused(page)).toBe('Edit')

    const remove = dialog.getByRole('link', { name: 'Delete', exact: true })
    await remove.click()
    await expect(dialog.getByRole('button', { name: 'Delete task' })).toBeFocused()
    await dialog.getByRole('link', { name: 'Cancel' }).click()
    await expect(remove).toBeFocused()
  })
})

test('a private task nobody else sees says how to mention people, not that mentions are off', async ({
  person,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  const { id } = await taskOf(person, testInfo.project.name)
  await page.goto(`/task?task=${id}`)
  await modalReady(page, javaScriptEnabled)
  await expect(newCommentBox(page)).toHaveAttribute(
    'placeholder',
    'Add a comment... (Share this task to mention people)',
  )
})

test.describe('without JavaScript', () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, 'What the server alone renders')

  test('the confirmation banner shows inside the modal, above its overlay; no shortcut is offered', async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const { id } = await taskOf(person, testInfo.project.name)
    await page.goto(`/task?task=${id}`)
    await modalReady(page, false)
    // Cmd+Enter needs a script: the hint would promise what cannot happen.
    await expect(commentsSection(page).getByText(/\+Enter to send/)).toHaveCount(0)

    await newCommentBox(page).fill('Cabins are booked')
    await sendButton(page).click()
    await expect(page).toHaveURL(new RegExp(`[?&]task=${id}$`))
    const banner = modal(page).getByRole('status').filter({ hasText: 'Comment added successfully! 💬' })
    await expect(banner).toBeVisible()
    // Nothing covers it: a click there would reach it.
    await banner.click({ trial: true })
    // And the page's own banner, under the overlay, is not rendered twice.
    await expect(page.getByRole('status').filter({ hasText: 'Comment added successfully! 💬' })).toHaveCount(
      1,
    )
  })
})
