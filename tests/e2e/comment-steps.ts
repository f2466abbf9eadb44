import { expect, type Locator, type Page } from '@playwright/test'
import {
  commentBy,
  commentsHeading,
  commentsSection,
  expectReaction,
  noscriptBanner,
  replyBox,
  replyButton,
} from './comments-section'
import type { PageFor, Person } from './fixtures'
import { unreadMentionsOn } from './rpc-calls'
import { modalReady } from './task-page'

/**
 * The steps of a task's discussion that the journeys with JavaScript (comments.e2e.ts) and without
 * it (comments-without-js.e2e.ts) share. Where the two differ — a toast or the banner after a
 * page load, a view switched in place or addressed by the URL, a hint only a script can keep — a
 * step takes `javaScriptEnabled` and says which is which.
 */

export const NO_COMMENTS = 'No comments yet. Be the first to comment!'

/** A browser of the person's own, on the task's modal. */
export async function openTaskAs(
  pageFor: PageFor,
  person: Person,
  taskId: string,
  javaScriptEnabled: boolean,
) {
  const page = await pageFor(person)
  await page.goto(`/task?task=${taskId}`)
  await modalReady(page, javaScriptEnabled)
  return page
}

/** The task's modal, with the comment views closed, exactly as a change comes back to it. */
export function expectBackOnTask(page: Page, taskId: string) {
  return expect(page).toHaveURL(new RegExp(`/task\\?task=${taskId}$`))
}

/** A toast (sonner) with exactly this title. */
export function toast(page: Page, title: string) {
  return page.locator('[data-sonner-toast]').filter({ has: page.getByText(title, { exact: true }) })
}

/**
 * The outcome of a change, told as a toast with JavaScript; without it, by the banner of the
 * page the form's post came back to.
 */
export async function expectToldOf(page: Page, taskId: string, message: string, javaScriptEnabled: boolean) {
  if (javaScriptEnabled) {
    await expect(toast(page, message)).toBeVisible()
  } else {
    await expectBackOnTask(page, taskId)
    await expect(noscriptBanner(page)).toHaveText(message)
  }
}

/** Nothing said yet: the heading counts none and the section asks for the first comment. */
export async function expectNoComments(page: Page) {
  await expect(commentsHeading(page)).toHaveText('Comments (0)')
  await expect(commentsSection(page).getByText(NO_COMMENTS, { exact: true })).toBeVisible()
}

/** The box for a new comment on a task shared with others, and the send shortcut's hint. */
export async function expectNewCommentBox(box: Locator, javaScriptEnabled: boolean) {
  await expect(box).toHaveAttribute('placeholder', 'Add a comment... Type @ to mention someone')
  await expect(box).toHaveAttribute('rows', '3')
  const section = commentsSection(box.page())
  if (javaScriptEnabled) {
    // Chromium here runs on Linux: the hint names Ctrl once the page knows the platform.
    await expect(section.getByText('Press Ctrl+Enter to send', { exact: true })).toBeVisible()
  } else {
    // The shortcut is a script's: without JavaScript no hint offers it.
    await expect(section.getByText(/\+Enter to send/)).toHaveCount(0)
  }
}

/** The first comment, as its author sees it once sent: counted, theirs, their initial, just now. */
export async function expectFirstOwnComment(page: Page, author: string, content: string) {
  await expect(commentsHeading(page)).toHaveText('Comments (1)')
  await expect(commentsSection(page).getByText(NO_COMMENTS, { exact: true })).toHaveCount(0)
  const comment = commentBy(page, author)
  await expect(comment).toContainText(content)
  await expect(comment.getByText('You', { exact: true })).toBeVisible()
  await expect(comment.getByText(author.charAt(0), { exact: true })).toBeVisible()
  await expect(comment.locator('time')).toHaveText('Just now')
  return comment
}

/** The person mentioned has this one unread mention on the task. */
export async function expectUnreadMention(mentioned: Person, taskId: string, from: string, content: string) {
  expect(await unreadMentionsOn(mentioned, taskId)).toEqual([
    expect.objectContaining({ fromUserName: from, content, isRead: false }),
  ])
}

/** Nobody has reacted to the comment yet. */
export async function expectNoReactions(comment: Locator) {
  for (const name of ['Thumbs up', 'Heart', 'Check', 'Fire'] as const) {
    await expectReaction(comment, name, 0, false)
  }
}

/** Someone else's comment: not marked as the viewer's, and none of its author's tools. */
export async function expectSomeoneElses(comment: Locator) {
  await expect(comment.getByText('You', { exact: true })).toHaveCount(0)
  await expect(comment.getByRole('link', { name: 'Edit comment' })).toHaveCount(0)
  await expect(comment.getByRole('link', { name: 'Delete comment' })).toHaveCount(0)
}

