import type { Page } from '@playwright/test'
import { expect, test } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'
import { detail, group, listReady, modal, modalReady, row } from './task-page'
import { uniqueTitle } from './unique'

/**
 * Three people and a visitor, each in a browser of their own, with JavaScript on and off: the
 * owner shares a task with a second person, who finds it under 'Shared with me' and may change
 * its status but nothing else; the owner publishes it, and a third person finds it under
 * 'Public', read-only, as does a visitor who is not signed in — until it is private again.
 */

// Each journey signs up two or three people (a real scrypt hash each) and drives as many browsers
// through a dozen pages: on two busy shared cores that takes longer than the default 45 s.
test.describe.configure({ timeout: 120_000 })

async function expectToast(page: Page, javaScriptEnabled: boolean, title: string) {
  if (javaScriptEnabled) await expect(page.getByText(title, { exact: true })).toBeVisible()
}

/** The modal offers none of the owner's tools. */
async function expectNoOwnerTools(page: Page) {
  const dialog = modal(page)
  await expect(dialog.getByRole('link', { name: 'Edit', exact: true })).toHaveCount(0)
  await expect(dialog.getByRole('link', { name: 'Delete', exact: true })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: /^Make (public|private)$/ })).toHaveCount(0)
  await expect(dialog.getByRole('button', { name: 'Save sharing' })).toHaveCount(0)
  await expect(dialog.getByLabel('Share with (e-mail addresses)')).toHaveCount(0)
}

test('share with a second person, who sees it under Shared with me and may change only its status', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const [owner, friend, stranger] = await Promise.all([
    newPerson('Ada'),
    newPerson('Grace'),
    newPerson('Mallory'),
  ])
  const text = uniqueTitle('Prepare the board deck', project)
  const { id } = await createTaskThroughApi(owner, { text, priority: 'high' })

  // The owner shares it from the modal.
  const asOwner = await pageFor(owner)
  await asOwner.goto(`/task?task=${id}`)
  await modalReady(asOwner, javaScriptEnabled)
  const ownersModal = modal(asOwner)
  await expect(detail(ownersModal, 'Shared with')).toHaveCount(0)
  await ownersModal.getByLabel('Share with (e-mail addresses)').fill(friend.email)
  await ownersModal.getByRole('button', { name: 'Save sharing' }).click()
  await expectToast(asOwner, javaScriptEnabled, 'Sharing updated')
  await expect(asOwner).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await expect(detail(ownersModal, 'Shared with')).toHaveText(friend.name)
  await expect(ownersModal.getByRole('list', { name: 'Shared with' })).toHaveText(friend.name)

  // The second person finds it under Shared with me, by its owner.
  const asFriend = await pageFor(friend)
  await asFriend.goto('/task')
  await listReady(asFriend, javaScriptEnabled)
  const shared = row(group(asFriend, 'Shared with me'), text)
  await expect(shared).toContainText(`by ${owner.name}`)
  await expect(shared).toContainText('HIGH')
  await expect(row(group(asFriend, 'My tasks'), text)).toHaveCount(0)
  await expect(row(group(asFriend, 'Public'), text)).toHaveCount(0)

  // Opened, it reads the same, and its only control is the status.
  await shared.getByRole('link', { name: text, exact: true }).click()
  await modalReady(asFriend, javaScriptEnabled)
  const friendsModal = modal(asFriend)
  await expect(friendsModal.getByRole('heading', { name: text })).toBeVisible()
  await expect(detail(friendsModal, 'Created by')).toHaveText(owner.name)
  await expect(detail(friendsModal, 'Shared with')).toHaveText(friend.name)
  await expect(detail(friendsModal, 'Visibility')).toHaveText('Private')
  await expectNoOwnerTools(asFriend)
  await friendsModal.getByLabel('Status').selectOption('In Progress')
  await friendsModal.getByRole('button', { name: 'Update status' }).click()
  await expectToast(asFriend, javaScriptEnabled, 'Status updated')
  await expect(friendsModal.locator('[data-status]')).toHaveText('LFG')

  // Editing by hand-made URL shows the details, not the form.
  await asFriend.goto(`/task?task=${id}&view=edit`)
  await expect(modal(asFriend).getByRole('heading', { name: text })).toBeVisible()
  await expect(modal(asFriend).getByRole('button', { name: 'Save', exact: true })).toHaveCount(0)
  await asFriend.goto(`/task?task=${id}&view=delete`)
  await expect(modal(asFriend).getByRole('button', { name: 'Delete task' })).toHaveCount(0)

  // The owner sees the new status.
  await asOwner.reload()
  await expect(modal(asOwner).locator('[data-status]')).toHaveText('LFG')

  // Someone it was not shared with: no row anywhere, and the link says the task is not found.
  const asStranger = await pageFor(stranger)
  await asStranger.goto('/task')
  await expect(row(asStranger, text)).toHaveCount(0)
  await asStranger.goto(`/task?task=${id}`)
  await expect(modal(asStranger).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  await expect(asStranger.getByText(text)).toHaveCount(0)

  // Unsharing takes it away again.
  await asOwner.goto(`/task?task=${id}`)
  await modalReady(asOwner, javaScriptEnabled)
  await modal(asOwner).getByLabel('Share with (e-mail addresses)').fill('')
  await modal(asOwner).getByRole('button', { name: 'Save sharing' }).click()
  await expect(detail(modal(asOwner), 'Shared with')).toHaveCount(0)
  await asFriend.goto('/task')
  await expect(row(asFriend, text)).toHaveCount(0)
  await expect(group(asFriend, 'Shared with me')).toContainText('Nothing has been shared with you yet.')
})

