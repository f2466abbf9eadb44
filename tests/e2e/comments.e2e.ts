import type { Locator, Page } from '@playwright/test'
import {
  cancelEdit,
  deleteComment,
  expectEdited,
  expectFirstOwnComment,
  expectNewCommentBox,
  expectNoComments,
  expectNoReactions,
  expectOwnReply,
  expectReplyOpensAndCloses,
  expectSomeoneElses,
  expectToldOf,
  expectUnreadMention,
  NO_COMMENTS,
  openDeleteThenCancel,
  openEdit,
  openTaskAs,
  toast,
} from './comment-steps'
import {
  commentBy,
  commentsHeading,
  commentsSection,
  expectReaction,
  mentionToastText,
  newCommentBox,
  reactionButton,
  replyBox,
  replyButton,
  sendButton,
} from './comments-section'
import { expect, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi, sharedTask, unreadMentionsOn } from './rpc-calls'
import { listReady, modal, modalReady } from './task-page'
import { uniqueTitle } from './unique'

/**
 * The discussion of a task with JavaScript, in the browsers of the people it is shared with: the
 * @ picker worked from the keyboard, the mention toast in the other person's browser and its
 * 'View Task', replies, reactions, edits and deletes in place. Without JavaScript the same section
 * is covered by comments-without-js.e2e.ts; the steps the two share are comment-steps.ts.
 */

test.skip(
  ({ javaScriptEnabled }) => !javaScriptEnabled,
  'The picker, the toasts and the in-place forms need JavaScript; comments-without-js.e2e.ts covers the forms without it',
)

function picker(page: Page) {
  return commentsSection(page).getByRole('listbox', { name: 'Mention someone' })
}

/**
 * Clicks a reaction and waits until the toggle has settled: saved, and the page's data read
 * again. While one is in flight the button already shows its outcome and ignores a second click,
 * so a test that clicks again at once would see that click dropped.
 */
async function toggleReaction(page: Page, button: Locator) {
  const saved = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().includes('/task/comments'),
  )
  const reloaded = page.waitForResponse(
    (response) => response.request().method() === 'GET' && /\.data(\?|$)/.test(response.url()),
  )
  await button.click()
  await Promise.all([saved, reloaded])
  // The answer is applied in the page's next task; a frame later it has rendered.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))))
}

/** Resolves once the page's next mention poll has been answered. */
function nextMentionPoll(page: Page) {
  return page.waitForResponse((response) =>
    response.url().includes('/api/rpc/comments/getMentionNotifications'),
  )
}

test('the @ picker, from the keyboard: arrows, filtering, Enter, Escape; Ctrl+Enter sends', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const project = testInfo.project.name
  const [ada, grace, linus] = await Promise.all([newPerson('Ada'), newPerson('Grace'), newPerson('Linus')])
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Print the welcome pack', project),
    sharedWith: [grace.email, linus.email],
  })
  const asAda = await openTaskAs(pageFor, ada, id, true)
  const section = commentsSection(asAda)
  await expectNoComments(asAda)
  const box = newCommentBox(asAda)
  await expectNewCommentBox(box, true)

  // Nothing to send yet, and blank is nothing.
  await expect(sendButton(asAda)).toBeDisabled()
  await box.fill('   ')
  await expect(sendButton(asAda)).toBeDisabled()
  await box.press('Control+Enter')
  await expect(commentsHeading(asAda)).toHaveText('Comments (0)')
  await box.fill('')

  // '@' lists whom Ada may mention: the two people the task is shared with.
  await box.pressSequentially('@')
  await expect(picker(asAda)).toBeVisible()
  await expect(section.getByText('Mention someone', { exact: true })).toBeVisible()
  const options = picker(asAda).getByRole('option')
  await expect(options).toHaveCount(2)
  await expect(options.filter({ hasText: 'Grace' })).toContainText(grace.email)
  await expect(options.filter({ hasText: 'Linus' })).toContainText(linus.email)
  // Escape closes the picker and nothing else.
  await box.press('Escape')
  await expect(picker(asAda)).toHaveCount(0)
  await expect(asAda.locator('dialog:modal')).toHaveCount(1)
  await expect(asAda).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await expect(box).toBeFocused()
  await box.press('Backspace')
  await expect(box).toHaveValue('')

  // Arrows move through the list and wrap; typing part of a name filters it; Enter picks.
  await box.pressSequentially('@')
  const selected = picker(asAda).getByRole('option', { selected: true })
  await expect(selected).toContainText('Grace')
  await box.press('ArrowDown')
  await expect(selected).toContainText('Linus')
  await box.press('ArrowDown')
  await expect(selected).toContainText('Grace')
  await box.press('ArrowUp')
  await expect(selected).toContainText('Linus')
  await box.pressSequentially('race')
  await expect(options).toHaveCount(1)
  await expect(selected).toContainText('Grace')
  await box.press('Enter')
  await expect(picker(asAda)).toHaveCount(0)
  await expect(box).toHaveValue('@Grace ')

  await box.pressSequentially('could you proofread it before it goes to print?')
  const content = '@Grace could you proofread it before it goes to print?'
  await expect(box).toHaveValue(content)
  await expect(sendButton(asAda)).toBeEnabled()
  await box.press('Control+Enter')
  await expectToldOf(asAda, id, 'Comment added and 1 person notified! 📢', true)
  await expect(box).toHaveValue('')
  await expect(sendButton(asAda)).toBeDisabled()

  // The comment: author and initial, 'You', 'Just now', and the mention highlighted.
  const comment = await expectFirstOwnComment(asAda, 'Ada', content)
  await expect(comment.getByText('@Grace', { exact: true })).toHaveClass(/text-primary/)

  // Grace alone was notified.
  await expectUnreadMention(grace, id, 'Ada', content)
  expect(await unreadMentionsOn(linus, id)).toEqual([])
})

