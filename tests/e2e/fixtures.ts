import { type BrowserContext, test as base, expect, type Page } from '@playwright/test'
import { linkIn } from '../fixtures/smtp-server'
import { type ApiClient, signUpThroughApi } from './api-client'
import { waitForEmail } from './smtp-inbox'
import { setThemeCookie, type Theme } from './theme-cookie'
import { uniqueAddress } from './unique'

/**
 * What every browser journey starts from: people who have an account, and browsers signed in as
 * them that close themselves when the test ends. Test files import `test` and `expect` from here.
 *
 * The e2e database starts empty, and a task shared with an address reaches its owner only once
 * that address is verified, so each person is signed up through /api/auth from an address of
 * their own (sign-ups are rate limited per IP, and every browser is 127.0.0.1), verified through
 * the link the app e-mailed to the SMTP fixture, and then handed to a browser as that session's
 * cookie — the way a person who signed in earlier comes back.
 */

export type Person = { name: string; email: string; client: ApiClient }

export type NewPerson = (name: string) => Promise<Person>

/** Whom a browser is signed in as: a person, or only the API client of an account. */
type Session = Pick<Person, 'client'>

type PageOptions = {
  /** The theme cookie, as the toggle sets it; the test's `theme` option if not given. */
  theme?: Theme
}

type Fixtures = {
  /** The theme `signedInPage` (and any `pageFor` not told otherwise) shows; unset, the default. */
  theme: Theme | undefined
  /** A new verified person with this name, signed in through the API. */
  newPerson: NewPerson
  /**
   * A page in a browser of its own (JavaScript as the project runs it), signed in as `who`, or
   * signed out for 'visitor'. Closed when the test ends.
   */
  pageFor: (who: Session | 'visitor', options?: PageOptions) => Promise<Page>
  /** A verified person of this test's own. */
  person: Person
  /** A page signed in as `person`. */
  signedInPage: Page
}

export type PageFor = Fixtures['pageFor']

const PASSWORD = 'e2e journey password'

export const test = base.extend<Fixtures>({
  theme: [undefined, { option: true }],

  newPerson: async ({ baseURL }, use, testInfo) => {
    await use((name) => verifiedPerson(baseURL ?? '', name, testInfo.project.name))
  },

  pageFor: async ({ browser, baseURL, javaScriptEnabled, viewport, theme }, use) => {
    const contexts: BrowserContext[] = []
    await use(async (who, options = {}) => {
      const context = await browser.newContext({ baseURL, javaScriptEnabled, viewport })
      contexts.push(context)
      if (who !== 'visitor') await addSession(context, who, baseURL ?? '')
      const chosen = options.theme ?? theme
      if (chosen) await setThemeCookie(context, baseURL ?? '', chosen)
      return context.newPage()
    })
    await Promise.all(contexts.map((context) => context.close()))
  },

  person: async ({ newPerson }, use) => {
    await use(await newPerson('Ada'))
  },

  signedInPage: async ({ pageFor, person }, use) => {
    await use(await pageFor(person))
  },
})

export { expect }

/** A person signed up and verified through the API; at `email` when given (an admin's address). */
export async function verifiedPerson(
  baseURL: string,
  name: string,
  project: string,
  email = uniqueAddress(name.toLowerCase(), project),
): Promise<Person> {
  const client = await signUpThroughApi(baseURL, { name, email, password: PASSWORD })
  const welcome = await waitForEmail(email, 'Verify your e-mail address')
  const link = linkIn(welcome, '/email/verify-email')
  const token = link.searchParams.get('token') ?? ''
  const verified = await client.get(`/api/auth/verify-email?token=${encodeURIComponent(token)}`)
  if (verified.status !== 200) throw new Error(`verification failed: ${verified.status} ${verified.body}`)
  return { name, email, client }
}

/** Gives a browser context the session's cookie. */
async function addSession(context: BrowserContext, who: Session, baseURL: string) {
  const session = who.client.cookies.get('tw_session')
  if (!session) throw new Error(`The client at ${who.client.ip} has no session cookie`)
  await context.addCookies([
    { name: 'tw_session', value: session, url: baseURL, httpOnly: true, sameSite: 'Lax' },
  ])
}