test('publish: a third person sees it under Public, read-only; a visitor reads it from a link on any page', async ({
  newPerson,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  const project = testInfo.project.name
  const [owner, third] = await Promise.all([newPerson('Lin'), newPerson('Tess')])
  const text = uniqueTitle('Publish the roadmap', project)
  const { id } = await createTaskThroughApi(owner, { text, details: 'Quarter by quarter.' })

  // Not public yet: the third person does not see it, nor does a visitor.
  const asThird = await pageFor(third)
  await asThird.goto('/task')
  await expect(row(asThird, text)).toHaveCount(0)
  const visitor = await pageFor('visitor')
  await visitor.goto(`/?task=${id}`)
  await expect(modal(visitor).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  await expect(modal(visitor)).toContainText('The task does not exist, or you do not have access to it.')

  // The owner makes it public from the modal.
  const asOwner = await pageFor(owner)
  await asOwner.goto(`/task?task=${id}`)
  await modalReady(asOwner, javaScriptEnabled)
  const ownersModal = modal(asOwner)
  await expect(detail(ownersModal, 'Visibility')).toHaveText('Private')
  await ownersModal.getByRole('button', { name: 'Make public' }).click()
  await expectToast(asOwner, javaScriptEnabled, 'Visibility updated')
  await expect(detail(ownersModal, 'Visibility')).toHaveText('Public')
  await expect(ownersModal.getByRole('button', { name: 'Make private' })).toBeVisible()
  await asOwner.goto('/task')
  await expect(row(group(asOwner, 'My tasks'), text)).toContainText('Public')

  // The third person finds it under Public and can read it, but change nothing.
  await asThird.goto('/task')
  await listReady(asThird, javaScriptEnabled)
  const published = row(group(asThird, 'Public'), text)
  await expect(published).toContainText(`by ${owner.name}`)
  await expect(row(group(asThird, 'Shared with me'), text)).toHaveCount(0)
  await published.getByRole('link', { name: text, exact: true }).click()
  await modalReady(asThird, javaScriptEnabled)
  const thirdsModal = modal(asThird)
  await expect(thirdsModal.getByRole('heading', { name: text })).toBeVisible()
  await expect(detail(thirdsModal, 'Visibility')).toHaveText('Public')
  await expect(detail(thirdsModal, 'Created by')).toHaveText(owner.name)
  await expect(thirdsModal.getByText('Quarter by quarter.', { exact: true })).toBeVisible()
  await expectNoOwnerTools(asThird)
  await expect(thirdsModal.getByRole('button', { name: 'Update status' })).toHaveCount(0)

  // A visitor who is not signed in opens its link on the home page.
  await visitor.goto(`/?task=${id}`)
  await modalReady(visitor, javaScriptEnabled)
  await expect(modal(visitor).getByRole('heading', { name: text })).toBeVisible()
  await expect(detail(modal(visitor), 'Visibility')).toHaveText('Public')
  await expect(detail(modal(visitor), 'Created by')).toHaveText(owner.name)
  await expectNoOwnerTools(visitor)
  await expect(modal(visitor).getByRole('button', { name: 'Update status' })).toHaveCount(0)
  await modal(visitor).getByRole('link', { name: 'Close' }).click()
  await expect(visitor).toHaveURL(/\/$/)
  await expect(modal(visitor)).toHaveCount(0)

  // Private again: gone for both.
  await asOwner.goto(`/task?task=${id}`)
  await modalReady(asOwner, javaScriptEnabled)
  await modal(asOwner).getByRole('button', { name: 'Make private' }).click()
  await expect(detail(modal(asOwner), 'Visibility')).toHaveText('Private')
  await visitor.goto(`/?task=${id}`)
  await expect(modal(visitor).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  await expect(visitor.getByText(text)).toHaveCount(0)
  await asThird.goto('/task')
  await expect(row(asThird, text)).toHaveCount(0)
})
