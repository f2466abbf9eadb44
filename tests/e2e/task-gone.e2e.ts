import { commentBy, newCommentBox, sendButton } from './comments-section'
import { expect, test } from './fixtures'
import { addCommentThroughApi, sharedTask } from './rpc-calls'
import { modal, modalReady } from './task-page'

/**
 * A task deleted by its owner while someone else has it open: their modal says it is gone, stops
 * asking the server for its comments — by polling, and by its comment stream when that was down —
 * and takes no more comments (a draft stays readable).
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'Without JavaScript the page does not poll')

test('the owner deletes the task: the other person’s modal says "Task not found" and stops polling', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Cancel the caterer')
  await addCommentThroughApi(ada, { taskId: id, content: 'Caterer cancelled the booking' })

  const asGrace = await pageFor(grace)
  const polls: number[] = []
  asGrace.on('request', (request) => {
    if (request.url().includes('/api/rpc/comments/getComments')) polls.push(Date.now())
  })
  await asGrace.goto(`/task?task=${id}`)
  await modalReady(asGrace, true)
  await expect.poll(() => polls.length).toBeGreaterThan(0)
  const box = newCommentBox(asGrace)
  await box.fill('I will call them tomorrow')
  const adasComment = commentBy(asGrace, 'Ada')
  await expect(adasComment.getByRole('link', { name: 'Reply to Ada' })).toBeVisible()

  // Ada, in a browser of her own, deletes it.
  const asAda = await pageFor(ada)
  await asAda.goto(`/task?task=${id}&view=delete`)
  await modalReady(asAda, true)
  await modal(asAda).getByRole('button', { name: 'Delete task' }).click()
  await expect(modal(asAda)).toHaveCount(0)

  // Grace's next poll finds it gone.
  const alert = modal(asGrace).getByRole('alert')
  await expect(alert).toContainText('Task not found')
  await expect(alert).toContainText('It was deleted, or it is no longer shared with you.')
  await expect(box).toBeDisabled()
  await expect(box).toHaveValue('I will call them tomorrow')
  await expect(sendButton(asGrace)).toBeDisabled()
  // What was said stays readable; nothing more can be replied to or reacted to.
  await expect(adasComment).toContainText('Caterer cancelled the booking')
  await expect(adasComment.getByRole('link', { name: 'Reply to Ada' })).toHaveCount(0)
  await expect(adasComment.getByRole('button')).toHaveCount(0)

  // And no more polls: two intervals and more pass without one.
  const pollsWhenGone = polls.length
  await asGrace.waitForTimeout(5000)
  expect(polls.length).toBe(pollsWhenGone)
})

test('found gone by a poll while its stream is down, the modal tries the stream no more', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Return the projector')
  // Ada has the deletion at hand, so it comes while the stream's waits between tries are short.
  const asAda = await pageFor(ada)
  await asAda.goto(`/task?task=${id}&view=delete`)
  await modalReady(asAda, true)
  const asGrace = await pageFor(grace)
  // The comment stream cannot get through: the modal polls, and the browser keeps trying it.
  const streamTries: number[] = []
  await asGrace.route('**/api/events/comments**', (route) => {
    streamTries.push(Date.now())
    return route.abort()
  })
  await asGrace.goto(`/task?task=${id}`)
  await modalReady(asGrace, true)
  await expect.poll(() => streamTries.length).toBeGreaterThan(0)

  await modal(asAda).getByRole('button', { name: 'Delete task' }).click()
  await expect(modal(asAda)).toHaveCount(0)

  await expect(modal(asGrace).getByRole('alert')).toContainText('Task not found')
  const triesWhenGone = streamTries.length
  // A stream still trying would try again within its growing wait (1 s, 2 s, 4 s, 8 s…).
  await asGrace.waitForTimeout(9000)
  expect(streamTries.length).toBe(triesWhenGone)
})
