import type { Browser, Locator, Page } from '@playwright/test'
import {
  commentBy,
  commentsHeading,
  commentsSection,
  expectReaction,
  mentionToastText,
  newCommentBox,
  reactionButton,
  sendButton,
} from './comments-section'
import { browserFor, expect, type Person, test, verifiedPerson } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi, unreadMentionsOn } from './rpc-calls'
import { listReady, modal, modalReady } from './task-page'
import { uniqueTitle } from './unique'

/**
 * The discussion of a task with JavaScript, in the browsers of the people it is shared with: the
 * @ picker worked from the keyboard, the mention toast in the other person's browser and its
 * 'View Task', replies, reactions, edits and deletes in place. Without JavaScript the same section
 * is covered by comments-without-js.e2e.ts.
 */

test.skip(
  ({ javaScriptEnabled }) => !javaScriptEnabled,
  'The picker, the toasts and the in-place forms need JavaScript; comments-without-js.e2e.ts covers the forms without it',
)

const EMPTY = 'No comments yet. Be the first to comment!'

/** A toast (sonner) with exactly this title. */
function toast(page: Page, title: string) {
  return page.locator('[data-sonner-toast]').filter({ has: page.getByText(title, { exact: true }) })
}

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

/** Two people and a private task the owner shared with the second, each in a browser of their own. */
async function sharedTask(baseURL: string, project: string, title: string) {
  const [ada, grace] = await Promise.all([
    verifiedPerson(baseURL, 'Ada', project),
    verifiedPerson(baseURL, 'Grace', project),
  ])
  const text = uniqueTitle(title, project)
  const { id } = await createTaskThroughApi(ada, { text, sharedWith: [grace.email] })
  return { ada, grace, id, text }
}

async function openTask(browser: Browser, person: Person, baseURL: string, taskId: string) {
  const opened = await browserFor(browser, person, { baseURL, javaScriptEnabled: true })
  await opened.page.goto(`/task?task=${taskId}`)
  await modalReady(opened.page, true)
  return opened
}

test('the @ picker, from the keyboard: arrows, filtering, Enter, Escape; Ctrl+Enter sends', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const [ada, grace, linus] = await Promise.all([
    verifiedPerson(baseURL, 'Ada', project),
    verifiedPerson(baseURL, 'Grace', project),
    verifiedPerson(baseURL, 'Linus', project),
  ])
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Print the welcome pack', project),
    sharedWith: [grace.email, linus.email],
  })
  const adas = await openTask(browser, ada, baseURL, id)
  const section = commentsSection(adas.page)
  await expect(commentsHeading(adas.page)).toHaveText('Comments (0)')
  await expect(section.getByText(EMPTY, { exact: true })).toBeVisible()
  const box = newCommentBox(adas.page)
  await expect(box).toHaveAttribute('placeholder', 'Add a comment... Type @ to mention someone')
  await expect(box).toHaveAttribute('rows', '3')
  // Chromium here runs on Linux: the hint names Ctrl once the page knows the platform.
  await expect(section.getByText('Press Ctrl+Enter to send', { exact: true })).toBeVisible()

  // Nothing to send yet, and blank is nothing.
  await expect(sendButton(adas.page)).toBeDisabled()
  await box.fill('   ')
  await expect(sendButton(adas.page)).toBeDisabled()
  await box.press('Control+Enter')
  await expect(commentsHeading(adas.page)).toHaveText('Comments (0)')
  await box.fill('')

  // '@' lists whom Ada may mention: the two people the task is shared with.
  await box.pressSequentially('@')
  await expect(picker(adas.page)).toBeVisible()
  await expect(section.getByText('Mention someone', { exact: true })).toBeVisible()
  const options = picker(adas.page).getByRole('option')
  await expect(options).toHaveCount(2)
  await expect(options.filter({ hasText: 'Grace' })).toContainText(grace.email)
  await expect(options.filter({ hasText: 'Linus' })).toContainText(linus.email)
  // Escape closes the picker and nothing else.
  await box.press('Escape')
  await expect(picker(adas.page)).toHaveCount(0)
  await expect(adas.page.locator('dialog:modal')).toHaveCount(1)
  await expect(adas.page).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await expect(box).toBeFocused()
  await box.press('Backspace')
  await expect(box).toHaveValue('')

  // Arrows move through the list and wrap; typing part of a name filters it; Enter picks.
  await box.pressSequentially('@')
  const selected = picker(adas.page).getByRole('option', { selected: true })
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
  await expect(picker(adas.page)).toHaveCount(0)
  await expect(box).toHaveValue('@Grace ')

  await box.pressSequentially('could you proofread it before it goes to print?')
  const content = '@Grace could you proofread it before it goes to print?'
  await expect(box).toHaveValue(content)
  await expect(sendButton(adas.page)).toBeEnabled()
  await box.press('Control+Enter')
  await expect(toast(adas.page, 'Comment added and 1 person notified! 📢')).toBeVisible()
  await expect(box).toHaveValue('')
  await expect(sendButton(adas.page)).toBeDisabled()

  // The comment: author and initial, 'You', 'Just now', and the mention highlighted.
  await expect(commentsHeading(adas.page)).toHaveText('Comments (1)')
  await expect(section.getByText(EMPTY, { exact: true })).toHaveCount(0)
  const comment = commentBy(adas.page, 'Ada')
  await expect(comment).toContainText(content)
  await expect(comment.getByText('You', { exact: true })).toBeVisible()
  await expect(comment.getByText('A', { exact: true })).toBeVisible()
  await expect(comment.locator('time')).toHaveText('Just now')
  await expect(comment.getByText('@Grace', { exact: true })).toHaveClass(/text-primary/)

  // Grace alone was notified.
  expect(await unreadMentionsOn(grace, id)).toEqual([
    expect.objectContaining({ fromUserName: 'Ada', content, isRead: false }),
  ])
  expect(await unreadMentionsOn(linus, id)).toEqual([])
  await adas.context.close()
})

