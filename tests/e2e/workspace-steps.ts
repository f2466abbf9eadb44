import type { Page } from '@playwright/test'
import { linkIn } from '../fixtures/smtp-server'
import { expect, type Person } from './fixtures'
import { waitForEmail } from './smtp-inbox'
import { uniqueTitle } from './unique'

/**
 * A team workspace's steps as its people take them in a browser, with or without JavaScript:
 * creating one, inviting someone to it, working in it from the header's switcher.
 */

/** A team workspace `page`'s person creates at /workspaces; answers its address. */
async function teamOf(page: Page, name: string) {
  const slug = `team-${crypto.randomUUID().slice(0, 8)}`
  await page.goto('/workspaces')
  const create = page.getByRole('region', { name: 'Create a workspace' })
  await create.getByLabel('Name').fill(name)
  await create.getByLabel('Address').fill(slug)
  await create.getByRole('button', { name: 'Create workspace' }).click()
  await expect(page.getByRole('link', { name: `Settings of ${name}` })).toBeVisible()
  return slug
}

/** Olga's team, and the link of the invitation she sent Dan from its members page. */
export async function invited(page: Page, owner: Person, invitee: Person, project: string) {
  const name = uniqueTitle('Acme', project)
  const slug = await teamOf(page, name)
  await page.goto(`/workspaces/${slug}/members`)
  await expect(page.getByRole('heading', { name: `People of ${name}` })).toBeVisible()
  await expect(page.getByText('No pending invitations.')).toBeVisible()
  await page.getByLabel('E-mail address').fill(invitee.email)
  await page.getByLabel('Role', { exact: true }).selectOption('member')
  await page.getByRole('button', { name: 'Send invitation' }).click()
  await expect(page.getByTestId('invitation-row').filter({ hasText: invitee.email })).toContainText(
    `Invited by ${owner.name}`,
  )
  // Sent: the form is empty again for the next one.
  await expect(page.getByLabel('E-mail address')).toHaveValue('')
  const mail = await waitForEmail(invitee.email, `${owner.name} invited you to ${name} on Threadwork`)
  expect(mail.text).toContain('The invitation expires in 7 days.')
  return { name, slug, link: linkIn(mail, '/invitations/').pathname }
}

/** Works in the workspace named `name` from the header's switcher; comes back to the same page. */
export async function switchTo(page: Page, name: string) {
  const here = new URL(page.url()).pathname
  await page.getByRole('button', { name: /: switch workspace$/ }).click()
  await page.getByLabel('Work in').selectOption({ label: name })
  await page.getByRole('button', { name: 'Switch workspace', exact: true }).click()
  await expect(page.getByRole('button', { name: `${name}: switch workspace` })).toBeVisible()
  await expect(page).toHaveURL(new RegExp(`${here}$`))
}

/** The /task page's first group while working in the team workspace `name`. */
export function teamGroup(page: Page, name: string) {
  return page.getByRole('region', { name: new RegExp(`^${name} tasks \\(\\d+\\)$`) })
}
