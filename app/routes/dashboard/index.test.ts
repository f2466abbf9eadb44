import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { users } from '~/db/schema'
import { setActiveWorkspace } from '~/services/sessions.server'
import { todayIn } from '~/utils/calendar'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createTask, createTeamWorkspace, createUser, shareTask } from '../../../tests/helpers/factories'
import { links, visibleText } from '../../../tests/helpers/html'
import { callLoader } from '../../../tests/helpers/route'
import Dashboard, { loader } from './index'

/**
 * /dashboard from its loader to its server-rendered HTML: the numbers come from the stats
 * service in the browser's time zone, the charts are SVG pictures with a name, a description
 * and a table of the same numbers, and a new person sees where to start.
 */

const db = database()

async function dashboardOf(userId: string, cookie = '') {
  const browser = await signedInBrowser(db, userId)
  const page = await callLoader(loader, {
    url: '/dashboard',
    headers: { Cookie: [browser.cookie, cookie].filter(Boolean).join('; ') },
  })
  expect(page.status).toBe(200)
  return page.data
}

function render(loaderData: unknown) {
  const Page = createRoutesStub([
    { id: 'routes/dashboard/index', path: '/dashboard', Component: Dashboard as never },
  ])
  return renderToString(
    createElement(Page, {
      initialEntries: ['/dashboard'],
      hydrationData: { loaderData: { 'routes/dashboard/index': loaderData } },
    }),
  )
}

describe('loader', () => {
  test('sends a visitor to sign in and back', async () => {
    const page = await callLoader(loader, { url: '/dashboard' })
    expect(page).toMatchObject({ status: 302, location: '/login?redirect=%2Fdashboard' })
  })

  test('counts what /task lists as the person’s tasks, in the zone of the tz cookie', async () => {
    const ada = await createUser(db, { onboardedAt: new Date() })
    const parent = await createTask(db, {
      userId: ada.id,
      // A second earlier than the subtask below: both in one millisecond would tie as the newest.
      createdAt: new Date(Date.now() - 1_000),
      status: 'Completed',
      completedAt: new Date(),
      hrs: 3,
    })
    await createTask(db, { userId: ada.id, parentTaskId: parent.id })

    const data = await dashboardOf(ada.id, 'tz=Europe%2FBerlin')

    expect(data.stats.own).toMatchObject({ total: 1, hoursCompleted: 3, subtasks: { done: 0, total: 1 } })
    expect(data.insights).toMatchObject({ timeZone: 'Europe/Berlin', completedThisWeek: 1 })
    expect(data.recentlyCreated?.parentTaskId).toBe(parent.id)
    expect(data.recentlyCompleted?.id).toBe(parent.id)
    expect(data.onboarding.isFinished).toBe(true)
  })

  test('counts what is overdue and due this week in the zone of the tz cookie, own and assigned apart', async () => {
    const ada = await createUser(db, { onboardedAt: new Date() })
    const grace = await createUser(db)
    await createTask(db, { userId: ada.id, dueDate: '2020-01-01' })
    await createTask(db, {
      userId: ada.id,
      dueDate: '2020-01-01',
      status: 'Completed',
      completedAt: new Date(),
    })
    await createTask(db, { userId: ada.id, dueDate: todayIn('Asia/Tokyo') })
    const assigned = await createTask(db, {
      userId: grace.id,
      dueDate: todayIn('Asia/Tokyo'),
      assigneeId: ada.id,
    })
    await shareTask(db, assigned.id, [ada.email])

    const data = await dashboardOf(ada.id, 'tz=Asia%2FTokyo')

    expect(data.due).toEqual({
      own: { overdue: 1, dueThisWeek: 1 },
      assigned: { overdue: 0, dueThisWeek: 1 },
    })
    const text = visibleText(render(data))
    expect(text).toMatch(/Overdue\s*1\s*of your tasks/)
    expect(text).toMatch(/Assigned to you, due this week\s*1/)
  })
})