test('the person mentioned is told by a toast wherever they are; View Task opens the task and reads it', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const { ada, grace, id, text } = await sharedTask(baseURL, testInfo.project.name, 'Book the speakers')

  // Grace is signed in and busy elsewhere.
  const graces = await browserFor(browser, grace, { baseURL, javaScriptEnabled: true })
  await graces.page.goto('/task')
  await listReady(graces.page, true)

  const adas = await openTask(browser, ada, baseURL, id)
  const box = newCommentBox(adas.page)
  await box.pressSequentially('@Gr')
  await expect(picker(adas.page).getByRole('option', { selected: true })).toContainText('Grace')
  await box.press('Enter')
  await box.pressSequentially('could you confirm the two keynote speakers by Friday at noon?')
  const content = await box.inputValue()
  expect(content).toBe('@Grace could you confirm the two keynote speakers by Friday at noon?')
  await box.press('Control+Enter')
  await expect(toast(adas.page, 'Comment added and 1 person notified! 📢')).toBeVisible()

  // Grace's browser tells her, with the first 50 characters.
  const mention = toast(graces.page, mentionToastText('Ada', content))
  await expect(mention).toBeVisible()
  expect(mentionToastText('Ada', content)).toBe(
    'Ada mentioned you in a comment: "@Grace could you confirm the two keynote speakers ..."',
  )

  // View Task opens the task over the page she was on, and her mention is read.
  await mention.getByRole('button', { name: 'View Task' }).click()
  await expect(graces.page).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await modalReady(graces.page, true)
  await expect(modal(graces.page).getByRole('heading', { level: 2 })).toHaveText(text)
  await expect(commentBy(graces.page, 'Ada')).toContainText(content)
  await expect.poll(() => unreadMentionsOn(grace, id)).toEqual([])

  // It does not come back after a reload.
  const polled = nextMentionPoll(graces.page)
  await graces.page.reload()
  await polled
  await expect(graces.page.getByText('mentioned you in a comment')).toHaveCount(0)

  await Promise.all([adas.context.close(), graces.context.close()])
})

