import { eq } from 'drizzle-orm'
import { describe, expect, test } from 'vitest'
import { database } from '~/db/client.server'
import { sessions } from '~/db/schema'
import { findSession } from '~/services/sessions.server'
import { callThroughMiddleware, signedInBrowser } from '../../../tests/helpers/auth'
import { createTeamWorkspace, createUser } from '../../../tests/helpers/factories'
import { expectOnSite, OFF_SITE_TARGETS } from '../../../tests/helpers/redirect-attacks'
import { action } from './switch'

/**
 * POST /workspaces/switch through the root middleware, as a form posts it without JavaScript
 * (the header's <select> and its button; with JavaScript a fetcher posts the same fields).
 */

const db = database()

async function member() {
  const person = await createUser(db, { name: 'Ada' })
  const owner = await createUser(db)
  const team = await createTeamWorkspace(db, {
    ownerId: owner.id,
    name: 'Acme',
    members: [{ userId: person.id, role: 'member' }],
  })
  const browser = await signedInBrowser(db, person.id)
  return { person, team, browser }
}

const storedActive = async (sessionId: string) =>
  (
    await db.select({ active: sessions.activeWorkspaceId }).from(sessions).where(eq(sessions.id, sessionId))
  )[0]?.active

const switchTo = (browser: Awaited<ReturnType<typeof signedInBrowser>>, fields: Record<string, string>) =>
  callThroughMiddleware(action, {
    url: '/workspaces/switch',
    headers: browser.headers({ withCsrf: false }),
    form: browser.form(fields),
  })

describe('POST /workspaces/switch', () => {
  test('one of the person’s workspaces: the session works in it, and the page it came from follows', async () => {
    const { person, team, browser } = await member()

    const answer = await switchTo(browser, { workspaceId: team.id, redirectTo: '/task?status=Completed' })

    expect(answer.status).toBe(302)
    expect(answer.location).toBe('/task?status=Completed')
    expect(await storedActive(browser.session.id)).toBe(team.id)
    expect((await findSession(db, browser.session.token))?.user.activeWorkspaceId).toBe(team.id)
    // Back to the personal workspace: stored as none, what a new session starts with.
    const back = await switchTo(browser, { workspaceId: person.id, redirectTo: '/dashboard' })
    expect(back.location).toBe('/dashboard')
    expect(await storedActive(browser.session.id)).toBeNull()
    expect((await findSession(db, browser.session.token))?.user.activeWorkspaceId).toBe(person.id)
  })

  test('a workspace the person is not in, or none at all, is refused as unknown and changes nothing', async () => {
    const { team, browser } = await member()
    const stranger = await createUser(db)
    const foreign = await createTeamWorkspace(db, { ownerId: stranger.id })
    await switchTo(browser, { workspaceId: team.id })

    for (const workspaceId of [foreign.id, stranger.id, 'no-such-workspace']) {
      const answer = await switchTo(browser, { workspaceId, redirectTo: '/task' })
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual({ error: 'Workspace not found', back: '/task' })
      expect(await storedActive(browser.session.id)).toBe(team.id)
    }
    const empty = await switchTo(browser, { workspaceId: '' })
    expect(empty.status).toBe(400)
    expect(await storedActive(browser.session.id)).toBe(team.id)
  })

  test('only the session that switched works in the new workspace', async () => {
    const { person, team, browser } = await member()
    const phone = await signedInBrowser(db, person.id)
    await switchTo(browser, { workspaceId: team.id })
    expect((await findSession(db, phone.session.token))?.user.activeWorkspaceId).toBe(person.id)
  })

  test.each(OFF_SITE_TARGETS)('redirectTo %s: stays on this site', async (_label, target) => {
    const { team, browser } = await member()
    const answer = await switchTo(browser, { workspaceId: team.id, redirectTo: target })
    expect(answer.status).toBe(302)
    expectOnSite(answer.location)
  })

  test('without a CSRF token nothing changes; a visitor is sent to sign in', async () => {
    const { team, browser } = await member()
    const forged = await callThroughMiddleware(action, {
      url: '/workspaces/switch',
      headers: browser.headers({ withCsrf: false }),
      form: { workspaceId: team.id },
    })
    expect(forged.status).toBe(403)
    expect(await storedActive(browser.session.id)).toBeNull()

    const visitor = await callThroughMiddleware(action, {
      url: '/workspaces/switch',
      form: { workspaceId: team.id },
    })
    expect(visitor.handled).toBe(false)
    expect(visitor.status).toBe(403)
  })
})
