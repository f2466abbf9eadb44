import type { Page } from '@playwright/test'
import {
  commentBy,
  commentsHeading,
  commentsSection,
  expectReaction,
  newCommentBox,
  noscriptBanner,
  reactionButton,
  sendButton,
} from './comments-section'
import { browserFor, expect, test, verifiedPerson } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi, unreadMentionsOn } from './rpc-calls'
import { modal, modalReady } from './task-page'
import { uniqueTitle } from './unique'

/**
 * The discussion of a task with JavaScript off: every change is a form that posts and comes back
 * to the page, reply, edit and delete open as views addressed by the URL, reactions are small
 * forms, and each outcome is told by the banner that stands in for the toast. With JavaScript
 * the same section is covered by comments.e2e.ts.
 */

test.skip(
  ({ javaScriptEnabled }) => javaScriptEnabled,
  'The forms without JavaScript; comments.e2e.ts covers the section with it',
)

/** The task's modal, with the comment views closed, exactly as a change comes back to it. */
function expectBackOnTask(page: Page, taskId: string) {
  return expect(page).toHaveURL(new RegExp(`/task\\?task=${taskId}$`))
}

test('add, reply, react, edit and delete through the forms, each told by the banner', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  // Two people, two sign-ups by e-mail, and a dozen full-page form posts on two slow shared cores.
  test.setTimeout(120_000)
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const [ada, grace] = await Promise.all([
    verifiedPerson(baseURL, 'Ada', project),
    verifiedPerson(baseURL, 'Grace', project),
  ])
  const text = uniqueTitle('Book the offsite venue', project)
  const { id } = await createTaskThroughApi(ada, { text, sharedWith: [grace.email] })
  const adas = await browserFor(browser, ada, { baseURL, javaScriptEnabled: false })
  const graces = await browserFor(browser, grace, { baseURL, javaScriptEnabled: false })

  // The empty discussion, as the server renders it.
  await adas.page.goto(`/task?task=${id}`)
  await modalReady(adas.page, false)
  await expect(commentsHeading(adas.page)).toHaveText('Comments (0)')
  await expect(
    commentsSection(adas.page).getByText('No comments yet. Be the first to comment!'),
  ).toBeVisible()
  const box = newCommentBox(adas.page)
  await expect(box).toHaveAttribute('placeholder', 'Add a comment... Type @ to mention someone')
  await expect(box).toHaveAttribute('rows', '3')
  // The shortcut is a script's: without JavaScript no hint offers it.
  await expect(commentsSection(adas.page).getByText(/\+Enter to send/)).toHaveCount(0)

  // A comment naming Grace notifies her, by the text alone (no picker without JavaScript).
  const first = '@Grace could you check the venue contract before Friday?'
  await newCommentBox(adas.page).fill(first)
  await sendButton(adas.page).click()
  await expectBackOnTask(adas.page, id)
  await expect(noscriptBanner(adas.page)).toHaveText('Comment added and 1 person notified! 📢')
  await expect(commentsHeading(adas.page)).toHaveText('Comments (1)')
  await expect(commentsSection(adas.page).getByText('No comments yet. Be the first to comment!')).toHaveCount(
    0,
  )
  const adasComment = commentBy(adas.page, 'Ada')
  await expect(adasComment).toContainText(first)
  await expect(adasComment.getByText('You', { exact: true })).toBeVisible()
  await expect(adasComment.locator('time')).toHaveText('Just now')
  await expect(adasComment.getByText('A', { exact: true })).toBeVisible()
  for (const name of ['Thumbs up', 'Heart', 'Check', 'Fire'] as const) {
    await expectReaction(adasComment, name, 0, false)
  }
  await expect(adasComment.getByRole('link', { name: 'Edit comment' })).toBeVisible()
  await expect(adasComment.getByRole('link', { name: 'Delete comment' })).toBeVisible()
  // The banner was the redirect's alone: the next page has none.
  await adas.page.reload()
  await expect(noscriptBanner(adas.page)).toHaveCount(0)

  // Grace has an unread mention until she opens the task.
  expect(await unreadMentionsOn(grace, id)).toEqual([
    expect.objectContaining({ fromUserName: 'Ada', content: first, isRead: false }),
  ])
  await graces.page.goto(`/task?task=${id}`)
  await modalReady(graces.page, false)
  expect(await unreadMentionsOn(grace, id)).toEqual([])

  // Grace sees Ada's comment without its author's tools, and replies through the reply view.
  const seenByGrace = commentBy(graces.page, 'Ada')
  await expect(seenByGrace).toContainText(first)
  await expect(seenByGrace.getByText('You', { exact: true })).toHaveCount(0)
  await expect(seenByGrace.getByRole('link', { name: 'Edit comment' })).toHaveCount(0)
  await expect(seenByGrace.getByRole('link', { name: 'Delete comment' })).toHaveCount(0)
  await seenByGrace.getByRole('link', { name: 'Reply to Ada' }).click()
  await expect(graces.page).toHaveURL(/[?&]view=reply&comment=[^&]+$/)
  const replyBox = commentsSection(graces.page).getByRole('textbox', { name: 'Reply to Ada' })
  await expect(replyBox).toHaveAttribute('placeholder', 'Reply to Ada...')
  await expect(commentsSection(graces.page).getByRole('button', { name: 'Reply', exact: true })).toBeVisible()
  // Cancel is the way back to the discussion.
  await commentsSection(graces.page).getByRole('link', { name: 'Cancel' }).click()
  await expectBackOnTask(graces.page, id)
  await expect(replyBox).toHaveCount(0)
  // The Reply link of an open reply box closes it too.
  await seenByGrace.getByRole('link', { name: 'Reply to Ada' }).click()
  await expect(replyBox).toBeVisible()
  await seenByGrace.getByRole('link', { name: 'Reply to Ada' }).click()
  await expectBackOnTask(graces.page, id)
  await expect(replyBox).toHaveCount(0)
  await seenByGrace.getByRole('link', { name: 'Reply to Ada' }).click()
  const reply = 'Signed and sent back this morning.'
  await replyBox.fill(reply)
  await commentsSection(graces.page).getByRole('button', { name: 'Reply', exact: true }).click()
  await expectBackOnTask(graces.page, id)
  await expect(noscriptBanner(graces.page)).toHaveText('Comment added successfully! 💬')
  await expect(commentsHeading(graces.page)).toHaveText('Comments (2)')
  const replies = commentsSection(graces.page).getByRole('list', { name: 'Replies to Ada' })
  await expect(replies.getByRole('article', { name: 'Comment by Grace' })).toContainText(reply)
  await expect(
    replies.getByRole('article', { name: 'Comment by Grace' }).getByText('You', { exact: true }),
  ).toBeVisible()

  // Grace's heart on Ada's comment: counted, and highlighted for her alone.
  await reactionButton(seenByGrace, 'Heart').click()
  await expectBackOnTask(graces.page, id)
  await expectReaction(commentBy(graces.page, 'Ada'), 'Heart', 1, true)
  await adas.page.reload()
  await expectReaction(adasComment, 'Heart', 1, false)
  // Ada adds hers, then takes it back.
  await reactionButton(adasComment, 'Heart').click()
  await expectReaction(adasComment, 'Heart', 2, true)
  await reactionButton(adasComment, 'Heart').click()
  await expectReaction(adasComment, 'Heart', 1, false)
  await reactionButton(commentBy(adas.page, 'Grace'), 'Fire').click()
  await expectReaction(commentBy(adas.page, 'Grace'), 'Fire', 1, true)
  await expectReaction(adasComment, 'Fire', 0, false)

  // Edit: the edit view, Cancel, then Save.
  await adasComment.getByRole('link', { name: 'Edit comment' }).click()
  await expect(adas.page).toHaveURL(/[?&]view=edit-comment&comment=[^&]+$/)
  const editBox = adasComment.getByRole('textbox', { name: 'Edit comment' })
  await expect(editBox).toHaveValue(first)
  await expect(editBox).toHaveAttribute('rows', '2')
  await expect(adasComment.getByRole('button', { name: 'Save' })).toBeVisible()
  await adasComment.getByRole('link', { name: 'Cancel' }).click()
  await expectBackOnTask(adas.page, id)
  await expect(adasComment).toContainText(first)
  await expect(adasComment.getByText('(edited)')).toHaveCount(0)
  await adasComment.getByRole('link', { name: 'Edit comment' }).click()
  const edited = '@Grace could you check the venue contract before Thursday?'
  await editBox.fill(edited)
  await adasComment.getByRole('button', { name: 'Save' }).click()
  await expectBackOnTask(adas.page, id)
  await expect(noscriptBanner(adas.page)).toHaveText('Comment updated successfully! ✏️')
  await expect(adasComment.getByText(edited, { exact: true })).toBeVisible()
  await expect(adasComment.getByText(first, { exact: true })).toBeHidden()
  // '(edited)' opens the earlier version.
  await adasComment.getByText('(edited)', { exact: true }).click()
  await expect(adasComment.getByRole('list', { name: 'Earlier versions' })).toContainText(first)
  await expectReaction(adasComment, 'Heart', 1, false)

  // Delete: the confirmation view, Cancel, then Delete. Grace's reply keeps its thread's place.
  await adasComment.getByRole('link', { name: 'Delete comment' }).click()
  await expect(adas.page).toHaveURL(/[?&]view=delete-comment&comment=[^&]+$/)
  const confirmation = adasComment.getByRole('alertdialog', { name: 'Delete comment' })
  await expect(confirmation).toContainText('Are you sure you want to delete this comment?')
  await confirmation.getByRole('link', { name: 'Cancel' }).click()
  await expectBackOnTask(adas.page, id)
  await expect(confirmation).toHaveCount(0)
  await expect(adasComment).toContainText(edited)
  await adasComment.getByRole('link', { name: 'Delete comment' }).click()
  await confirmation.getByRole('button', { name: 'Delete' }).click()
  await expectBackOnTask(adas.page, id)
  await expect(noscriptBanner(adas.page)).toHaveText('Comment deleted successfully! 🗑️')
  await expect(commentBy(adas.page, 'Ada')).toHaveCount(0)
  await expect(commentsSection(adas.page)).not.toContainText(edited)
  await expect(commentsSection(adas.page).getByRole('article', { name: 'Deleted comment' })).toHaveText(
    /This comment was deleted\./,
  )
  await expect(commentsHeading(adas.page)).toHaveText('Comments (1)')
  await expect(commentBy(adas.page, 'Grace')).toContainText(reply)
  // Not Ada's to delete.
  await expect(commentBy(adas.page, 'Grace').getByRole('link', { name: 'Delete comment' })).toHaveCount(0)

  // Grace deletes her reply, and the discussion is empty again.
  await graces.page.reload()
  const gracesReply = commentBy(graces.page, 'Grace')
  await gracesReply.getByRole('link', { name: 'Delete comment' }).click()
  await gracesReply
    .getByRole('alertdialog', { name: 'Delete comment' })
    .getByRole('button', { name: 'Delete' })
    .click()
  await expectBackOnTask(graces.page, id)
  await expect(noscriptBanner(graces.page)).toHaveText('Comment deleted successfully! 🗑️')
  await expect(commentsHeading(graces.page)).toHaveText('Comments (0)')
  await expect(
    commentsSection(graces.page).getByText('No comments yet. Be the first to comment!'),
  ).toBeVisible()

  await Promise.all([adas.context.close(), graces.context.close()])
})

