import type { Page } from '@playwright/test'
import { seriousA11yViolations, skipWithoutJavaScript } from './axe'
import { expect, type NewPerson, type Person, test } from './fixtures'
import { addCommentThroughApi, createTaskThroughApi } from './rpc-calls'
import { sitemapPaths } from './sitemap'
import { modalReady } from './task-page'
import { expectTheme, setThemeCookie, THEMES, type Theme } from './theme-cookie'
import { uniqueTitle } from './unique'

/**
 * axe on every page and state of the app, light and dark: every page the sitemap lists, the
 * public pages it leaves out, forms showing their errors, and what a signed-in person opens (the
 * task modal with a discussion, its edit, reply and delete views, the account menu, the mobile
 * drawer, the due and assignee badges, two-factor setup, the developer page and a webhook
 * endpoint's deliveries). A serious or critical finding anywhere fails. Each test gathers the findings of all its
 * pages before failing, so one run names every page that needs work.
 */

/** Public pages the sitemap leaves out (not for search engines), and states addressed by a URL. */
const PUBLIC_PAGES_OUTSIDE_THE_SITEMAP = [
  '/login',
  '/signup',
  '/email/forgot-password',
  '/email/request-verification',
  '/email/reset-password?token=not-a-token',
  '/email/verify-email?token=not-a-token',
  '/tss',
  '/no-such-page',
  '/docs?q=volume',
  '/pricing?billing=lifetime',
]

/** The sitemap's pages are checked in this many tests, every third page each. */
const SITEMAP_PARTS = 3

const MOBILE = { width: 390, height: 844 }
const DESKTOP = { width: 1280, height: 720 }

test.describe('axe: no serious or critical finding on any page, in any state', () => {
  skipWithoutJavaScript()
  // Dozens of pages per test, each analysed in full, on two shared cores.
  test.describe.configure({ timeout: 300_000 })

  for (const theme of THEMES) {
    // In parts, so the workers share them and each stays well inside its time on two busy cores.
    for (let part = 0; part < SITEMAP_PARTS; part++) {
      test(`every page the sitemap lists, part ${part + 1} of ${SITEMAP_PARTS}, ${theme} theme`, async ({
        page,
        context,
        baseURL,
        request,
      }) => {
        await setThemeCookie(context, baseURL ?? '', theme)
        const paths = await sitemapPaths(request)
        expect(paths.length).toBeGreaterThan(20)

        const findings = new Findings(page, theme)
        for (const path of paths.filter((_, index) => index % SITEMAP_PARTS === part)) {
          await page.goto(path)
          await findings.check(path)
        }
        findings.expectNone()
      })
    }

    test(`the public pages outside the sitemap, forms showing errors, the drawer, ${theme} theme`, async ({
      page,
      context,
      baseURL,
    }) => {
      await setThemeCookie(context, baseURL ?? '', theme)
      const findings = new Findings(page, theme)
      for (const path of PUBLIC_PAGES_OUTSIDE_THE_SITEMAP) {
        await page.goto(path)
        await findings.check(path)
      }

      // Forms showing their errors: submitted empty, validated in the browser.
      for (const [path, submit] of [
        ['/login', 'Sign in'],
        ['/signup', 'Create account'],
      ] as const) {
        await page.goto(path)
        await page.waitForLoadState('networkidle')
        await page.getByRole('button', { name: submit, exact: true }).click()
        await expect(page.getByText(/is required/).first()).toBeVisible()
        await findings.check(`${path}, submitted empty`)
      }

      // The header's drawer, on a phone's width.
      await page.setViewportSize(MOBILE)
      await page.goto('/')
      await page.getByRole('button', { name: 'Open navigation menu' }).click()
      await expect(page.getByRole('dialog', { name: 'Mobile Navigation' })).toBeVisible()
      await findings.check('/, mobile drawer open')

      findings.expectNone()
    })

    test(`signed-in pages, the task modal with a discussion, the account menu and the drawer, ${theme} theme`, async ({
      newPerson,
      pageFor,
    }, testInfo) => {
      const project = `${testInfo.project.name}-axe-${theme}`
      const { owner, taskId, ownComment, othersReply } = await discussedTask(newPerson, project)
      const page = await pageFor(owner, { theme })
      const findings = new Findings(page, theme)

      for (const path of ['/dashboard', '/task', '/settings', '/settings/two-factor', '/notifications']) {
        await page.goto(path)
        await findings.check(path)
      }

      // The developer page with a webhook endpoint, and that endpoint's deliveries.
      await page.goto('/settings/developer')
      const webhooks = page.getByRole('region', { name: 'Webhooks' })
      await webhooks.getByLabel('Endpoint URL').fill('https://hooks.example.test/in')
      await webhooks.getByRole('button', { name: 'Add endpoint' }).click()
      await expect(webhooks.getByLabel('Signing secret')).toBeVisible()
      await findings.check('/settings/developer, a new endpoint and its secret')
      await page.getByRole('link', { name: 'Deliveries' }).click()
      await expect(page.getByRole('heading', { name: 'Webhook deliveries' })).toBeVisible()
      await findings.check("a webhook endpoint's deliveries")

      const task = `/task?task=${taskId}`
      for (const [path, state] of [
        [task, 'the task modal with comments, replies and reactions'],
        [`${task}&view=edit`, 'the modal, editing the task'],
        [`${task}&view=delete`, 'the modal, confirming deletion of the task'],
        [`${task}&view=reply&comment=${ownComment}`, 'the modal, replying to a comment'],
        [`${task}&view=edit-comment&comment=${ownComment}`, 'the modal, editing a comment'],
        [`${task}&view=delete-comment&comment=${ownComment}`, 'the modal, confirming deletion of a comment'],
        [`${task}&view=reply&comment=${othersReply}`, "the modal, replying to someone else's reply"],
      ] as const) {
        await page.goto(path)
        await modalReady(page, true)
        await findings.check(state)
      }

      await page.goto('/dashboard')
      await page.getByRole('button', { name: /account menu/i }).click()
      await expect(
        page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Settings' }),
      ).toBeVisible()
      await findings.check('/dashboard, account menu open')

      await page.setViewportSize(MOBILE)
      await page.goto('/task')
      await page.getByRole('button', { name: 'Open navigation menu' }).click()
      await expect(page.getByRole('dialog', { name: 'Mobile Navigation' })).toBeVisible()
      await findings.check('/task, mobile drawer open')
      await page.setViewportSize(DESKTOP)

      // A visitor on the public task: reactions they cannot give, and a way to sign in.
      const visitorPage = await pageFor('visitor', { theme })
      await visitorPage.goto(`/?task=${taskId}`)
      await modalReady(visitorPage, true)
      const visitorFindings = new Findings(visitorPage, theme)
      await visitorFindings.check("a visitor on a public task's modal")

      findings.expectNone()
      visitorFindings.expectNone()
    })
  }
})

