import { type Browser, type BrowserContext, expect, type Locator, type Page } from '@playwright/test'
import { linkIn } from '../fixtures/smtp-server'
import { type AuthClient, signUpThroughApi, uniqueAddress } from './auth-client'
import { waitForEmail } from './mail'

/**
 * People for the task journeys. The e2e database starts empty, and a task shared with an address
 * reaches its owner only once that address is verified, so each person is signed up through
 * /api/auth from an address of their own (sign-ups are rate limited per IP, and every browser is
 * 127.0.0.1), verified through the link the app e-mailed to the SMTP fixture, and then handed to
 * a browser as that session's cookie — the way a person who signed in earlier comes back.
 */

export type Person = { name: string; email: string; client: AuthClient }

const PASSWORD = 'tasks journey password'

export async function verifiedPerson(baseURL: string, name: string, project: string): Promise<Person> {
  const email = uniqueAddress(name.toLowerCase(), project)
  const client = await signUpThroughApi(baseURL, { name, email, password: PASSWORD })
  const welcome = await waitForEmail(email, 'Verify your e-mail address')
  const link = linkIn(welcome, '/email/verify-email')
  const token = link.searchParams.get('token') ?? ''
  const verified = await client.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)
  if (verified.status !== 200) throw new Error(`verification failed: ${verified.status} ${verified.body}`)
  return { name, email, client }
}

/** A browser context signed in as `person`, with JavaScript as the project runs it. */
export async function browserFor(
  browser: Browser,
  person: Person,
  options: { baseURL: string; javaScriptEnabled: boolean; theme?: 'light' | 'dark' },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    javaScriptEnabled: options.javaScriptEnabled,
  })
  await signIn(context, person, options.baseURL)
  if (options.theme) await context.addCookies([{ name: 'theme', value: options.theme, url: options.baseURL }])
  return { context, page: await context.newPage() }
}

/** Gives a browser context the person's session. */
export async function signIn(context: BrowserContext, person: Person, baseURL: string) {
  const session = person.client.cookies.get('tw_session')
  if (!session) throw new Error(`${person.email} has no session cookie`)
  await context.addCookies([
    { name: 'tw_session', value: session, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}

export type TaskInput = {
  text: string
  details?: string
  refLink?: string
  priority?: 'high' | 'medium' | 'low'
  status?: 'Not Started' | 'In Progress' | 'Completed'
  hrs?: number
  isPublic?: boolean
  sharedWith?: string[]
  parentTaskId?: string
}

/**
 * A task made through the RPC door, for journeys about something other than the create form
 * (which has journeys of its own).
 */
export async function createTaskThroughApi(person: Person, input: TaskInput): Promise<{ id: string }> {
  const token = await person.client.csrf()
  const response = await person.client.post(
    '/api/rpc/task/create',
    { json: { json: input } },
    { 'x-csrf-token': token },
  )
  if (response.status !== 200) throw new Error(`task.create failed: ${response.status} ${response.body}`)
  return (JSON.parse(response.body) as { json: { id: string } }).json
}

/** A title no other test, project or run uses (the Public group is everyone's). */
export function uniqueTitle(label: string, project: string) {
  return `${label} ${project} ${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
}

/** One of the /task page's groups: 'My tasks', 'Shared with me' or 'Public'. */
export function group(page: Page, name: 'My tasks' | 'Shared with me' | 'Public') {
  return page.getByRole('region', { name: new RegExp(`^${name} \\(\\d+\\)$`) })
}

/** The row of the task with this title, within a group or the page. */
export function row(scope: Page | Locator, title: string) {
  const page = 'page' in scope ? scope.page() : scope
  // `has` is matched inside each row, so it is built from the page, not from the scope.
  return scope.getByTestId('task-row').filter({ has: page.getByRole('link', { name: title, exact: true }) })
}

/** The task-details modal (a <dialog>, open on the server and modal after hydration). */
export function modal(page: Page) {
  return page.getByRole('dialog')
}

/** "November 22, 2026": how the modal prints a creation time, in English, in UTC. */
export function longDate(iso: string) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso))
}

/**
 * With JavaScript, waits until React runs the /task page (conform turns the browser's own
 * validation off once it has hydrated), so clicks and changes reach its handlers.
 */
export async function listReady(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return
  await expect(page.locator('form#create-task')).toHaveAttribute('novalidate', '')
}

/** With JavaScript, waits until the open task modal has become a real modal dialog. */
export async function modalReady(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) await expect(modal(page)).toHaveAttribute('open', '')
  else await expect(page.locator('dialog:modal')).toHaveCount(1)
}

/** The value the modal lists beside a term ('Visibility', 'Created by', 'Shared with', 'Created'). */
export function detail(dialog: Locator, term: string) {
  return dialog.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]')
}

/** The hue, in degrees, of a computed CSS colour in oklch() (Tailwind 4's palette). */
export function hue(color: string) {
  const oklch = /^oklch\(\s*[\d.]+%?\s+[\d.]+\s+([\d.]+)/.exec(color)
  if (!oklch?.[1]) throw new Error(`Cannot tell the hue of ${color}`)
  return Number(oklch[1])
}

/** Ada and Grace, and a private task of Ada's shared with Grace. */
export async function sharedTask(baseURL: string, project: string, label: string) {
  const [ada, grace] = await Promise.all([
    verifiedPerson(baseURL, 'Ada', project),
    verifiedPerson(baseURL, 'Grace', project),
  ])
  const text = uniqueTitle(label, project)
  const { id } = await createTaskThroughApi(ada, { text, sharedWith: [grace.email] })
  return { ada, grace, id, text }
}
