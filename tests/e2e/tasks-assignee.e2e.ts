import type { Locator, Page } from '@playwright/test'
import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { sharedTask } from './rpc-calls'
import { detail, listReady, modal, modalReady, row } from './task-page'

/**
 * An assignee, with JavaScript on and off: the owner assigns a task to the person it is shared
 * with from the modal's edit view, and both see the name in the list and the modal; the assignee
 * hands it back with the modal's button.
 */

test.describe.configure({ timeout: 120_000 })

async function expectToast(page: Page, javaScriptEnabled: boolean, title: string) {
  if (javaScriptEnabled) await expect(page.getByText(title, { exact: true })).toBeVisible()
}

/** The assignee's name beside their avatar (whose initial is text too). */
function assigneeIn(scope: Locator) {
  return scope.locator('[data-assignee] > span:last-child')
}

test('the owner assigns a sharee in the edit view; the assignee sees it and hands it back', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  const { ada, grace, id, text } = await sharedTask(newPerson, testInfo.project.name, 'Book the venue')

  const asOwner = await pageFor(ada)
  await asOwner.goto(`/task?task=${id}&view=edit`)
  await modalReady(asOwner, javaScriptEnabled)
  const assignee = modal(asOwner).getByLabel('Assignee')
  // Exactly who may be assigned: nobody, the owner, the verified person it is shared with.
  await expect(assignee.locator('option')).toHaveText(['Nobody', ada.name, grace.name])
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(asOwner)
  await assignee.selectOption({ label: grace.name })
  await modal(asOwner).getByRole('button', { name: 'Save', exact: true }).click()
  await expectToast(asOwner, javaScriptEnabled, 'Task updated')
  await expect(assigneeIn(detail(modal(asOwner), 'Assignee'))).toHaveText(grace.name)

  await asOwner.goto('/task')
  await listReady(asOwner, javaScriptEnabled)
  await expect(assigneeIn(row(asOwner, text))).toHaveText(grace.name)

  const asGrace = await pageFor(grace)
  await asGrace.goto('/task')
  await listReady(asGrace, javaScriptEnabled)
  await expect(assigneeIn(row(asGrace, text))).toHaveText(grace.name)
  await asGrace.goto(`/task?task=${id}`)
  await modalReady(asGrace, javaScriptEnabled)
  await expect(assigneeIn(detail(modal(asGrace), 'Assignee'))).toHaveText(grace.name)
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(asGrace)
  await modal(asGrace).getByRole('button', { name: 'Hand back' }).click()
  await expectToast(asGrace, javaScriptEnabled, 'Task handed back')
  await expect(detail(modal(asGrace), 'Assignee')).toHaveCount(0)
  await expect(modal(asGrace).getByRole('button', { name: 'Hand back' })).toHaveCount(0)
})
