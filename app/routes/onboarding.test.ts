import { eq } from 'drizzle-orm'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { createRoutesStub } from 'react-router'
import { describe, expect, test } from 'vitest'
import { TASK_FIELD_CONSTRAINTS } from '~/components/task-form'
import { database } from '~/db/client.server'
import { events, taskShares, tasks, users } from '~/db/schema'
import { action as signupAction } from '~/routes/auth/signup'
import { anonymousBrowser, signedInBrowser } from '../../tests/helpers/auth'
import { createTask, createUser } from '../../tests/helpers/factories'
import { callAction, callLoader } from '../../tests/helpers/route'
import Onboarding, { action, loader } from './onboarding'

/**
 * /onboarding with real form posts, as a browser without JavaScript sends them: each step changes
 * what it says, any step can be skipped, finishing records onboardedAt and lands on /dashboard,
 * and someone who has finished is not guided again.
 */

const db = database()

async function newcomer() {
  const person = await createUser(db, { name: 'New Person' })
  const browser = await signedInBrowser(db, person.id)
  const post = (fields: Record<string, string>, url = '/onboarding') =>
    callAction(action, { url, headers: { Cookie: browser.cookie }, form: browser.form(fields) })
  const page = (url = '/onboarding') => callLoader(loader, { url, headers: { Cookie: browser.cookie } })
  const onboardedAt = async () =>
    (await db.select({ at: users.onboardedAt }).from(users).where(eq(users.id, person.id)))[0]?.at
  return { person, post, page, onboardedAt }
}

describe('loader', () => {
  test('sends a visitor to sign in and back', async () => {
    expect(await callLoader(loader, { url: '/onboarding' })).toMatchObject({
      status: 302,
      location: '/login?redirect=%2Fonboarding',
    })
  })

  test('shows the step asked for, the first one for anything else', async () => {
    const { page } = await newcomer()
    expect((await page('/onboarding?step=share')).data.step).toBe('share')
    expect((await page('/onboarding?step=nonsense')).data.step).toBe('profile')
    expect((await page()).data).toMatchObject({ step: 'profile', account: { name: 'New Person' } })
  })

  test('someone who finished is sent to the dashboard', async () => {
    const { page, post } = await newcomer()
    await post({ intent: 'finish' })
    expect(await page()).toMatchObject({ status: 302, location: '/dashboard' })
  })
})

describe('the steps, as plain form posts', () => {
  test('name, first task, sharing it, finishing: each step does its change and moves on', async () => {
    const { person, post, page, onboardedAt } = await newcomer()
    const grace = await createUser(db)

    expect(await post({ intent: 'profile', name: 'Ada Lovelace', image: '' })).toMatchObject({
      status: 302,
      location: '/onboarding?step=task',
    })
    expect(await post({ intent: 'task', text: 'Write the first program', priority: 'high' })).toMatchObject({
      status: 302,
      location: '/onboarding?step=share',
    })
    const [task] = await db.select().from(tasks).where(eq(tasks.userId, person.id))
    expect(task).toMatchObject({ text: 'Write the first program', priority: 'high', status: 'Not Started' })
    expect((await page('/onboarding?step=share')).data.onboarding.taskToShare?.id).toBe(task?.id)

    const shared = await post({
      intent: 'share',
      taskId: task?.id ?? '',
      sharedWith: grace.email,
      isPublic: 'on',
    })
    expect(shared).toMatchObject({ status: 302, location: '/onboarding?step=explore' })
    expect(
      await db
        .select()
        .from(taskShares)
        .where(eq(taskShares.taskId, task?.id ?? '')),
    ).toHaveLength(1)
    expect(
      (
        await db
          .select()
          .from(tasks)
          .where(eq(tasks.id, task?.id ?? ''))
      )[0]?.isPublic,
    ).toBe(true)
    const logged = await db
      .select()
      .from(events)
      .where(eq(events.taskId, task?.id ?? ''))
    expect(logged.map((event) => event.type)).toEqual(['task-created', 'task-updated'])

    expect(await onboardedAt()).toBeNull()
    expect(await post({ intent: 'finish' })).toMatchObject({ status: 302, location: '/dashboard' })
    expect(await onboardedAt()).toBeInstanceOf(Date)
    expect((await db.select().from(users).where(eq(users.id, person.id)))[0]?.name).toBe('Ada Lovelace')
  })

  test('every step can be skipped; skipping the last finishes', async () => {
    const { post, onboardedAt } = await newcomer()
    const skip = (step: string) => post({ intent: 'skip', step })
    expect(await skip('profile')).toMatchObject({ location: '/onboarding?step=task' })
    expect(await skip('task')).toMatchObject({ location: '/onboarding?step=share' })
    expect(await skip('share')).toMatchObject({ location: '/onboarding?step=explore' })
    expect(await onboardedAt()).toBeNull()
    expect(await skip('explore')).toMatchObject({ location: '/dashboard' })
    expect(await onboardedAt()).toBeInstanceOf(Date)
  })

  test('bad input answers 400 next to its field and changes nothing', async () => {
    const { person, post } = await newcomer()
    const other = await createTask(db)

    const short = await post({ intent: 'task', text: 'ab' })
    expect(short.status).toBe(400)
    expect(JSON.stringify(short.data)).toContain('text')
    const nothing = await post({ intent: 'share', taskId: (await createTask(db, { userId: person.id })).id })
    expect(nothing.status).toBe(400)
    expect(JSON.stringify(nothing.data)).toContain('Enter an address to share with, or make the task public.')
    const notMine = await post({ intent: 'share', taskId: other.id, isPublic: 'on' })
    expect(notMine.status).toBe(404)
    expect((await db.select().from(tasks).where(eq(tasks.id, other.id)))[0]?.isPublic).toBe(false)
    expect((await post({ intent: 'nonsense' })).status).toBe(400)
  })
})

describe('who is guided there', () => {
  test('a new sign-up lands on /onboarding; one on its way somewhere keeps going there', async () => {
    const signUp = async (email: string, redirect: string) => {
      const browser = anonymousBrowser()
      return callAction(signupAction, {
        url: '/signup',
        headers: { Cookie: browser.cookie },
        form: browser.form({ name: 'Newcomer', email, password: 'a long enough password', redirect }),
      })
    }
    expect(await signUp('first@example.test', '')).toMatchObject({ status: 302, location: '/onboarding' })
    expect(await signUp('second@example.test', '/task')).toMatchObject({ status: 302, location: '/task' })
  })
})

describe('the page', () => {
  test('the first task’s title carries the limits a task’s title has everywhere else', async () => {
    const { page } = await newcomer()
    const { data } = await page('/onboarding?step=task')
    const Page = createRoutesStub([
      { id: 'routes/onboarding', path: '/onboarding', Component: Onboarding as never },
    ])
    const html = renderToString(
      createElement(Page, {
        initialEntries: ['/onboarding?step=task'],
        hydrationData: { loaderData: { 'routes/onboarding': data } },
      }),
    )
    const title = html.match(/<input[^>]*name="text"[^>]*>/)?.[0] ?? ''
    const { minLength, maxLength } = TASK_FIELD_CONSTRAINTS.text
    expect(title).toContain('required=""')
    expect(title).toContain(`minLength="${minLength}"`)
    expect(title).toContain(`maxLength="${maxLength}"`)
  })
})
