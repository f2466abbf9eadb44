import type { Page } from '@playwright/test'
import { expectNoSeriousA11yViolations, skipWithoutJavaScript } from './axe'
import { expect, test } from './fixtures'
import { waitForEmail } from './smtp-inbox'
import { expectTheme, THEMES } from './theme-cookie'
import { invited } from './workspace-steps'

/**
 * The people of a team workspace, with JavaScript on and off: its owner invites someone by
 * address, the invitee follows the e-mailed link and accepts, the owner makes them an admin and
 * then removes them; a visitor following the link is asked to sign in, and someone else is told
 * the invitation is not theirs. Then axe, light and dark, on a desktop and a phone.
 */

// Several people signed up with real scrypt on two shared cores, then axe.
test.describe.configure({ timeout: 150_000 })

test('invite, accept, make an admin, remove', async ({ newPerson, pageFor }, testInfo) => {
  const [olga, dan, eve] = await Promise.all([newPerson('Olga'), newPerson('Dan'), newPerson('Eve')])
  const owner = await pageFor(olga)
  const { name, slug, link } = await invited(owner, olga, dan, testInfo.project.name)

  const visitor = await pageFor('visitor')
  await visitor.goto(link)
  await expect(visitor.getByRole('main').getByRole('link', { name: 'Sign in' })).toHaveAttribute(
    'href',
    `/login?redirect=${encodeURIComponent(link)}`,
  )
  await expect(visitor.getByText(name)).toHaveCount(0)

  const stranger = await pageFor(eve)
  await stranger.goto(link)
  await expect(stranger.getByRole('heading', { name: 'Invitation not found' })).toBeVisible()
  await expect(stranger.getByText(name)).toHaveCount(0)

  const invitee = await pageFor(dan)
  await invitee.goto(link)
  await expect(invitee.getByRole('heading', { name: `Join ${name}` })).toBeVisible()
  await expect(invitee.getByTestId('invitation-facts')).toContainText('Invited by')
  await expect(invitee.getByTestId('invitation-facts')).toContainText(olga.name)
  await invitee.getByRole('button', { name: 'Accept' }).click()
  await expect(invitee).toHaveURL(new RegExp(`/workspaces/${slug}/members$`))
  await expect(invitee.getByTestId('member-row').filter({ hasText: dan.email })).toContainText('Member')
  // A member reads the list: nothing to change or remove.
  await expect(invitee.getByRole('button', { name: /^(Remove|Change role)/ })).toHaveCount(0)

  await owner.goto(`/workspaces/${slug}/members`)
  await expect(owner.getByText('No pending invitations.')).toBeVisible()
  const row = owner.getByTestId('member-row').filter({ hasText: dan.email })
  await row.getByRole('combobox', { name: `Role of ${dan.name}` }).selectOption('admin')
  await row.getByRole('button', { name: `Change role of ${dan.name}` }).click()
  await expect(
    owner
      .getByTestId('member-row')
      .filter({ hasText: dan.email })
      .getByRole('combobox', { name: `Role of ${dan.name}` }),
  ).toHaveValue('admin')
  await owner.getByRole('button', { name: `Remove ${dan.name}` }).click()
  await expect(owner.getByTestId('member-row').filter({ hasText: dan.email })).toHaveCount(0)

  await invitee.goto(`/workspaces/${slug}/members`)
  await expect(invitee.getByRole('heading', { name: 'Not Found' })).toBeVisible()
})

test('decline, and a revoked invitation', async ({ newPerson, pageFor }, testInfo) => {
  const [olga, dan] = await Promise.all([newPerson('Olga'), newPerson('Dan')])
  const owner = await pageFor(olga)
  const { link } = await invited(owner, olga, dan, testInfo.project.name)
  const invitee = await pageFor(dan)
  await invitee.goto(link)
  await invitee.getByRole('button', { name: 'Decline' }).click()
  await expect(invitee.getByText('You declined this invitation.')).toBeVisible()
  await expect(invitee.getByRole('button', { name: 'Accept' })).toHaveCount(0)

  const second = await invited(owner, olga, dan, testInfo.project.name)
  await owner.getByRole('button', { name: `Resend the invitation to ${dan.email}` }).click()
  await waitForEmail(dan.email, `${olga.name} invited you to ${second.name} on Threadwork`, 2)
  await owner.getByRole('button', { name: `Revoke the invitation to ${dan.email}` }).click()
  await expect(owner.getByText('No pending invitations.')).toBeVisible()
  await invitee.goto(second.link)
  await expect(invitee.getByText('This invitation was revoked.')).toBeVisible()
})

test.describe('axe', () => {
  skipWithoutJavaScript()

  for (const theme of THEMES) {
    test(`the members page and the invitation page, ${theme}, desktop and phone`, async ({
      newPerson,
      pageFor,
    }, testInfo) => {
      const [olga, dan] = await Promise.all([newPerson('Olga'), newPerson('Dan')])
      const owner = await pageFor(olga, { theme })
      const { slug, link } = await invited(owner, olga, dan, testInfo.project.name)
      const invitee = await pageFor(dan, { theme })
      const visitor = await pageFor('visitor', { theme })
      const pages: [Page, string][] = [
        [owner, `/workspaces/${slug}/members`],
        [invitee, link],
        [visitor, link],
      ]
      for (const viewport of [
        { width: 1280, height: 900 },
        { width: 390, height: 844 },
      ]) {
        for (const [page, path] of pages) {
          await page.setViewportSize(viewport)
          await page.goto(path)
          await expectTheme(page, theme)
          await expectNoSeriousA11yViolations(page, `${path} at ${viewport.width} px, ${theme}`)
          // Nothing of the page's own content wider than the screen (the header is its own tests').
          const overflowing = await page.evaluate(() =>
            [...document.querySelectorAll('main *')]
              .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
              .map((element) => element.outerHTML.slice(0, 80)),
          )
          expect(overflowing, `wider than ${viewport.width} px on ${path}`).toEqual([])
        }
      }
      // A refused invitation shows its message beside the form.
      await owner.getByLabel('E-mail address').fill(olga.email)
      await owner.getByRole('button', { name: 'Send invitation' }).click()
      await expect(owner.getByText(`${olga.email} is already a member.`)).toBeVisible()
      await expectNoSeriousA11yViolations(owner, 'the members page with a refused invitation')
    })
  }
})
