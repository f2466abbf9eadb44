import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'
import { detail, group, listReady, modal, modalReady, row } from './task-page'
import { uniqueTitle } from './unique'

/**
 * Due dates in a browser, with JavaScript on and off: set on create, shown in the row and the
 * modal, changed and cleared in the edit view; the list narrowed to what is overdue and sorted by
 * due date, from controls whose choices live in the URL.
 */

test('a due date is set on create, shown in the row and the modal, changed and cleared', async ({
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  const text = uniqueTitle('Renew the certificate', testInfo.project.name)
  await page.goto('/task')
  await listReady(page, javaScriptEnabled)
  const form = page.getByRole('region', { name: 'New task' })
  await form.getByLabel('Title').fill(text)
  await form.getByLabel('Due date').fill('2031-05-01')
  await form.getByRole('button', { name: 'Create task' }).click()

  await expect(page).toHaveURL(/\/task\?task=[^&]+$/)
  const dialog = modal(page)
  await modalReady(page, javaScriptEnabled)
  await expect(detail(dialog, 'Due')).toHaveText('Due Thu, May 1, 2031')
  await expect(row(group(page, 'My tasks'), text)).toContainText('Due Thu, May 1, 2031')

  await dialog.getByRole('link', { name: 'Edit', exact: true }).click()
  await expect(dialog.getByLabel('Due date')).toHaveValue('2031-05-01')
  await dialog.getByLabel('Due date').fill('2020-01-06')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(detail(dialog, 'Due')).toHaveText('Overdue')
  await expect(row(group(page, 'My tasks'), text)).toContainText('Overdue')

  await dialog.getByRole('link', { name: 'Edit', exact: true }).click()
  await dialog.getByLabel('Due date').fill('')
  await dialog.getByRole('button', { name: 'Save' }).click()
  await expect(dialog.getByRole('heading', { name: text })).toBeVisible()
  await expect(detail(dialog, 'Due')).toHaveCount(0)
  await expect(row(group(page, 'My tasks'), text)).not.toContainText('Due')
})

test('the list shows only what is overdue, and sorts by due date', async ({
  person,
  signedInPage: page,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const late = uniqueTitle('Late already', project)
  const soon = uniqueTitle('Due soon', project)
  const later = uniqueTitle('Due later', project)
  const undated = uniqueTitle('Whenever', project)
  await createTaskThroughApi(person, { text: later, dueDate: '2031-06-01' })
  await createTaskThroughApi(person, { text: late, dueDate: '2020-01-06' })
  await createTaskThroughApi(person, { text: undated })
  await createTaskThroughApi(person, { text: soon, dueDate: '2031-05-01' })

  await page.goto('/task')
  await listReady(page, javaScriptEnabled)
  await page.getByLabel('Due', { exact: true }).selectOption('Overdue')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/[?&]due=overdue/)
  const mine = group(page, 'My tasks')
  await expect(row(mine, late)).toContainText('Overdue')
  await expect(mine.getByTestId('task-row')).toHaveCount(1)

  await page.getByLabel('Due', { exact: true }).selectOption('All')
  await page.getByLabel('Sort').selectOption('Due date')
  await page.getByRole('button', { name: 'Filter' }).click()
  await expect(page).toHaveURL(/[?&]sort=due/)
  await expect(mine.getByTestId('task-row').getByRole('link')).toHaveText([late, soon, later, undated])
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page)
})
