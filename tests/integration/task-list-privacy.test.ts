import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SESSION_COOKIE } from '~/auth/session-cookie.server'
import { database } from '~/db/client.server'
import { env } from '~/env.server'
import { createSession } from '~/services/sessions.server'
import { eventStreams } from '~/streams/event-streams.server'
import { serveApp } from '../helpers/app-server'
import { createTask, createUser } from '../helpers/factories'
import type { TestServer } from '../helpers/http-server'

/**
 * Two people's `/task` never share a part of an answer: through the whole server (server/app.ts,
 * every step ahead of React Router and the router itself), requests of two people taking turns
 * each get a document of their own tasks and name only, marked for no shared cache, and one
 * person's validator sent with the other's cookie brings the other's own page, never a 304.
 */

const db = database()
let server: TestServer

type Person = { name: string; cookie: string; task: string }
const people: Person[] = []

beforeAll(async () => {
  server = await serveApp(env())
  for (const name of ['Ingrid Oyelaran', 'Tomasz Vellacott']) {
    const user = await createUser(db, { name })
    const task = `${name.split(' ')[0]}'s private errand`
    await createTask(db, { userId: user.id, text: task })
    const session = await createSession(db, user.id, {})
    people.push({ name, task, cookie: `${SESSION_COOKIE}=${encodeURIComponent(session.token)}` })
  }
})

afterAll(async () => {
  eventStreams().close()
  await server.close()
})

const taskList = (person: Person, headers: Record<string, string> = {}) =>
  fetch(`${server.origin}/task`, { headers: { accept: 'text/html', cookie: person.cookie, ...headers } })

describe("two people's /task", () => {
  test('each answer, taking turns, holds only its own person’s tasks and name, for no shared cache', async () => {
    for (let turn = 0; turn < 6; turn++) {
      const [me, other] = turn % 2 === 0 ? [people[0], people[1]] : [people[1], people[0]]
      if (!me || !other) throw new Error('two people are set up')
      const response = await taskList(me)
      const html = await response.text()
      expect(response.status).toBe(200)
      expect(html).toContain(me.task.replace("'", '&#x27;'))
      expect(html).toContain(me.name)
      expect(html).not.toContain(other.task.replace("'", '&#x27;'))
      expect(html).not.toContain(other.name)
      expect(response.headers.get('cache-control') ?? '').toMatch(/\b(private|no-store)\b/)
      expect(response.headers.get('cache-control') ?? '').not.toMatch(/\bpublic\b/)
    }
  })

  test('one person’s validator with the other’s cookie brings the other’s own page', async () => {
    const [first, second] = people
    if (!first || !second) throw new Error('two people are set up')
    const theirs = await taskList(first)
    const validator = theirs.headers.get('etag') ?? theirs.headers.get('last-modified') ?? '"none"'
    await theirs.text()
    const mine = await taskList(second, { 'if-none-match': validator, 'if-modified-since': validator })
    expect(mine.status).toBe(200)
    const html = await mine.text()
    expect(html).toContain(second.name)
    expect(html).not.toContain(first.name)
  })
})
