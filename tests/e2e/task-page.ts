import { expect, type Locator, type Page } from '@playwright/test'

/**
 * The /task page and the task modal as people find them: by the names of its groups, the titles
 * of its rows, the terms of the modal's details; and the waits for React to run them.
 */

/** One of the /task page's groups: 'My tasks', 'Shared with me' or 'Public'. */
export function group(page: Page, name: 'My tasks' | 'Shared with me' | 'Public') {
  return page.getByRole('region', { name: new RegExp(`^${name} \\(\\d+\\)$`) })
}

/** The row of the task with this title, within a group or the page. */
export function row(scope: Page | Locator, title: string) {
  const page = 'page' in scope ? scope.page() : scope
  // `has` is matched inside each row, so it is built from the page, not from the scope.
  return scope.getByTestId('task-row').filter({ has: page.getByRole('link', { name: title, exact: true }) })
}

/** The task-details modal (a <dialog>, open on the server and modal after hydration). */
export function modal(page: Page) {
  return page.getByRole('dialog')
}

/** "November 22, 2026": how the modal prints a creation time, in English, in UTC. */
export function longDate(iso: string) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso))
}

/**
 * With JavaScript, waits until React runs the /task page (the create form turns the browser's own
 * validation off once it has hydrated: the server's answer is shown instead), so clicks and
 * changes reach its handlers.
 */
export async function listReady(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return
  await expect(page.locator('form#create-task')).toHaveAttribute('novalidate', '')
}

/** With JavaScript, waits until the open task modal has become a real modal dialog. */
export async function modalReady(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) await expect(modal(page)).toHaveAttribute('open', '')
  else await expect(page.locator('dialog:modal')).toHaveCount(1)
}

/** The value the modal lists beside a term ('Visibility', 'Created by', 'Shared with', 'Created'). */
export function detail(dialog: Locator, term: string) {
  return dialog.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]')
}
