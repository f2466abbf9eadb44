import type { Browser, Page } from '@playwright/test'
import { browserFor, expect, type Person, test, verifiedPerson } from './fixtures'
import { createTaskThroughApi } from './rpc-calls'
import { detail, group, listReady, modal, modalReady, row } from './task-page'
import { uniqueTitle } from './unique'

/**
 * Three people and a visitor, each in a browser of their own, with JavaScript on and off: the
 * owner shares a task with a second person, who finds it under 'Shared with me' and may change
 * its status but nothing else; the owner publishes it, and a third person finds it under
 * 'Public', read-only, as does a visitor who is not signed in — until it is private again.
 */

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

async function open(browser: Browser, person: Person, baseURL: string, javaScriptEnabled: boolean) {
  return browserFor(browser, person, { baseURL, javaScriptEnabled })
}

test('share with a second person, who sees it under Shared with me and may change only its status', async ({
  browser,
  baseURL: base,
  javaScriptEnabled,
}, testInfo) => {
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const [owner, friend, stranger] = await Promise.all([
    verifiedPerson(baseURL, 'Ada', project),
    verifiedPerson(baseURL, 'Grace', project),
    verifiedPerson(baseURL, 'Mallory', project),
  ])
  const text = uniqueTitle('Prepare the board deck', project)
  const { id } = await createTaskThroughApi(owner, { text, priority: 'high' })

  // The owner shares it from the modal.
  const owners = await open(browser, owner, baseURL, javaScriptEnabled)
  await owners.page.goto(`/task?task=${id}`)
  await modalReady(owners.page, javaScriptEnabled)
  const ownersModal = modal(owners.page)
  await expect(detail(ownersModal, 'Shared with')).toHaveCount(0)
  await ownersModal.getByLabel('Share with (e-mail addresses)').fill(friend.email)
  await ownersModal.getByRole('button', { name: 'Save sharing' }).click()
  await expectToast(owners.page, javaScriptEnabled, 'Sharing updated')
  await expect(owners.page).toHaveURL(new RegExp(`/task\\?task=${id}$`))
  await expect(detail(ownersModal, 'Shared with')).toHaveText(friend.name)
  await expect(ownersModal.getByRole('list', { name: 'Shared with' })).toHaveText(friend.name)

  // The second person finds it under Shared with me, by its owner.
  const friends = await open(browser, friend, baseURL, javaScriptEnabled)
  await friends.page.goto('/task')
  await listReady(friends.page, javaScriptEnabled)
  const shared = row(group(friends.page, 'Shared with me'), text)
  await expect(shared).toContainText(`by ${owner.name}`)
  await expect(shared).toContainText('HIGH')
  await expect(row(group(friends.page, 'My tasks'), text)).toHaveCount(0)
  await expect(row(group(friends.page, 'Public'), text)).toHaveCount(0)

  // Opened, it reads the same, and its only control is the status.
  await shared.getByRole('link', { name: text, exact: true }).click()
  await modalReady(friends.page, javaScriptEnabled)
  const friendsModal = modal(friends.page)
  await expect(friendsModal.getByRole('heading', { name: text })).toBeVisible()
  await expect(detail(friendsModal, 'Created by')).toHaveText(owner.name)
  await expect(detail(friendsModal, 'Shared with')).toHaveText(friend.name)
  await expect(detail(friendsModal, 'Visibility')).toHaveText('Private')
  await expectNoOwnerTools(friends.page)
  await friendsModal.getByLabel('Status').selectOption('In Progress')
  await friendsModal.getByRole('button', { name: 'Update status' }).click()
  await expectToast(friends.page, javaScriptEnabled, 'Status updated')
  await expect(friendsModal.locator('[data-status]')).toHaveText('LFG')

  // Editing by hand-made URL shows the details, not the form.
  await friends.page.goto(`/task?task=${id}&view=edit`)
  await expect(modal(friends.page).getByRole('heading', { name: text })).toBeVisible()
  await expect(modal(friends.page).getByRole('button', { name: 'Save', exact: true })).toHaveCount(0)
  await friends.page.goto(`/task?task=${id}&view=delete`)
  await expect(modal(friends.page).getByRole('button', { name: 'Delete task' })).toHaveCount(0)

  // The owner sees the new status.
  await owners.page.reload()
  await expect(modal(owners.page).locator('[data-status]')).toHaveText('LFG')

  // Someone it was not shared with: no row anywhere, and the link says the task is not found.
  const strangers = await open(browser, stranger, baseURL, javaScriptEnabled)
  await strangers.page.goto('/task')
  await expect(row(strangers.page, text)).toHaveCount(0)
  await strangers.page.goto(`/task?task=${id}`)
  await expect(modal(strangers.page).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  await expect(strangers.page.getByText(text)).toHaveCount(0)

  // Unsharing takes it away again.
  await owners.page.goto(`/task?task=${id}`)
  await modalReady(owners.page, javaScriptEnabled)
  await modal(owners.page).getByLabel('Share with (e-mail addresses)').fill('')
  await modal(owners.page).getByRole('button', { name: 'Save sharing' }).click()
  await expect(detail(modal(owners.page), 'Shared with')).toHaveCount(0)
  await friends.page.goto('/task')
  await expect(row(friends.page, text)).toHaveCount(0)
  await expect(group(friends.page, 'Shared with me')).toContainText('Nothing has been shared with you yet.')

  await Promise.all([owners.context.close(), friends.context.close(), strangers.context.close()])
})

test('publish: a third person sees it under Public, read-only; a visitor reads it from a link on any page', async ({
  browser,
  baseURL: base,
  javaScriptEnabled,
}, testInfo) => {
  const baseURL = base ?? ''
  const project = testInfo.project.name
  const [owner, third] = await Promise.all([
    verifiedPerson(baseURL, 'Lin', project),
    verifiedPerson(baseURL, 'Tess', project),
  ])
  const text = uniqueTitle('Publish the roadmap', project)
  const { id } = await createTaskThroughApi(owner, { text, details: 'Quarter by quarter.' })

  // Not public yet: the third person does not see it, nor does a visitor.
  const thirds = await open(browser, third, baseURL, javaScriptEnabled)
  await thirds.page.goto('/task')
  await expect(row(thirds.page, text)).toHaveCount(0)
  const visitors = await browser.newContext({ baseURL, javaScriptEnabled })
  const visitor = await visitors.newPage()
  await visitor.goto(`/?task=${id}`)
  await expect(modal(visitor).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  await expect(modal(visitor)).toContainText('The task does not exist, or you do not have access to it.')

  // The owner makes it public from the modal.
  const owners = await open(browser, owner, baseURL, javaScriptEnabled)
  await owners.page.goto(`/task?task=${id}`)
  await modalReady(owners.page, javaScriptEnabled)
  const ownersModal = modal(owners.page)
  await expect(detail(ownersModal, 'Visibility')).toHaveText('Private')
  await ownersModal.getByRole('button', { name: 'Make public' }).click()
  await expectToast(owners.page, javaScriptEnabled, 'Visibility updated')
  await expect(detail(ownersModal, 'Visibility')).toHaveText('Public')
  await expect(ownersModal.getByRole('button', { name: 'Make private' })).toBeVisible()
  await owners.page.goto('/task')
  await expect(row(group(owners.page, 'My tasks'), text)).toContainText('Public')

  // The third person finds it under Public and can read it, but change nothing.
  await thirds.page.goto('/task')
  await listReady(thirds.page, javaScriptEnabled)
  const published = row(group(thirds.page, 'Public'), text)
  await expect(published).toContainText(`by ${owner.name}`)
  await expect(row(group(thirds.page, 'Shared with me'), text)).toHaveCount(0)
  await published.getByRole('link', { name: text, exact: true }).click()
  await modalReady(thirds.page, javaScriptEnabled)
  const thirdsModal = modal(thirds.page)
  await expect(thirdsModal.getByRole('heading', { name: text })).toBeVisible()
  await expect(detail(thirdsModal, 'Visibility')).toHaveText('Public')
  await expect(detail(thirdsModal, 'Created by')).toHaveText(owner.name)
  await expect(thirdsModal.getByText('Quarter by quarter.', { exact: true })).toBeVisible()
  await expectNoOwnerTools(thirds.page)
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
  await owners.page.goto(`/task?task=${id}`)
  await modalReady(owners.page, javaScriptEnabled)
  await modal(owners.page).getByRole('button', { name: 'Make private' }).click()
  await expect(detail(modal(owners.page), 'Visibility')).toHaveText('Private')
  await visitor.goto(`/?task=${id}`)
  await expect(modal(visitor).getByRole('heading', { name: 'Task not found' })).toBeVisible()
  await expect(visitor.getByText(text)).toHaveCount(0)
  await thirds.page.goto('/task')
  await expect(row(thirds.page, text)).toHaveCount(0)

  await Promise.all([owners.context.close(), thirds.context.close(), visitors.close()])
})