test('a comment view addressed by hand to someone else’s comment shows no form', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const [ada, grace] = await Promise.all([
    verifiedPerson(baseURL, 'Ada', project),
    verifiedPerson(baseURL, 'Grace', project),
  ])
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Order the badges', project),
    sharedWith: [grace.email],
  })
  const { id: commentId } = await addCommentThroughApi(ada, {
    taskId: id,
    content: 'Fifty badges, blue lanyards.',
  })

  const graces = await browserFor(browser, grace, { baseURL, javaScriptEnabled: false })
  for (const view of ['edit-comment', 'delete-comment']) {
    await graces.page.goto(`/task?task=${id}&view=${view}&comment=${commentId}`)
    await expect(modal(graces.page).getByRole('heading', { level: 2 })).toBeVisible()
    const seen = commentBy(graces.page, 'Ada')
    await expect(seen).toContainText('Fifty badges, blue lanyards.')
    await expect(seen.getByRole('textbox')).toHaveCount(0)
    await expect(seen.getByRole('alertdialog')).toHaveCount(0)
  }
  await graces.context.close()
})

test('blank text is refused by the server, which says why and leads back to the task', async ({
  browser,
  baseURL: base,
}, testInfo) => {
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const ada = await verifiedPerson(baseURL, 'Ada', project)
  const { id } = await createTaskThroughApi(ada, { text: uniqueTitle('Confirm the dates', project) })
  const adas = await browserFor(browser, ada, { baseURL, javaScriptEnabled: false })
  await adas.page.goto(`/task?task=${id}`)
  // Spaces pass the browser's own check (required), not the server's.
  await newCommentBox(adas.page).fill('   ')
  await sendButton(adas.page).click()
  const refusal = adas.page.getByRole('alert')
  await expect(refusal.getByRole('heading', { level: 1 })).toHaveText(
    'Failed to add comment. Please try again.',
  )
  await expect(refusal).toContainText('Write a comment first')
  await refusal.getByRole('link', { name: 'Back' }).click()
  await expectBackOnTask(adas.page, id)
  await expect(commentsHeading(adas.page)).toHaveText('Comments (0)')
  await expect(
    commentsSection(adas.page).getByText('No comments yet. Be the first to comment!'),
  ).toBeVisible()
  await adas.context.close()
})
