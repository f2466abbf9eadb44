import {
  cancelEdit,
  deleteComment,
  expectBackOnTask,
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
  openDeleteThenCancel,
  openEdit,
  openTaskAs,
} from './comment-steps'
import {
  commentBy,
  commentsHeading,
  commentsSection,
  expectReaction,
  newCommentBox,
  noscriptBanner,
  reactionButton,
  replyBox,
  replyButton,
  sendButton,
} from './comments-section'
import { expect, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi, unreadMentionsOn } from './rpc-calls'
import { modal } from './task-page'
import { uniqueTitle } from './unique'

/**
 * The discussion of a task with JavaScript off: every change is a form that posts and comes back
 * to the page, reply, edit and delete open as views addressed by the URL, reactions are small
 * forms, and each outcome is told by the banner that stands in for the toast. With JavaScript
 * the same section is covered by comments.e2e.ts; the steps the two share are comment-steps.ts.
 */

test.skip(
  ({ javaScriptEnabled }) => javaScriptEnabled,
  'The forms without JavaScript; comments.e2e.ts covers the section with it',
)

test('add, reply, react, edit and delete through the forms, each told by the banner', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  // Two people, two sign-ups by e-mail, and a dozen full-page form posts on two slow shared cores.
  test.setTimeout(120_000)
  const project = testInfo.project.name
  const [ada, grace] = await Promise.all([newPerson('Ada'), newPerson('Grace')])
  const text = uniqueTitle('Book the offsite venue', project)
  const { id } = await createTaskThroughApi(ada, { text, sharedWith: [grace.email] })

  // The empty discussion, as the server renders it.
  const asAda = await openTaskAs(pageFor, ada, id, false)
  await expectNoComments(asAda)
  await expectNewCommentBox(newCommentBox(asAda), false)

  // A comment naming Grace notifies her, by the text alone (no picker without JavaScript).
  const first = '@Grace could you check the venue contract before Friday?'
  await newCommentBox(asAda).fill(first)
  await sendButton(asAda).click()
  await expectToldOf(asAda, id, 'Comment added and 1 person notified! 📢', false)
  const adasComment = await expectFirstOwnComment(asAda, 'Ada', first)
  await expectNoReactions(adasComment)
  await expect(adasComment.getByRole('link', { name: 'Edit comment' })).toBeVisible()
  await expect(adasComment.getByRole('link', { name: 'Delete comment' })).toBeVisible()
  // The banner was the redirect's alone: the next page has none.
  await asAda.reload()
  await expect(noscriptBanner(asAda)).toHaveCount(0)

  // Grace has an unread mention until she opens the task.
  await expectUnreadMention(grace, id, 'Ada', first)
  const asGrace = await openTaskAs(pageFor, grace, id, false)
  expect(await unreadMentionsOn(grace, id)).toEqual([])

  // Grace sees Ada's comment without its author's tools, and replies through the reply view.
  const seenByGrace = commentBy(asGrace, 'Ada')
  await expect(seenByGrace).toContainText(first)
  await expectSomeoneElses(seenByGrace)
  await expectReplyOpensAndCloses(seenByGrace, 'Ada', id, false)
  await seenByGrace.getByRole('link', { name: 'Reply to Ada' }).click()
  const reply = 'Signed and sent back this morning.'
  await replyBox(asGrace, 'Ada').fill(reply)
  await replyButton(asGrace).click()
  await expectToldOf(asGrace, id, 'Comment added successfully! 💬', false)
  await expect(commentsHeading(asGrace)).toHaveText('Comments (2)')
  await expectOwnReply(asGrace, 'Ada', 'Grace', reply)

  // Grace's heart on Ada's comment: counted, and highlighted for her alone.
  await reactionButton(seenByGrace, 'Heart').click()
  await expectBackOnTask(asGrace, id)
  await expectReaction(commentBy(asGrace, 'Ada'), 'Heart', 1, true)
  await asAda.reload()
  await expectReaction(adasComment, 'Heart', 1, false)
  // Ada adds hers, then takes it back.
  await reactionButton(adasComment, 'Heart').click()
  await expectReaction(adasComment, 'Heart', 2, true)
  await reactionButton(adasComment, 'Heart').click()
  await expectReaction(adasComment, 'Heart', 1, false)
  await reactionButton(commentBy(asAda, 'Grace'), 'Fire').click()
  await expectReaction(commentBy(asAda, 'Grace'), 'Fire', 1, true)
  await expectReaction(adasComment, 'Fire', 0, false)

  // Edit: the edit view, Cancel, then Save.
  await openEdit(adasComment, first, false)
  await expect(adasComment.getByRole('button', { name: 'Save' })).toBeVisible()
  await cancelEdit(adasComment, first, id, false)
  const editBox = await openEdit(adasComment, first, false)
  const edited = '@Grace could you check the venue contract before Thursday?'
  await editBox.fill(edited)
  await adasComment.getByRole('button', { name: 'Save' }).click()
  await expectToldOf(asAda, id, 'Comment updated successfully! ✏️', false)
  await expectEdited(adasComment, edited, first)
  await expectReaction(adasComment, 'Heart', 1, false)

  // Delete: the confirmation view, Cancel, then Delete. Grace's reply keeps its thread's place.
  await openDeleteThenCancel(adasComment, edited, id, false)
  await deleteComment(adasComment)
  await expectToldOf(asAda, id, 'Comment deleted successfully! 🗑️', false)
  await expect(commentBy(asAda, 'Ada')).toHaveCount(0)
  await expect(commentsSection(asAda)).not.toContainText(edited)
  await expect(commentsSection(asAda).getByRole('article', { name: 'Deleted comment' })).toHaveText(
    /This comment was deleted\./,
  )
  await expect(commentsHeading(asAda)).toHaveText('Comments (1)')
  await expect(commentBy(asAda, 'Grace')).toContainText(reply)
  // Not Ada's to delete.
  await expect(commentBy(asAda, 'Grace').getByRole('link', { name: 'Delete comment' })).toHaveCount(0)

  // Grace deletes her reply, and the discussion is empty again.
  await asGrace.reload()
  await deleteComment(commentBy(asGrace, 'Grace'))
  await expectToldOf(asGrace, id, 'Comment deleted successfully! 🗑️', false)
  await expectNoComments(asGrace)
})