test('a discussion stays fresh: what one person posts appears in the other’s open modal without a reload', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const { ada, grace, id } = await sharedTask(baseURL, testInfo.project.name, 'Plan the dry run')
  const graces = await openTask(browser, grace, baseURL, id)
  const adas = await openTask(browser, ada, baseURL, id)
  await expect(commentsHeading(graces.page)).toHaveText('Comments (0)')

  const box = newCommentBox(adas.page)
  await box.fill('Dry run moved to Thursday')
  await box.press('Control+Enter')
  await expect(toast(adas.page, 'Comment added successfully! 💬')).toBeVisible()

  // Grace's modal polls (every 2 s): the comment arrives, her page never reloaded.
  await expect(commentBy(graces.page, 'Ada')).toContainText('Dry run moved to Thursday')
  await expect(commentsHeading(graces.page)).toHaveText('Comments (1)')
  // The next polls ask "changed since?" with the ETag they hold, and the server's tag is the same:
  // it answers 304 (the browser then hands the page its cached copy, which is what Playwright sees).
  const revalidated = await graces.page.waitForResponse(
    async (response) =>
      response.url().includes('/api/rpc/comments/getComments') &&
      (await response.request().headerValue('if-none-match')) === response.headers().etag,
  )
  expect(revalidated.headers()['cache-control']).toBe('private, no-cache')

  await Promise.all([adas.context.close(), graces.context.close()])
})

test('reply: the Reply link opens and closes the box; a reply names the owner, picked with Tab', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const { ada, grace, id } = await sharedTask(baseURL, testInfo.project.name, 'Choose the caterer')
  const first = 'Two quotes are in; both include vegetarian options.'
  await addCommentThroughApi(ada, { taskId: id, content: first })

  const graces = await openTask(browser, grace, baseURL, id)
  await expect(commentsHeading(graces.page)).toHaveText('Comments (1)')
  const adasComment = commentBy(graces.page, 'Ada')
  await expect(adasComment).toContainText(first)
  const replyLink = adasComment.getByRole('link', { name: 'Reply to Ada' })
  const replyBox = commentsSection(graces.page).getByRole('textbox', { name: 'Reply to Ada' })
  const replyButton = commentsSection(graces.page).getByRole('button', { name: 'Reply', exact: true })
  const cancel = commentsSection(graces.page).getByRole('link', { name: 'Cancel' })

  // Reply opens the box; Reply again, or Cancel, closes it.
  await replyLink.click()
  await expect(replyBox).toBeVisible()
  await expect(replyBox).toHaveAttribute('placeholder', 'Reply to Ada...')
  await expect(replyBox).toBeFocused()
  await expect(replyButton).toBeDisabled()
  await expect(cancel).toBeVisible()
  await replyLink.click()
  await expect(replyBox).toHaveCount(0)
  await replyLink.click()
  await expect(replyBox).toBeVisible()
  await cancel.click()
  await expect(replyBox).toHaveCount(0)
  await expect(graces.page).toHaveURL(new RegExp(`/task\\?task=${id}$`))

  // The only person Grace may mention is the task's owner; Tab picks her.
  await replyLink.click()
  await replyBox.pressSequentially('@')
  await expect(picker(graces.page).getByRole('option')).toHaveCount(1)
  await expect(picker(graces.page).getByRole('option')).toContainText('Ada')
  await replyBox.pressSequentially('Ad')
  await replyBox.press('Tab')
  await expect(replyBox).toHaveValue('@Ada ')
  await expect(replyBox).toBeFocused()
  await replyBox.pressSequentially('the second one is cheaper.')
  await expect(replyButton).toBeEnabled()
  await replyButton.click()
  await expect(toast(graces.page, 'Comment added and 1 person notified! 📢')).toBeVisible()
  await expect(replyBox).toHaveCount(0)
  await expect(commentsHeading(graces.page)).toHaveText('Comments (2)')
  const replies = commentsSection(graces.page).getByRole('list', { name: 'Replies to Ada' })
  const reply = replies.getByRole('article', { name: 'Comment by Grace' })
  await expect(reply).toContainText('@Ada the second one is cheaper.')
  await expect(reply.getByText('You', { exact: true })).toBeVisible()
  await expect(reply.getByText('@Ada', { exact: true })).toHaveClass(/text-primary/)

  // Ada is told until she opens the task, which reads the mention.
  expect(await unreadMentionsOn(ada, id)).toHaveLength(1)
  const adas = await openTask(browser, ada, baseURL, id)
  await expect(commentBy(adas.page, 'Grace')).toContainText('@Ada the second one is cheaper.')
  expect(await unreadMentionsOn(ada, id)).toEqual([])

  await Promise.all([adas.context.close(), graces.context.close()])
})

