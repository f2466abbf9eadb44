import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { setActiveWorkspace } from '~/services/sessions.server'
import { signedInBrowser } from '../tests/helpers/auth'
import { createTask, createTeamWorkspace, createUser, shareTask } from '../tests/helpers/factories'
import { callLoader } from '../tests/helpers/route'
import { loader } from './root'

/**
 * What every signed-in page gets of workspaces from the root loader: the header's switcher (the
 * person's workspaces, and the one the session works in), and the task modal, which opens for
 * whoever may see the task whichever workspace is active and names the task's workspace when it
 * is one of the viewer's but not the active one.
 */

const db = database()

async function world() {
  const ada = await createUser(db, { name: 'Ada' })
  const bob = await createUser(db, { name: 'Bob' })
  const guest = await createUser(db, { name: 'Gus' })
  const acme = await createTeamWorkspace(db, {
    ownerId: bob.id,
    name: 'Acme',
    members: [{ userId: ada.id, role: 'member' }],
  })
  const teamTask = await createTask(db, { userId: bob.id, workspaceId: acme.id, text: 'Team plan' })
  await shareTask(db, teamTask.id, [guest.email])
  const personalTask = await createTask(db, { userId: ada.id, text: 'Ada’s own' })
  const browser = await signedInBrowser(db, ada.id)
  return { ada, bob, guest, acme, teamTask, personalTask, browser }
}

const open = (cookie: string, taskId: string) =>
  callLoader(loader, { url: `/task?task=${taskId}`, headers: { Cookie: cookie } })

describe('root loader: workspaces', () => {
  test('a signed-in page carries the person’s workspaces, personal first, and the active one', async () => {
    const { ada, acme, browser } = await world()
    const { data } = await callLoader(loader, { url: '/task', headers: { Cookie: browser.cookie } })
    expect(data.workspaces).toEqual([
      { id: ada.id, name: 'Personal', isPersonal: true },
      { id: acme.id, name: 'Acme', isPersonal: false },
    ])
    expect(data.user?.activeWorkspaceId).toBe(ada.id)
    await setActiveWorkspace(db, { id: browser.session.id, userId: ada.id }, acme.id)
    const after = await callLoader(loader, { url: '/task', headers: { Cookie: browser.cookie } })
    expect(after.data.user?.activeWorkspaceId).toBe(acme.id)
    // A visitor's pages carry none.
    expect((await callLoader(loader, { url: '/' })).data.workspaces).toEqual([])
  })

  test('?task= opens whichever workspace is active, naming the task’s workspace when it is not the active one', async () => {
    const { ada, acme, teamTask, personalTask, browser } = await world()
    const modalOf = async (taskId: string) => {
      const { data } = await open(browser.cookie, taskId)
      if (!data.taskModal || 'error' in data.taskModal) throw new Error('the modal did not open')
      return data.taskModal
    }

    // Working in the personal workspace: the team's task opens, named as Acme's.
    expect(await modalOf(teamTask.id)).toMatchObject({
      task: { text: 'Team plan' },
      workspace: { id: acme.id, name: 'Acme' },
    })
    expect((await modalOf(personalTask.id)).workspace).toBeNull()

    await setActiveWorkspace(db, { id: browser.session.id, userId: ada.id }, acme.id)
    expect((await modalOf(teamTask.id)).workspace).toBeNull()
    expect(await modalOf(personalTask.id)).toMatchObject({
      task: { text: 'Ada’s own' },
      workspace: { id: ada.id, name: 'Personal' },
    })
  })

  test('a guest of the task opens it too, and learns nothing of its workspace', async () => {
    const { guest, teamTask } = await world()
    const browser = await signedInBrowser(db, guest.id)
    const { data } = await open(browser.cookie, teamTask.id)
    expect(data.taskModal).toMatchObject({ task: { text: 'Team plan' }, workspace: null })
    expect(JSON.stringify(data)).not.toContain('Acme')
  })
})
