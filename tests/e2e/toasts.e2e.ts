import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { commentsSection, mentionToastText, newCommentBox } from './comments-section'
import { expect, type Person, test } from './fixtures'
import { createTaskThroughApi, sharedTask } from './rpc-calls'
import { listReady, modal, modalReady } from './task-page'
import { uniqueTitle } from './unique'

/**
 * Toasts stay above every overlay and take clicks there: the task modal (a modal <dialog>, which
 * makes the rest of the page inert), the mobile drawer (a popover). Playwright's click checks
 * that the toast itself receives the click, so these clicks would fail under a backdrop.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'Toasts are shown by a script')

function toast(page: Page, title: string) {
  return page.locator('[data-sonner-toast]').filter({ hasText: title })
}

/** A comment by `author` mentioning `mentioned`, through the RPC endpoint. */
async function mention(author: Person, mentioned: Person, taskId: string, content: string) {
  const token = await author.client.csrf()
  const response = await author.client.post(
    '/api/rpc/comments/addComment',
    { json: { json: { taskId, content, mentions: [mentioned.email] } } },
    { 'x-csrf-token': token },
  )
  expect(response.status, response.body).toBe(200)
}

test('over the open task modal, a toast shows whole and its close button and View Task work', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const project = testInfo.project.name
  const { ada, grace, id: readingId } = await sharedTask(newPerson, project, 'Read the brief')
  const mentioned = uniqueTitle('Pick the venue', project)
  const mentionedTask = await createTaskThroughApi(ada, { text: mentioned, sharedWith: [grace.email] })

  const page = await pageFor(grace)
  await page.goto(`/task?task=${readingId}`)
  await modalReady(page, true)

  // Her own comment's toast, while the modal is open: the close button takes the click.
  await newCommentBox(page).fill('Read it, looks good')
  await commentsSection(page).getByRole('button', { name: 'Send', exact: true }).click()
  const added = toast(page, 'Comment added successfully! 💬')
  await expect(added).toBeVisible()
  await added.hover()
  // Held by the pointer, its colours are checked: sonner's own success green is under 4.5:1.
  await expectNoSeriousA11yViolations(page, 'a success toast over the modal')
  await added.getByRole('button', { name: 'Close toast' }).click()
  await expect(added).toHaveCount(0)
  await expect(page.locator('dialog:modal')).toHaveCount(1)

  // A mention elsewhere: its toast is above the modal, and View Task opens the other task.
  const content = '@Grace which venue should we book for the offsite?'
  await mention(ada, grace, mentionedTask.id, content)
  const mentionToast = toast(page, mentionToastText('Ada', content))
  await expect(mentionToast).toBeVisible()
  await mentionToast.getByRole('button', { name: 'View Task' }).click()
  await expect(page).toHaveURL(new RegExp(`[?&]task=${mentionedTask.id}$`))
  await expect(modal(page).getByRole('heading', { level: 2 })).toHaveText(mentioned)
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } })

  test('with the drawer open, a toast is above it and its close button works', async ({
    newPerson,
    pageFor,
  }, testInfo) => {
    const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Print the badges')
    const page = await pageFor(grace)
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto('/task')
    await listReady(page, true)
    await page.getByRole('button', { name: 'Open navigation menu' }).click()
    const drawer = page.getByRole('dialog', { name: 'Mobile Navigation' })
    await expect(drawer).toBeVisible()

    const content = '@Grace the badges need a second print run'
    await mention(ada, grace, id, content)
    const mentionToast = toast(page, mentionToastText('Ada', content))
    await expect(mentionToast).toBeVisible()
    // sonner slides a toast in from above the screen: measure it where it comes to rest.
    await expect
      .poll(() => mentionToast.evaluate((element) => element.getBoundingClientRect().top >= 0))
      .toBe(true)
    // Topmost where it is drawn: what the browser finds at its centre is the toast.
    const isOnTop = await mentionToast.evaluate((element) => {
      const box = element.getBoundingClientRect()
      return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2))
    })
    expect(isOnTop).toBe(true)
    await mentionToast.getByRole('button', { name: 'Close toast' }).click()
    await expect(mentionToast).toHaveCount(0)
  })
})