test('reactions: counted, highlighted for whoever gave them, and toggled off again', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const { ada, grace, id } = await sharedTask(baseURL, testInfo.project.name, 'Pick the venue')
  await addCommentThroughApi(ada, { taskId: id, content: 'The harbour hall has the better light.' })

  const graces = await openTask(browser, grace, baseURL, id)
  const adasComment = commentBy(graces.page, 'Ada')
  for (const name of ['Thumbs up', 'Heart', 'Check', 'Fire'] as const) {
    await expectReaction(adasComment, name, 0, false)
  }
  await toggleReaction(graces.page, reactionButton(adasComment, 'Heart'))
  await expectReaction(adasComment, 'Heart', 1, true)
  await toggleReaction(graces.page, reactionButton(adasComment, 'Thumbs up'))
  await expectReaction(adasComment, 'Thumbs up', 1, true)
  await toggleReaction(graces.page, reactionButton(adasComment, 'Thumbs up'))
  await expectReaction(adasComment, 'Thumbs up', 0, false)
  await graces.page.reload()
  await expectReaction(adasComment, 'Heart', 1, true)
  await expectReaction(adasComment, 'Thumbs up', 0, false)

  // Ada sees Grace's heart, not highlighted for her, and adds and takes back her own.
  const adas = await openTask(browser, ada, baseURL, id)
  const own = commentBy(adas.page, 'Ada')
  await expectReaction(own, 'Heart', 1, false)
  await toggleReaction(adas.page, reactionButton(own, 'Heart'))
  await expectReaction(own, 'Heart', 2, true)
  await toggleReaction(adas.page, reactionButton(own, 'Heart'))
  await expectReaction(own, 'Heart', 1, false)
  await toggleReaction(adas.page, reactionButton(own, 'Fire'))
  await expectReaction(own, 'Fire', 1, true)
  await adas.page.reload()
  await expectReaction(own, 'Heart', 1, false)
  await expectReaction(own, 'Fire', 1, true)

  await Promise.all([adas.context.close(), graces.context.close()])
})

test('edit in place, with Save and Cancel; someone else’s comment offers no Edit or Delete', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const { ada, grace, id } = await sharedTask(baseURL, testInfo.project.name, 'Plan the agenda')
  const first = 'Keynote at nine, workshops after lunch.'
  const { id: rootId } = await addCommentThroughApi(ada, { taskId: id, content: first })
  await addCommentThroughApi(grace, {
    taskId: id,
    content: 'Could workshops start at two?',
    parentCommentId: rootId,
  })

  const adas = await openTask(browser, ada, baseURL, id)
  const others = commentBy(adas.page, 'Grace')
  await expect(others).toContainText('Could workshops start at two?')
  await expect(others.getByText('You', { exact: true })).toHaveCount(0)
  await expect(others.getByRole('link', { name: 'Edit comment' })).toHaveCount(0)
  await expect(others.getByRole('link', { name: 'Delete comment' })).toHaveCount(0)
  await expect(others.getByRole('link', { name: 'Reply to Grace' })).toBeVisible()

  const own = commentBy(adas.page, 'Ada')
  await own.getByRole('link', { name: 'Edit comment' }).click()
  const editBox = own.getByRole('textbox', { name: 'Edit comment' })
  await expect(editBox).toHaveValue(first)
  await expect(editBox).toHaveAttribute('rows', '2')
  await expect(editBox).toBeFocused()
  await expect(reactionButton(own, 'Heart')).toHaveCount(0)
  await own.getByRole('link', { name: 'Cancel' }).click()
  await expect(editBox).toHaveCount(0)
  await expect(own).toContainText(first)
  await expect(own.getByText('(edited)')).toHaveCount(0)

  await own.getByRole('link', { name: 'Edit comment' }).click()
  await editBox.fill('  ')
  await expect(own.getByRole('button', { name: 'Save' })).toBeDisabled()
  const edited = 'Keynote at nine, workshops at two.'
  await editBox.fill(edited)
  await own.getByRole('button', { name: 'Save' }).click()
  await expect(toast(adas.page, 'Comment updated successfully! ✏️')).toBeVisible()
  await expect(editBox).toHaveCount(0)
  await expect(own.getByText(edited, { exact: true })).toBeVisible()
  await expect(own.getByText(first, { exact: true })).toBeHidden()
  // '(edited)' opens the earlier version.
  await own.getByText('(edited)', { exact: true }).click()
  await expect(own.getByRole('list', { name: 'Earlier versions' })).toContainText(first)
  // Saved, for the others too.
  const graces = await openTask(browser, grace, baseURL, id)
  await expect(commentBy(graces.page, 'Ada').getByText(edited, { exact: true })).toBeVisible()
  await expect(commentBy(graces.page, 'Ada').getByText('(edited)', { exact: true })).toBeVisible()

  await Promise.all([adas.context.close(), graces.context.close()])
})