/** Collects the findings of many pages, so one failure lists them all. */
class Findings {
  private readonly found: Record<string, Awaited<ReturnType<typeof seriousA11yViolations>>> = {}
  constructor(
    private readonly page: Page,
    private readonly theme: Theme,
  ) {}

  async check(where: string) {
    await expectTheme(this.page, this.theme)
    const serious = await seriousA11yViolations(this.page)
    if (serious.length > 0) this.found[where] = serious
  }

  expectNone() {
    expect(this.found, `serious or critical axe findings, ${this.theme} theme`).toEqual({})
  }
}

/**
 * A public task with a discussion in every state the modal shows: the owner's comment with a
 * reply from a colleague, reactions given by each (one pressed for the viewer, one not); and a
 * second task with a due date and an assignee, so the list shows those badges.
 */
async function discussedTask(newPerson: NewPerson, project: string) {
  const [owner, colleague] = await Promise.all([newPerson('Ada'), newPerson('Grace')])
  const { id: taskId } = await createTaskThroughApi(owner, {
    text: uniqueTitle('Audit the discussion', project),
    details: 'Comments, replies and reactions.',
    refLink: 'https://example.com/audit',
    isPublic: true,
  })
  const { id: ownComment } = await addCommentThroughApi(owner, {
    taskId,
    content: 'Ready for review?',
  })
  const { id: othersReply } = await addCommentThroughApi(colleague, {
    taskId,
    content: 'Looks good to me.',
    parentCommentId: ownComment,
  })
  // The list's badges: a task due today, assigned to its owner.
  const session = JSON.parse((await owner.client.get('/api/auth/get-session')).body) as {
    user: { id: string }
  }
  await createTaskThroughApi(owner, {
    text: uniqueTitle('Due today, mine', project),
    dueDate: new Date().toISOString().slice(0, 10),
    assigneeId: session.user.id,
  })
  await react(owner, othersReply, 'thumbsup')
  await react(colleague, ownComment, 'heart')
  await react(owner, ownComment, 'fire')
  return { owner, taskId, ownComment, othersReply }
}

async function react(person: Person, commentId: string, reactionType: string) {
  const token = await person.client.csrf()
  const response = await person.client.post(
    '/api/rpc/comments/addReaction',
    { json: { json: { commentId, reactionType } } },
    { 'x-csrf-token': token },
  )
  if (response.status !== 200) throw new Error(`addReaction failed: ${response.status} ${response.body}`)
}
