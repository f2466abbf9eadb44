import { expect, type Locator, type Page } from '@playwright/test'
import { modal } from './task-page'

/**
 * The comments section of the task modal, as people find it: by its heading, by who wrote a
 * comment, by the labels of its boxes and buttons.
 */

export type ReactionName = 'Thumbs up' | 'Heart' | 'Check' | 'Fire'

/** The section under the task's details, named by its heading 'Comments (N)'. */
export function commentsSection(page: Page) {
  return modal(page).getByRole('region', { name: /^Comments \(\d+\)$/ })
}

export function commentsHeading(page: Page) {
  return commentsSection(page).getByRole('heading', { level: 3 })
}

/** The box for a new comment (not a reply or an edit). */
export function newCommentBox(page: Page) {
  return commentsSection(page).getByRole('textbox', { name: 'New comment', exact: true })
}

export function sendButton(page: Page) {
  return commentsSection(page).getByRole('button', { name: 'Send', exact: true })
}

/** A comment by `author`, optionally the one holding `text` (replies are articles of their own). */
export function commentBy(page: Page, author: string, text?: string) {
  const articles = commentsSection(page).getByRole('article', { name: `Comment by ${author}`, exact: true })
  return text === undefined ? articles : articles.filter({ hasText: text })
}

/** The box for a reply to `author`'s comment, open under it. */
export function replyBox(page: Page, author: string) {
  return commentsSection(page).getByRole('textbox', { name: `Reply to ${author}` })
}

export function replyButton(page: Page) {
  return commentsSection(page).getByRole('button', { name: 'Reply', exact: true })
}

/** A comment's reaction button, whatever its count: 'Heart: 2'. */
export function reactionButton(comment: Locator, name: ReactionName) {
  return comment.getByRole('button', { name: new RegExp(`^${name}: \\d+$`) })
}

/** The reaction has this count, and is highlighted (aria-pressed) exactly when it is the viewer's. */
export async function expectReaction(comment: Locator, name: ReactionName, count: number, isMine: boolean) {
  const button = reactionButton(comment, name)
  await expect(button).toHaveAccessibleName(`${name}: ${count}`)
  await expect(button).toHaveAttribute('aria-pressed', String(isMine))
  await expect(button).toHaveText(new RegExp(`\\D${count}$`))
}

/** The mention toast's text (docs/product-rules.md §4), with the first 50 characters of the comment. */
export function mentionToastText(sender: string, content: string) {
  return `${sender} mentioned you in a comment: "${Array.from(content).slice(0, 50).join('')}..."`
}

/** The banner that carries a redirect's toast when JavaScript is off. */
export function noscriptBanner(page: Page) {
  return page.getByRole('status').filter({ hasText: /Comment/ })
}
