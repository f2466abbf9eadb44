import { expectNoSeriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { group, listReady, modal, row } from './task-page'
import { expectTheme, setThemeCookie, THEMES } from './theme-cookie'
import { uniqueTitle } from './unique'
import { invited, switchTo, teamGroup } from './workspace-steps'

/**
 * A team's tasks as a member sees them, with JavaScript on and off: invited by e-mail, they accept,
 * work in the team from the header's switcher and see the task its owner wrote there. Removed,
 * the task leaves the list they have open — at once with JavaScript, as the page's task stream
 * tells it; on the next page without — and its link answers as an unknown task's. With
 * JavaScript, axe checks the member's list of the team in light and dark.
 */

// Two people signed up with real scrypt on two shared cores, and axe twice.
test.describe.configure({ timeout: 120_000 })

test('invited, a member sees the team’s tasks; removed, they leave the open page at once', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
  baseURL,
}, testInfo) => {
  const [olga, dan] = await Promise.all([newPerson('Olga'), newPerson('Dan')])
  const owner = await pageFor(olga)
  const { name, slug, link } = await invited(owner, olga, dan, testInfo.project.name)

  // Olga works in the team and writes its first task there.
  await owner.goto('/task')
  await switchTo(owner, name)
  await listReady(owner, javaScriptEnabled)
  const text = uniqueTitle('Plan the offsite', testInfo.project.name)
  const form = owner.getByRole('region', { name: 'New task' })
  await form.getByLabel('Title').fill(text)
  await form.getByRole('button', { name: 'Create task' }).click()
  await expect(row(teamGroup(owner, name), text)).toBeVisible()

  const member = await pageFor(dan)
  await member.goto(link)
  await member.getByRole('button', { name: 'Accept' }).click()
  await expect(member).toHaveURL(new RegExp(`/workspaces/${slug}/members$`))
  await member.goto('/task')
  // Joining does not move them: their own list stays theirs until they switch.
  await expect(member.getByRole('link', { name: text, exact: true })).toHaveCount(0)
  await switchTo(member, name)
  const theirs = row(teamGroup(member, name), text)
  await expect(theirs).toBeVisible()
  const href = await theirs.getByRole('link', { name: text, exact: true }).getAttribute('href')

  if (javaScriptEnabled) {
    for (const theme of THEMES) {
      await setThemeCookie(member.context(), baseURL ?? '', theme)
      await member.reload()
      await expectTheme(member, theme)
      await expectNoSeriousA11yViolations(member, `a member's list of the team, ${theme}`)
    }
  }
  await listReady(member, javaScriptEnabled)

  await owner.goto(`/workspaces/${slug}/members`)
  await owner.getByRole('button', { name: `Remove ${dan.name}` }).click()
  await expect(owner.getByTestId('member-row').filter({ hasText: dan.email })).toHaveCount(0)

  // Without JavaScript a page changes only when it loads again.
  if (!javaScriptEnabled) await member.reload()
  await expect(member.getByRole('link', { name: text, exact: true })).toHaveCount(0)
  // Their session works in their own workspace again.
  await expect(group(member, 'My tasks')).toBeVisible()
  await expect(member.getByRole('button', { name: `${name}: switch workspace` })).toHaveCount(0)

  await member.goto(href ?? '')
  await expect(modal(member).getByRole('heading', { name: 'Task not found' })).toBeVisible()
})
