import { expectNoSeriousA11yViolations, skipWithoutJavaScript } from './axe'
import { expect, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'
import { listReady, modal, modalReady } from './task-page'
import { THEMES } from './theme-cookie'
import { uniqueTitle } from './unique'

/**
 * The /task page and the task modal in each of its views, light and dark, without a serious or
 * critical axe violation. The page is full: a task of each priority and status, one with a
 * subtask, one shared with the viewer and another's public task, so every badge and group is
 * checked with content rather than empty.
 */

test.describe('tasks: no serious or critical accessibility violations', () => {
  skipWithoutJavaScript()
  // Five people and tasks made, then seven pages analysed in full, on two shared cores.
  test.describe.configure({ timeout: 120_000 })

  for (const theme of THEMES) {
    test(`/task and the task modal, ${theme} theme`, async ({ newPerson, pageFor }, testInfo) => {
      const project = `${testInfo.project.name}-${theme}`
      const [owner, colleague] = await Promise.all([newPerson('Ally'), newPerson('Bea')])
      const parent = uniqueTitle('Audit the forms', project)
      const { id } = await createTaskThroughApi(owner, {
        text: parent,
        details: 'Labels, errors and focus order.',
        refLink: 'https://example.com/audit',
        priority: 'high',
        hrs: 3,
        sharedWith: [colleague.email],
      })
      await createTaskThroughApi(owner, { text: uniqueTitle('Check contrast', project), parentTaskId: id })
      await createTaskThroughApi(owner, {
        text: uniqueTitle('Review headings', project),
        priority: 'medium',
        status: 'In Progress',
      })
      await createTaskThroughApi(owner, {
        text: uniqueTitle('Ship the fixes', project),
        priority: 'low',
        status: 'Completed',
        isPublic: true,
      })
      await createTaskThroughApi(colleague, {
        text: uniqueTitle('Pair on the audit', project),
        sharedWith: [owner.email],
      })

      const page = await pageFor(owner, { theme })
      await page.goto('/task')
      await expect(page.locator('html')).toHaveClass(new RegExp(`\\b${theme}\\b`))
      await listReady(page, true)
      await expectNoSeriousA11yViolations(page, '/task')

      // The create form showing its errors.
      await page
        .getByRole('region', { name: 'New task' })
        .getByRole('button', { name: 'Create task' })
        .click()
      await expect(page.getByText('Title is required', { exact: true })).toBeVisible()
      await expectNoSeriousA11yViolations(page, '/task with errors')

      for (const view of ['', '&view=edit', '&view=delete']) {
        await page.goto(`/task?task=${id}${view}`)
        await modalReady(page, true)
        await expect(modal(page)).toBeVisible()
        await expectNoSeriousA11yViolations(page, `the modal${view}`)
      }
      await page.goto('/task?task=no-such-task')
      await modalReady(page, true)
      await expectNoSeriousA11yViolations(page, 'the modal, task not found')
    })
  }
})
