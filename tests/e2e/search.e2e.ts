import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi } from './rpc-calls'
import { modal, modalReady } from './task-page'
import { uniqueTitle } from './unique'

/**
 * Search, with JavaScript on and off: a person types a word into the header's search field, gets
 * their task and a comment on it with the word marked, never another person's private task that
 * holds it too, and opens each result: the task's modal over the results, at the comment.
 */

// Signs two people up with real scrypt, on two cores shared with the other workers.
test.describe.configure({ timeout: 90_000 })

test('search from the header, see marked results, open the task and the comment', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const [ada, eve] = await Promise.all([newPerson('Ada'), newPerson('Eve')])
  // A word nobody else's test writes: letters and digits only, as search reads words.
  const word = `zeppelin${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
  const title = uniqueTitle(`Inspect the ${word}`, project)
  const { id: taskId } = await createTaskThroughApi(ada, {
    text: title,
    details: `Check the ${word} hangar doors`,
  })
  const { id: commentId } = await addCommentThroughApi(ada, { taskId, content: `The ${word} lands at noon` })
  await createTaskThroughApi(eve, { text: uniqueTitle(`Eve's secret ${word}`, project) })

  const page = await pageFor(ada)
  await page.goto('/task')
  const field = page
    .getByRole('search', { name: 'Site' })
    .getByRole('searchbox', { name: 'Search tasks and comments' })
  await field.fill(word.slice(0, 10))
  await field.press('Enter')

  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word.slice(0, 10)}$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search')
  const tasks = page.getByRole('region', { name: 'Tasks (1)' })
  const comments = page.getByRole('region', { name: 'Comments (1)' })
  await expect(tasks.getByRole('link', { name: title })).toBeVisible()
  await expect(tasks.locator('mark').first()).toHaveText(word)
  await expect(comments.getByRole('link')).toHaveText(`The ${word} lands at noon`)
  await expect(page.getByText("Eve's secret")).toHaveCount(0)
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page)

  await tasks.getByRole('link', { name: title }).click()
  await expect(page).toHaveURL(new RegExp(`task=${taskId}$`))
  await modalReady(page, javaScriptEnabled)
  await expect(modal(page).getByRole('heading', { level: 2 })).toHaveText(title)
  await modal(page).getByRole('link', { name: 'Close' }).click()
  await expect(page).toHaveURL(new RegExp(`/search\\?q=${word.slice(0, 10)}$`))

  await comments.getByRole('link').click()
  await expect(page).toHaveURL(new RegExp(`task=${taskId}#comment-${commentId}$`))
  await modalReady(page, javaScriptEnabled)
  await expect(page.locator(`#comment-${commentId}`)).toContainText(`The ${word} lands at noon`)
})

test('an empty search says what to do, and a search that finds nothing says so', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}) => {
  const page = await pageFor(await newPerson('Ada'))
  await page.goto('/search')
  await expect(
    page.getByRole('status').filter({ hasText: 'Type a word or two to search your tasks and comments.' }),
  ).toBeVisible()
  const field = page.getByRole('search', { name: 'Tasks and comments' }).getByRole('searchbox')
  await field.fill('"unbalanced NEAR(')
  await page.getByRole('button', { name: 'Search', exact: true }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Nothing you can see matches' })).toBeVisible()
  if (javaScriptEnabled) await expectNoSeriousA11yViolations(page)
})