describe('page', () => {
  test('a new person sees an empty state pointing to the first task, and the checklist', async () => {
    const newcomer = await createUser(db)

    const html = render(await dashboardOf(newcomer.id))

    const text = visibleText(html)
    expect(text).toContain('No tasks yet')
    expect(links(html)).toContainEqual({ text: 'Create your first task', href: '/task#create-task' })
    expect(text).toContain('Get started')
    expect(text).toContain('1 of 3 done')
    expect(html).not.toContain('role="img"')
  })

  test('charts are SVG rendered on the server, each an image with a title, a description and a table', async () => {
    const ada = await createUser(db, { onboardedAt: new Date() })
    const grace = await createUser(db)
    await createTask(db, {
      userId: ada.id,
      priority: 'high',
      status: 'Completed',
      completedAt: new Date(),
      hrs: 2,
    })
    await createTask(db, { userId: ada.id, priority: 'low', status: 'In Progress' })
    const shared = await createTask(db, { userId: grace.id, text: 'Grace asks for help' })
    await shareTask(db, shared.id, [ada.email])

    const html = render(await dashboardOf(ada.id))

    expect(html.match(/role="img"/g)).toHaveLength(4)
    // Three bars in each of the two bar lists, one drawing for each column chart.
    expect(html.match(/<svg/g)).toHaveLength(3 + 3 + 1 + 1)
    for (const title of [
      'Tasks by status',
      'Tasks by priority',
      'Hours completed per week',
      'Completions per day',
    ]) {
      expect(html).toContain(`<caption>${title}</caption>`)
    }
    expect(html).toContain('Of your 2 tasks: 0 in the backlog, 1 in progress, 1 done.')
    expect(html).toMatch(/<th scope="row">Done<\/th><td>1<\/td>/)
    const text = visibleText(html)
    expect(text).toContain('You completed 1 task this week, 1 more than last week.')
    expect(text).toContain('Shared with you')
    expect(text).not.toContain('Get started')
    expect(links(html).map((link) => link.href)).toContainEqual(expect.stringMatching(/^\/dashboard\?task=/))
  })

  test('the checklist ticks what the person already did, and goes once onboarding is finished', async () => {
    const ada = await createUser(db)
    await createTask(db, { userId: ada.id, isPublic: true })

    expect(visibleText(render(await dashboardOf(ada.id)))).toContain('3 of 3 done')
    await db.update(users).set({ onboardedAt: new Date() }).where(eq(users.id, ada.id))
    expect(visibleText(render(await dashboardOf(ada.id)))).not.toContain('Get started')
  })
})

describe('in a team workspace', () => {
  test('the numbers are the workspace’s, whoever created its tasks; the personal tasks count there only', async () => {
    const ada = await createUser(db)
    const bob = await createUser(db)
    const acme = await createTeamWorkspace(db, {
      ownerId: ada.id,
      members: [{ userId: bob.id, role: 'member' }],
    })
    await createTask(db, {
      userId: bob.id,
      workspaceId: acme.id,
      status: 'Completed',
      completedAt: new Date(),
      createdAt: new Date(Date.now() - 60_000),
    })
    await createTask(db, { userId: ada.id, workspaceId: acme.id, text: 'Newest team task' })
    await createTask(db, { userId: ada.id, text: 'Personal one' })
    const browser = await signedInBrowser(db, ada.id)
    await setActiveWorkspace(db, { id: browser.session.id, userId: ada.id }, acme.id)

    const inTeam = await callLoader(loader, { url: '/dashboard', headers: { Cookie: browser.cookie } })
    expect(inTeam.data.stats.own).toMatchObject({ total: 2, byStatus: { Completed: 1, 'Not Started': 1 } })
    expect(inTeam.data.recentlyCreated?.text).toBe('Newest team task')
    expect(inTeam.data.insights.completionsPerDay.at(-1)?.completed).toBe(1)

    await setActiveWorkspace(db, { id: browser.session.id, userId: ada.id }, ada.id)
    const personal = await callLoader(loader, { url: '/dashboard', headers: { Cookie: browser.cookie } })
    expect(personal.data.stats.own.total).toBe(1)
    expect(personal.data.recentlyCreated?.text).toBe('Personal one')
  })
})