test('a comment view addressed by hand to someone else’s comment shows no form', async ({
  newPerson,
  pageFor,
}, testInfo) => {
  const project = testInfo.project.name
  const [ada, grace] = await Promise.all([newPerson('Ada'), newPerson('Grace')])
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Order the badges', project),
    sharedWith: [grace.email],
  })
  const { id: commentId } = await addCommentThroughApi(ada, {
    taskId: id,
    content: 'Fifty badges, blue lanyards.',
  })

  const asGrace = await pageFor(grace)
  for (const view of ['edit-comment', 'delete-comment']) {
    await asGrace.goto(`/task?task=${id}&view=${view}&comment=${commentId}`)
    await expect(modal(asGrace).getByRole('heading', { level: 2 })).toBeVisible()
    const seen = commentBy(asGrace, 'Ada')
    await expect(seen).toContainText('Fifty badges, blue lanyards.')
    await expect(seen.getByRole('textbox')).toHaveCount(0)
    await expect(seen.getByRole('alertdialog')).toHaveCount(0)
  }
})

test('blank text is refused by the server, which says why and leads back to the task', async ({
  person: ada,
  signedInPage: asAda,
}, testInfo) => {
  const { id } = await createTaskThroughApi(ada, {
    text: uniqueTitle('Confirm the dates', testInfo.project.name),
  })
  await asAda.goto(`/task?task=${id}`)
  // Spaces pass the browser's own check (required), not the server's.
  await newCommentBox(asAda).fill('   ')
  await sendButton(asAda).click()
  const refusal = asAda.getByRole('alert')
  await expect(refusal.getByRole('heading', { level: 1 })).toHaveText(
    'Failed to add comment. Please try again.',
  )
  await expect(refusal).toContainText('Write a comment first')
  await refusal.getByRole('link', { name: 'Back' }).click()
  await expectBackOnTask(asAda, id)
  await expectNoComments(asAda)
})
