import { expect, test } from '@playwright/test'
import { addCommentThroughApi, commentBy, newCommentBox, sendButton } from './comments-support'
import { browserFor, modal, modalReady, sharedTask } from './tasks-support'

/**
 * A task deleted by its owner while someone else has it open: their modal says it is gone, stops
 * asking the server for its comments, and takes no more comments (a draft stays readable).
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'Without JavaScript the page does not poll')

test('the owner deletes the task: the other person’s modal says "Task not found" and stops polling', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const { ada, grace, id } = await sharedTask(baseURL, testInfo.project.name, 'Cancel the caterer')
  await addCommentThroughApi(ada, { taskId: id, content: 'Caterer cancelled the booking' })

  const graces = await browserFor(browser, grace, { baseURL, javaScriptEnabled: true })
  const polls: number[] = []
  graces.page.on('request', (request) => {
    if (request.url().includes('/api/rpc/comments/getComments')) polls.push(Date.now())
  })
  await graces.page.goto(`/task?task=${id}`)
  await modalReady(graces.page, true)
  await expect.poll(() => polls.length).toBeGreaterThan(0)
  const box = newCommentBox(graces.page)
  await box.fill('I will call them tomorrow')
  const adasComment = commentBy(graces.page, 'Ada')
  await expect(adasComment.getByRole('link', { name: 'Reply to Ada' })).toBeVisible()

  // Ada, in a browser of her own, deletes it.
  const adas = await browserFor(browser, ada, { baseURL, javaScriptEnabled: true })
  await adas.page.goto(`/task?task=${id}&view=delete`)
  await modalReady(adas.page, true)
  await modal(adas.page).getByRole('button', { name: 'Delete task' }).click()
  await expect(modal(adas.page)).toHaveCount(0)

  // Grace's next poll finds it gone.
  const alert = modal(graces.page).getByRole('alert')
  await expect(alert).toContainText('Task not found')
  await expect(alert).toContainText('It was deleted, or it is no longer shared with you.')
  await expect(box).toBeDisabled()
  await expect(box).toHaveValue('I will call them tomorrow')
  await expect(sendButton(graces.page)).toBeDisabled()
  // What was said stays readable; nothing more can be replied to or reacted to.
  await expect(adasComment).toContainText('Caterer cancelled the booking')
  await expect(adasComment.getByRole('link', { name: 'Reply to Ada' })).toHaveCount(0)
  await expect(adasComment.getByRole('button')).toHaveCount(0)

  // And no more polls: two intervals and more pass without one.
  const pollsWhenGone = polls.length
  await graces.page.waitForTimeout(5000)
  expect(polls.length).toBe(pollsWhenGone)
  await Promise.all([adas.context.close(), graces.context.close()])
})