test('delete after the confirmation; Cancel keeps the comment', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const ada = await verifiedPerson(baseURL, 'Ada', project)
  const { id } = await createTaskThroughApi(ada, { text: uniqueTitle('Send the invitations', project) })
  const content = 'Sent to the first forty guests.'
  await addCommentThroughApi(ada, { taskId: id, content })

  const adas = await openTask(browser, ada, baseURL, id)
  const own = commentBy(adas.page, 'Ada')
  await expect(commentsHeading(adas.page)).toHaveText('Comments (1)')
  await own.getByRole('link', { name: 'Delete comment' }).click()
  const confirmation = own.getByRole('alertdialog', { name: 'Delete comment' })
  await expect(confirmation).toContainText('Are you sure you want to delete this comment?')
  await confirmation.getByRole('link', { name: 'Cancel' }).click()
  await expect(confirmation).toHaveCount(0)
  await expect(own).toContainText(content)

  await own.getByRole('link', { name: 'Delete comment' }).click()
  await confirmation.getByRole('button', { name: 'Delete' }).click()
  await expect(toast(adas.page, 'Comment deleted successfully! 🗑️')).toBeVisible()
  await expect(commentsSection(adas.page).getByRole('article')).toHaveCount(0)
  await expect(commentsHeading(adas.page)).toHaveText('Comments (0)')
  await expect(commentsSection(adas.page).getByText(EMPTY, { exact: true })).toBeVisible()
  // Gone for good.
  await adas.page.reload()
  await expect(commentsHeading(adas.page)).toHaveText('Comments (0)')
  await adas.context.close()
})

test('a public task allows no mentions: the placeholder says so and the picker has nobody', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const ada = await verifiedPerson(baseURL, 'Ada', project)
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Announce the offsite', project),
    isPublic: true,
  })
  const adas = await browserFor(browser, ada, { baseURL, javaScriptEnabled: true })
  await adas.page.goto(`/task?task=${id}`)
  await modalReady(adas.page, true)
  const section = commentsSection(adas.page)
  await expect(section.getByText(EMPTY, { exact: true })).toBeVisible()
  const box = newCommentBox(adas.page)
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
  await expect(adas.page.locator('dialog:modal')).toHaveCount(1)

  await box.fill('See you all on Monday.')
  await sendButton(adas.page).click()
  await expect(toast(adas.page, 'Comment added successfully! 💬')).toBeVisible()
  await expect(commentsHeading(adas.page)).toHaveText('Comments (1)')
  await expect(commentBy(adas.page, 'Ada')).toContainText('See you all on Monday.')

  await box.press('Escape')
  await expect(modal(adas.page)).toHaveCount(0)
  await expect(adas.page).not.toHaveURL(/[?&]task=/)
  await adas.context.close()
})