test('the person mentioned is told by a toast wherever they are; View Task opens the task and reads it', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const { ada, grace, id, text } = await sharedTask(newPerson, testInfo.project.name, 'Book the speakers')

  // Grace is signed in and busy elsewhere.
  const asGrace = await pageFor(grace)
  await asGrace.goto('/task')
  await listReady(asGrace, true)

  const asAda = await openTaskAs(pageFor, ada, id, true)
  const box = newCommentBox(asAda)
  await box.pressSequentially('@Gr')
  await expect(picker(asAda).getByRole('option', { selected: true })).toContainText('Grace')
  await box.press('Enter')
  await box.pressSequentially('could you confirm the two keynote speakers by Friday at noon?')
  const content = await box.inputValue()
  expect(content).toBe('@Grace could you confirm the two keynote speakers by Friday at noon?')
  await box.press('Control+Enter')
  await expectToldOf(asAda, id, 'Comment added and 1 person notified! 📢', true)

  // Grace's browser tells her, with the first 50 characters.
  const mention = toast(asGrace, mentionToastText('Ada', content))
  await expect(mention).toBeVisible()
  expect(mentionToastText('Ada', content)).toBe(
    'Ada mentioned you in a comment: "@Grace could you confirm the two keynote speakers ..."',
  )

  // View Task opens the task over the page she was on, and her mention is read.
  await mention.getByRole('button', { name: 'View Task' }).click()
  await expect(asGrace).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await modalReady(asGrace, true)
  await expect(modal(asGrace).getByRole('heading', { level: 2 })).toHaveText(text)
  await expect(commentBy(asGrace, 'Ada')).toContainText(content)
  await expect.poll(() => unreadMentionsOn(grace, id)).toEqual([])

  // It does not come back after a reload.
  const polled = nextMentionPoll(asGrace)
  await asGrace.reload()
  await polled
  await expect(asGrace.getByText('mentioned you in a comment')).toHaveCount(0)
})

test('a discussion stays fresh: what one person posts appears in the other’s open modal without a reload', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Plan the dry run')
  // Grace's browser has no EventSource (live-updates.e2e.ts covers the streams): it polls instead.
  // (Not by routing the stream away: Playwright's routing turns the HTTP cache off, and with it
  // the 304s this test is about.)
  const asGrace = await pageFor(grace)
  await asGrace.addInitScript(() => Reflect.deleteProperty(window, 'EventSource'))
  await asGrace.goto(`/task?task=${id}`)
  await modalReady(asGrace, true)
  const asAda = await openTaskAs(pageFor, ada, id, true)
  await expect(commentsHeading(asGrace)).toHaveText('Comments (0)')

  const box = newCommentBox(asAda)
  await box.fill('Dry run moved to Thursday')
  await box.press('Control+Enter')
  await expectToldOf(asAda, id, 'Comment added successfully! 💬', true)

  // Grace's modal polls (every 2 s): the comment arrives, her page never reloaded.
  await expect(commentBy(asGrace, 'Ada')).toContainText('Dry run moved to Thursday')
  await expect(commentsHeading(asGrace)).toHaveText('Comments (1)')
  // The next polls ask "changed since?" with the ETag they hold, and the server's tag is the same:
  // it answers 304 (the browser then hands the page its cached copy, which is what Playwright sees).
  const revalidated = await asGrace.waitForResponse(
    async (response) =>
      response.url().includes('/api/rpc/comments/getComments') &&
      (await response.request().headerValue('if-none-match')) === response.headers().etag,
  )
  expect(revalidated.headers()['cache-control']).toBe('private, no-cache')
})

