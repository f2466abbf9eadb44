import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { tasks } from '~/db/schema'
import { setActiveWorkspace } from '~/services/sessions.server'
import { todayIn } from '~/utils/calendar'
import { signedInBrowser } from '../../../tests/helpers/auth'
import { createTask, createTeamWorkspace, createUser, shareTask } from '../../../tests/helpers/factories'
import { callAction, callLoader } from '../../../tests/helpers/route'
import { TASK_LIST_ROW_FIELDS } from '../../../tests/helpers/task-list'
import { action, loader } from './index'

/**
 * The list page's loader sends what the page renders and nothing else: the document carries the
 * loader's data for hydration, so every field of every row is paid for on each request (and an
 * address must never reach someone the task is only shared with). What the rows hold is the
 * services' (app/services/tasks/list.server.test.ts); the page itself is tests/e2e/tasks.e2e.ts.
 */

const db = database()

describe('/task loader', () => {
  test('each row carries only what the row shows; parents only their id and title', async () => {
    const grace = await createUser(db, { name: 'Grace' })
    const ada = await createUser(db, { name: 'Ada' })
    const own = await createTask(db, { userId: grace.id, text: 'Write the notes' })
    await createTask(db, { userId: grace.id, parentTaskId: own.id, text: 'Outline', status: 'Completed' })
    await shareTask(db, own.id, ['someone@example.com'])
    const shared = await createTask(db, { userId: ada.id, text: 'Plan the offsite' })
    await shareTask(db, shared.id, [grace.email, 'third-party@example.com'])
    await createTask(db, { userId: ada.id, text: 'Open agenda', isPublic: true })
    const browser = await signedInBrowser(db, grace.id)

    const { status, data } = await callLoader(loader, { url: '/task', headers: { Cookie: browser.cookie } })

    expect(status).toBe(200)
    const { groups, parents } = data
    const rows = [...groups.mine.tasks, ...groups.shared, ...groups.public]
    expect(rows.map((row) => row.text).sort()).toEqual(['Open agenda', 'Plan the offsite', 'Write the notes'])
    for (const row of rows) expect(Object.keys(row).sort()).toEqual(TASK_LIST_ROW_FIELDS)
    expect(groups.mine.tasks[0]).toMatchObject({ subtaskCount: 1, subtasksCompleted: 1, ownerName: 'Grace' })
    expect(parents).toEqual([{ id: own.id, text: 'Write the notes' }])
    const payload = JSON.stringify(data)
    expect(payload).not.toContain('@example.com')
    expect(payload).not.toContain(ada.id)
  })

  test('filters it cannot read are left out, not refused', async () => {
    const grace = await createUser(db)
    await createTask(db, { userId: grace.id, text: 'Done already', status: 'Completed', priority: 'high' })
    await createTask(db, { userId: grace.id, text: 'Still to do', status: 'Not Started', priority: 'high' })
    const browser = await signedInBrowser(db, grace.id)

    const { data } = await callLoader(loader, {
      url: '/task?status=Completed&priority=urgent&page=zero',
      headers: { Cookie: browser.cookie },
    })

    expect(data.filters).toEqual({
      status: 'Completed',
      priority: undefined,
      due: undefined,
      assignee: undefined,
      sort: undefined,
      page: 1,
    })
    expect(data.groups.mine.tasks.map((row) => row.text)).toEqual(['Done already'])
    expect(data.groups.mine.total).toBe(1)
  })

  test('overdue is by the viewer’s own today, from the time zone their browser reports', async () => {
    // Kiritimati (UTC+14) and Pago Pago (UTC−11) are always on different days.
    const ahead = 'Pacific/Kiritimati'
    const behind = 'Pacific/Pago_Pago'
    const grace = await createUser(db)
    await createTask(db, { userId: grace.id, text: 'Due where it is still today', dueDate: todayIn(behind) })
    await createTask(db, { userId: grace.id, text: 'Undated' })
    const browser = await signedInBrowser(db, grace.id)
    const overdueIn = async (zone: string) => {
      const { data } = await callLoader(loader, {
        url: '/task?due=overdue',
        headers: { Cookie: `${browser.cookie}; tz=${encodeURIComponent(zone)}` },
      })
      expect(data.today).toBe(todayIn(zone))
      return data.groups.mine.tasks.map((row) => row.text)
    }
    expect(await overdueIn(ahead)).toEqual(['Due where it is still today'])
    expect(await overdueIn(behind)).toEqual([])
  })

  test('sorted by due date, the undated come last', async () => {
    const grace = await createUser(db)
    await createTask(db, { userId: grace.id, text: 'Later', dueDate: '2031-05-02' })
    await createTask(db, { userId: grace.id, text: 'Undated' })
    await createTask(db, { userId: grace.id, text: 'Sooner', dueDate: '2031-05-01' })
    const browser = await signedInBrowser(db, grace.id)
    const { data } = await callLoader(loader, { url: '/task?sort=due', headers: { Cookie: browser.cookie } })
    expect(data.groups.mine.tasks.map((row) => row.text)).toEqual(['Sooner', 'Later', 'Undated'])
  })
})

describe('/task in the workspace the person works in', () => {
  async function inTeam() {
    const ada = await createUser(db, { name: 'Ada' })
    const bob = await createUser(db, { name: 'Bob' })
    const acme = await createTeamWorkspace(db, {
      ownerId: bob.id,
      members: [{ userId: ada.id, role: 'member' }],
    })
    const browser = await signedInBrowser(db, ada.id)
    await setActiveWorkspace(db, { id: browser.session.id, userId: ada.id }, acme.id)
    return { ada, bob, acme, browser }
  }

  test('lists the team’s tasks, another member’s among them, and offers them as parents; not the personal ones', async () => {
    const { ada, bob, acme, browser } = await inTeam()
    const bobs = await createTask(db, { userId: bob.id, workspaceId: acme.id, text: 'Bob’s team task' })
    await createTask(db, { userId: ada.id, text: 'Ada’s personal task' })

    const { data } = await callLoader(loader, { url: '/task', headers: { Cookie: browser.cookie } })

    expect(data.groups.mine.tasks.map((row) => row.text)).toEqual(['Bob’s team task'])
    expect(data.parents).toEqual([{ id: bobs.id, text: 'Bob’s team task' }])
  })

  test('the create form creates in the active workspace, or in another of the person’s that it names', async () => {
    const { ada, acme, browser } = await inTeam()
    const create = (fields: Record<string, string>) =>
      callAction(action, { url: '/task', headers: browser.headers(), form: browser.form(fields) })

    expect((await create({ text: 'Plan the launch' })).status).toBe(302)
    expect((await create({ text: 'Water the plants', workspaceId: ada.id })).status).toBe(302)
    const created = await db
      .select({ text: tasks.text, workspaceId: tasks.workspaceId })
      .from(tasks)
      .where(eq(tasks.userId, ada.id))
      .orderBy(tasks.text)
    expect(created).toEqual([
      { text: 'Plan the launch', workspaceId: acme.id },
      { text: 'Water the plants', workspaceId: ada.id },
    ])

    const stranger = await createUser(db)
    const refused = await create({ text: 'Somewhere else', workspaceId: stranger.id })
    expect(refused.status).toBe(404)
    expect(await db.select().from(tasks).where(eq(tasks.workspaceId, stranger.id))).toEqual([])
  })
})
