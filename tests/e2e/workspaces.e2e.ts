import { seriousA11yViolations } from './axe'
import { expect, test } from './fixtures'
import { THEMES } from './theme-cookie'

/**
 * Workspaces in a browser, with JavaScript on and off: creating one at /workspaces, a refused
 * address shown at its field, renaming it in its settings, and deleting it by typing its name.
 * With JavaScript on, axe checks both pages in light and dark, on a desktop and a phone.
 */

const PHONE = { width: 390, height: 844 }

// axe eight times (two pages, two themes, two screens) on two shared cores.
test.describe.configure({ timeout: 90_000 })

test('create, rename and delete a team workspace', async ({ signedInPage: page }, testInfo) => {
  const unique = `${testInfo.project.name}-${Date.now().toString(36)}`
  const address = `crew-${unique}`
  await page.goto('/workspaces')
  await expect(page.getByRole('heading', { name: 'Workspaces', level: 1 })).toBeVisible()
  await expect(page.getByText('You are not in a team yet.')).toBeVisible()

  const create = page.getByRole('region', { name: 'Create a workspace' })
  await create.getByLabel('Name').fill('Crew')
  await create.getByLabel('Address').fill('Not A Slug')
  await create.getByRole('button', { name: 'Create workspace' }).click()
  await expect(create.getByText('Address may hold only lower-case letters, digits and hyphens')).toBeVisible()

  await create.getByLabel('Address').fill(address)
  await create.getByRole('button', { name: 'Create workspace' }).click()
  await expect(page.getByRole('link', { name: 'Settings of Crew' })).toBeVisible()
  await expect(page.getByText('You are not in a team yet.')).toHaveCount(0)

  await page.getByRole('link', { name: 'Settings of Crew' }).click()
  await expect(page).toHaveURL(new RegExp(`/workspaces/${address}/settings$`))
  const rename = page.getByRole('region', { name: 'Name and address' })
  await rename.getByLabel('Name').fill('Crew Two')
  await rename.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('heading', { name: 'Crew Two', level: 1 })).toBeVisible()
  await expect(page.getByText('There is no admin to hand it to yet.')).toBeVisible()

  const remove = page.getByRole('region', { name: 'Delete workspace' })
  await remove.getByLabel('Type "Crew Two" to confirm').fill('Crew')
  await remove.getByRole('button', { name: 'Delete workspace' }).click()
  await expect(remove.getByText("Type the workspace's name to delete it.")).toBeVisible()
  await remove.getByLabel('Type "Crew Two" to confirm').fill('Crew Two')
  await remove.getByRole('button', { name: 'Delete workspace' }).click()
  await expect(page).toHaveURL(/\/workspaces$/)
  await expect(page.getByRole('link', { name: 'Settings of Crew Two' })).toHaveCount(0)

  const gone = await page.goto(`/workspaces/${address}/settings`)
  expect(gone?.status()).toBe(404)
})

test('axe finds nothing serious on either page, light and dark, desktop and phone', async ({
  person,
  pageFor,
  javaScriptEnabled,
}, testInfo) => {
  test.skip(!javaScriptEnabled, 'axe needs to run a script in the page')
  const found: Record<string, unknown> = {}
  for (const theme of THEMES) {
    const page = await pageFor(person, { theme })
    await page.goto('/workspaces')
    const address = `axe-${theme}-${testInfo.project.name}-${Date.now().toString(36)}`
    const create = page.getByRole('region', { name: 'Create a workspace' })
    await create.getByLabel('Name').fill(`Axe ${theme}`)
    await create.getByLabel('Address').fill(address)
    await create.getByRole('button', { name: 'Create workspace' }).click()
    await expect(page.getByRole('link', { name: `Settings of Axe ${theme}` })).toBeVisible()
    for (const [path, viewport] of [
      ['/workspaces', null],
      [`/workspaces/${address}/settings`, null],
      ['/workspaces', PHONE],
      [`/workspaces/${address}/settings`, PHONE],
    ] as const) {
      if (viewport) await page.setViewportSize(viewport)
      await page.goto(path)
      const serious = await seriousA11yViolations(page)
      if (serious.length > 0) found[`${path} ${theme}${viewport ? ' phone' : ''}`] = serious
    }
  }
  expect(found).toEqual({})
})