test('reply: the Reply link opens and closes the box; a reply names the owner, picked with Tab', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Choose the caterer')
  const first = 'Two quotes are in; both include vegetarian options.'
  await addCommentThroughApi(ada, { taskId: id, content: first })

  const asGrace = await openTaskAs(pageFor, grace, id, true)
  await expect(commentsHeading(asGrace)).toHaveText('Comments (1)')
  const adasComment = commentBy(asGrace, 'Ada')
  await expect(adasComment).toContainText(first)
  await expectReplyOpensAndCloses(adasComment, 'Ada', id, true)

  // The only person Grace may mention is the task's owner; Tab picks her.
  const box = replyBox(asGrace, 'Ada')
  const send = replyButton(asGrace)
  await adasComment.getByRole('link', { name: 'Reply to Ada' }).click()
  await box.pressSequentially('@')
  await expect(picker(asGrace).getByRole('option')).toHaveCount(1)
  await expect(picker(asGrace).getByRole('option')).toContainText('Ada')
  await box.pressSequentially('Ad')
  await box.press('Tab')
  await expect(box).toHaveValue('@Ada ')
  await expect(box).toBeFocused()
  await box.pressSequentially('the second one is cheaper.')
  await expect(send).toBeEnabled()
  await send.click()
  await expectToldOf(asGrace, id, 'Comment added and 1 person notified! 📢', true)
  await expect(box).toHaveCount(0)
  await expect(commentsHeading(asGrace)).toHaveText('Comments (2)')
  const reply = await expectOwnReply(asGrace, 'Ada', 'Grace', '@Ada the second one is cheaper.')
  await expect(reply.getByText('@Ada', { exact: true })).toHaveClass(/text-primary/)

  // Ada is told until she opens the task, which reads the mention.
  expect(await unreadMentionsOn(ada, id)).toHaveLength(1)
  const asAda = await openTaskAs(pageFor, ada, id, true)
  await expect(commentBy(asAda, 'Grace')).toContainText('@Ada the second one is cheaper.')
  expect(await unreadMentionsOn(ada, id)).toEqual([])
})

test('reactions: counted, highlighted for whoever gave them, and toggled off again', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Pick the venue')
  await addCommentThroughApi(ada, { taskId: id, content: 'The harbour hall has the better light.' })

  const asGrace = await openTaskAs(pageFor, grace, id, true)
  const adasComment = commentBy(asGrace, 'Ada')
  await expectNoReactions(adasComment)
  await toggleReaction(asGrace, reactionButton(adasComment, 'Heart'))
  await expectReaction(adasComment, 'Heart', 1, true)
  await toggleReaction(asGrace, reactionButton(adasComment, 'Thumbs up'))
  await expectReaction(adasComment, 'Thumbs up', 1, true)
  await toggleReaction(asGrace, reactionButton(adasComment, 'Thumbs up'))
  await expectReaction(adasComment, 'Thumbs up', 0, false)
  await asGrace.reload()
  await expectReaction(adasComment, 'Heart', 1, true)
  await expectReaction(adasComment, 'Thumbs up', 0, false)

  // Ada sees Grace's heart, not highlighted for her, and adds and takes back her own.
  const asAda = await openTaskAs(pageFor, ada, id, true)
  const own = commentBy(asAda, 'Ada')
  await expectReaction(own, 'Heart', 1, false)
  await toggleReaction(asAda, reactionButton(own, 'Heart'))
  await expectReaction(own, 'Heart', 2, true)
  await toggleReaction(asAda, reactionButton(own, 'Heart'))
  await expectReaction(own, 'Heart', 1, false)
  await toggleReaction(asAda, reactionButton(own, 'Fire'))
  await expectReaction(own, 'Fire', 1, true)
  await asAda.reload()
  await expectReaction(own, 'Heart', 1, false)
  await expectReaction(own, 'Fire', 1, true)
})