/** Reply under `author`'s comment opens the box; Cancel closes it, and so does Reply again. */
export async function expectReplyOpensAndCloses(
  comment: Locator,
  author: string,
  taskId: string,
  javaScriptEnabled: boolean,
) {
  const page = comment.page()
  const link = comment.getByRole('link', { name: `Reply to ${author}` })
  const box = replyBox(page, author)
  const cancel = commentsSection(page).getByRole('link', { name: 'Cancel' })

  await link.click()
  await expect(box).toBeVisible()
  await expect(box).toHaveAttribute('placeholder', `Reply to ${author}...`)
  if (javaScriptEnabled) {
    // Opened in place, ready to type in, with nothing to send yet.
    await expect(box).toBeFocused()
    await expect(replyButton(page)).toBeDisabled()
    await expect(cancel).toBeVisible()
  } else {
    // A view of its own, addressed by the URL.
    await expect(page).toHaveURL(/[?&]view=reply&comment=[^&]+$/)
    await expect(replyButton(page)).toBeVisible()
  }
  // Cancel is the way back to the discussion.
  await cancel.click()
  await expectBackOnTask(page, taskId)
  await expect(box).toHaveCount(0)

  // The Reply link of an open reply box closes it too.
  await link.click()
  await expect(box).toBeVisible()
  await link.click()
  if (!javaScriptEnabled) await expectBackOnTask(page, taskId)
  await expect(box).toHaveCount(0)
}

/** A reply in the thread under `to`'s comment, marked as its author's own. */
export async function expectOwnReply(page: Page, to: string, by: string, content: string) {
  const replies = commentsSection(page).getByRole('list', { name: `Replies to ${to}` })
  const reply = replies.getByRole('article', { name: `Comment by ${by}` })
  await expect(reply).toContainText(content)
  await expect(reply.getByText('You', { exact: true })).toBeVisible()
  return reply
}

/** Edit opens a box under the viewer's own comment that holds its text. */
export async function openEdit(comment: Locator, content: string, javaScriptEnabled: boolean) {
  await comment.getByRole('link', { name: 'Edit comment' }).click()
  if (!javaScriptEnabled) await expect(comment.page()).toHaveURL(/[?&]view=edit-comment&comment=[^&]+$/)
  const editBox = comment.getByRole('textbox', { name: 'Edit comment' })
  await expect(editBox).toHaveValue(content)
  await expect(editBox).toHaveAttribute('rows', '2')
  return editBox
}

/** Cancel closes the edit and leaves the comment as it was. */
export async function cancelEdit(
  comment: Locator,
  content: string,
  taskId: string,
  javaScriptEnabled: boolean,
) {
  await comment.getByRole('link', { name: 'Cancel' }).click()
  if (!javaScriptEnabled) await expectBackOnTask(comment.page(), taskId)
  await expect(comment.getByRole('textbox', { name: 'Edit comment' })).toHaveCount(0)
  await expect(comment).toContainText(content)
  await expect(comment.getByText('(edited)')).toHaveCount(0)
}

/** The edited text shows instead of the first, and '(edited)' opens the earlier version. */
export async function expectEdited(comment: Locator, edited: string, earlier: string) {
  await expect(comment.getByText(edited, { exact: true })).toBeVisible()
  await expect(comment.getByText(earlier, { exact: true })).toBeHidden()
  await comment.getByText('(edited)', { exact: true }).click()
  await expect(comment.getByRole('list', { name: 'Earlier versions' })).toContainText(earlier)
}

/** The delete confirmation of the viewer's own comment. */
function deleteConfirmation(comment: Locator) {
  return comment.getByRole('alertdialog', { name: 'Delete comment' })
}

/** Delete asks first; Cancel keeps the comment. */
export async function openDeleteThenCancel(
  comment: Locator,
  content: string,
  taskId: string,
  javaScriptEnabled: boolean,
) {
  const confirmation = deleteConfirmation(comment)
  await comment.getByRole('link', { name: 'Delete comment' }).click()
  if (!javaScriptEnabled) await expect(comment.page()).toHaveURL(/[?&]view=delete-comment&comment=[^&]+$/)
  await expect(confirmation).toContainText('Are you sure you want to delete this comment?')
  await confirmation.getByRole('link', { name: 'Cancel' }).click()
  if (!javaScriptEnabled) await expectBackOnTask(comment.page(), taskId)
  await expect(confirmation).toHaveCount(0)
  await expect(comment).toContainText(content)
}

/** Delete, and Delete again in the confirmation. */
export async function deleteComment(comment: Locator) {
  await comment.getByRole('link', { name: 'Delete comment' }).click()
  await deleteConfirmation(comment).getByRole('button', { name: 'Delete' }).click()
}
