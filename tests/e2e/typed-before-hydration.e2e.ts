import type { Locator, Page } from '@playwright/test'
import { afterNextFrame, gotoBeforeScripts } from './before-scripts'
import { expect, type Person, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi } from './rpc-calls'
import { modal } from './task-page'
import { uniqueAddress, uniqueTitle } from './unique'

/**
 * Nothing a person typed into the server's HTML before the scripts arrived is lost when the page
 * hydrates: not in a field that already holds saved text (React sets a <textarea> back to it),
 * not in a field whose text is React state (its next render would put the server's value back).
 * Each case types, lets the scripts load, waits until the field is React's, and then types more:
 * the field must hold both, in the order typed.
 */

test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, 'Hydration needs JavaScript')
// A page held, loaded and hydrated in turn takes a while on a busy machine.
test.slow()

type Case = {
  name: string
  /** The page to open, made ready for `person`. */
  open: (person: Person, project: string) => Promise<string>
  field: (page: Page) => Locator
  /** What the field holds in the server's HTML. */
  saved: string
}

const cases: Case[] = [
  {
    name: 'the task modal’s share field, holding the saved list',
    open: async (person, project) => {
      const { id } = await createTaskThroughApi(person, {
        text: uniqueTitle('Share the plan', project),
        sharedWith: [uniqueAddress('grace', project)],
      })
      return `/task?task=${id}`
    },
    field: (page) => modal(page).getByLabel('Share with (e-mail addresses)'),
    saved: 'grace',
  },
  {
    name: 'a task’s details in the edit view, holding the saved details',
    open: async (person, project) => {
      const { id } = await createTaskThroughApi(person, {
        text: uniqueTitle('Plan the retreat', project),
        details: 'Cabins by the lake',
      })
      return `/task?task=${id}&view=edit`
    },
    field: (page) => modal(page).getByLabel('Details'),
    saved: 'Cabins by the lake',
  },
  {
    name: 'a comment’s edit box, whose saved text is React state',
    open: async (person, project) => {
      const { id } = await createTaskThroughApi(person, { text: uniqueTitle('Book the venue', project) })
      const comment = await addCommentThroughApi(person, { taskId: id, content: 'The barn is free' })
      return `/task?task=${id}&view=edit-comment&comment=${comment.id}`
    },
    field: (page) => modal(page).getByRole('textbox', { name: 'Edit comment' }),
    saved: 'The barn is free',
  },
  {
    name: 'the settings page’s name field',
    open: async () => '/settings',
    field: (page) => page.getByLabel('Name', { exact: true }),
    saved: 'Ada',
  },
  {
    name: 'the chat composer, whose text is React state',
    open: async () => '/chat',
    field: (page) => page.getByLabel('Message', { exact: true }),
    saved: '',
  },
  {
    name: 'the support form’s message',
    open: async () => '/support',
    field: (page) => page.getByLabel('Message', { exact: true }),
    saved: '',
  },
  {
    name: 'the docs search',
    open: async () => '/docs',
    field: (page) => page.getByRole('searchbox', { name: 'Search the docs' }),
    saved: '',
  },
]

/** Until React has taken the element over (it marks the nodes it hydrated). */
async function waitUntilHydrated(field: Locator) {
  await expect
    .poll(
      () => field.evaluate((element) => Object.keys(element).some((key) => key.startsWith('__reactFiber$'))),
      { timeout: 30_000 },
    )
    .toBe(true)
  await afterNextFrame(field.page())
}

for (const { name, open, field, saved } of cases) {
  test(`${name}: text typed before hydration stays, and typing goes on after it`, async ({
    person,
    signedInPage: page,
  }, testInfo) => {
    const url = await open(person, testInfo.project.name)
    const release = await gotoBeforeScripts(page, url)
    const box = field(page)
    await expect(box).toHaveValue(saved === '' ? '' : new RegExp(saved))
    const before = await box.inputValue()
    await box.click()
    await page.keyboard.press('ControlOrMeta+End')
    await page.keyboard.type(' typed early')
    await expect(box).toHaveValue(`${before} typed early`)
    release()

    await waitUntilHydrated(box)
    await expect(box).toHaveValue(`${before} typed early`)
    await expect(box).toBeFocused()
    // The field's text is what React holds now: a render after more typing keeps all of it.
    await page.keyboard.type(' and late')
    await afterNextFrame(page)
    await expect(box).toHaveValue(`${before} typed early and late`)
  })
}