test('edit in place, with Save and Cancel; someone else’s comment offers no Edit or Delete', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const { ada, grace, id } = await sharedTask(newPerson, testInfo.project.name, 'Plan the agenda')
  const first = 'Keynote at nine, workshops after lunch.'
  const { id: rootId } = await addCommentThroughApi(ada, { taskId: id, content: first })
  await addCommentThroughApi(grace, {
    taskId: id,
    content: 'Could workshops start at two?',
    parentCommentId: rootId,
  })

  const asAda = await openTaskAs(pageFor, ada, id, true)
  const others = commentBy(asAda, 'Grace')
  await expect(others).toContainText('Could workshops start at two?')
  await expectSomeoneElses(others)
  await expect(others.getByRole('link', { name: 'Reply to Grace' })).toBeVisible()

  const own = commentBy(asAda, 'Ada')
  const editBox = await openEdit(own, first, true)
  await expect(editBox).toBeFocused()
  await expect(reactionButton(own, 'Heart')).toHaveCount(0)
  await cancelEdit(own, first, id, true)

  await openEdit(own, first, true)
  await editBox.fill('  ')
  await expect(own.getByRole('button', { name: 'Save' })).toBeDisabled()
  const edited = 'Keynote at nine, workshops at two.'
  await editBox.fill(edited)
  await own.getByRole('button', { name: 'Save' }).click()
  await expectToldOf(asAda, id, 'Comment updated successfully! ✏️', true)
  await expect(editBox).toHaveCount(0)
  await expectEdited(own, edited, first)
  // Saved, for the others too.
  const asGrace = await openTaskAs(pageFor, grace, id, true)
  await expect(commentBy(asGrace, 'Ada').getByText(edited, { exact: true })).toBeVisible()
  await expect(commentBy(asGrace, 'Ada').getByText('(edited)', { exact: true })).toBeVisible()
})

test('delete after the confirmation; Cancel keeps the comment', async ({
  person: ada,
  pageFor,
}, testInfo) => {
  const project = testInfo.project.name
  const { id } = await createTaskThroughApi(ada, { text: uniqueTitle('Send the invitations', project) })
  const content = 'Sent to the first forty guests.'
  await addCommentThroughApi(ada, { taskId: id, content })

  const asAda = await openTaskAs(pageFor, ada, id, true)
  const own = commentBy(asAda, 'Ada')
  await expect(commentsHeading(asAda)).toHaveText('Comments (1)')
  await openDeleteThenCancel(own, content, id, true)

  await deleteComment(own)
  await expectToldOf(asAda, id, 'Comment deleted successfully! 🗑️', true)
  await expect(commentsSection(asAda).getByRole('article')).toHaveCount(0)
  await expectNoComments(asAda)
  // Gone for good.
  await asAda.reload()
  await expect(commentsHeading(asAda)).toHaveText('Comments (0)')
})

test('a public task allows no mentions: the placeholder says so and the picker has nobody', async ({
  person: ada,
  signedInPage: asAda,
}, testInfo) => {
  const project = testInfo.project.name
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Announce the offsite', project),
    isPublic: true,
  })
  await asAda.goto(`/task?task=${id}`)
  await modalReady(asAda, true)
  const section = commentsSection(asAda)
  await expect(section.getByText(NO_COMMENTS, { exact: true })).toBeVisible()
  const box = newCommentBox(asAda)
  await expect(box).toHaveAttribute('placeholder', 'Add a comment... (Mentions disabled for public tasks)')

  await box.pressSequentially('@')
  await expect(section.getByText('Mention someone', { exact: true })).toBeVisible()
  await expect(section.getByRole('status').filter({ hasText: 'No users available to mention' })).toHaveText(
    'No users available to mention',
  )
  await expect(section.getByRole('option')).toHaveCount(0)
  // Escape closes the picker; the modal stays until a second Escape.
  await box.press('Escape')
  await expect(section.getByText('Mention someone', { exact: true })).toHaveCount(0)
  await expect(asAda.locator('dialog:modal')).toHaveCount(1)

  await box.fill('See you all on Monday.')
  await sendButton(asAda).click()
  await expectToldOf(asAda, id, 'Comment added successfully! 💬', true)
  await expect(commentsHeading(asAda)).toHaveText('Comments (1)')
  await expect(commentBy(asAda, 'Ada')).toContainText('See you all on Monday.')

  await box.press('Escape')
  await expect(modal(asAda)).toHaveCount(0)
  await expect(asAda).not.toHaveURL(/[?&]task=/)
})
